import { nodeBuiltin } from '@boltzmann/ising-core/internal';
import { DqaError } from './errors.js';

/** The number-only build of mathjs: the schedule-expression parser and its functions. */
export type ScheduleMath = typeof import('mathjs/number');

let loaded: ScheduleMath | undefined;

/**
 * Loads mathjs for schedule expressions (strings such as `'1 - u^2'`).
 *
 * Only string schedules need it, so dqa-sim does not import it at start-up: it costs about 0.7 s
 * to load. In Node it loads by itself on first use; in a browser (no synchronous `require`) call
 * this once first.
 *
 * @example
 * import { annealDistribution, loadScheduleParser } from '@boltzmann/dqa-sim';
 *
 * await loadScheduleParser();
 * const p = annealDistribution({ fields: [0.5] }, { schedule: { A: '1 - u', B: 'u^2' } });
 * console.log(p);
 * @category Annealing
 */
export async function loadScheduleParser(): Promise<void> {
  loaded ??= await import('mathjs/number');
}

/** Node's `require` (no top-level Node import: the package bundles for browsers); undefined elsewhere. */
function nodeRequire(): ((id: string) => unknown) | undefined {
  const module = nodeBuiltin<typeof import('node:module')>('node:module');
  // The CJS build has __filename and no import.meta; the ESM build the other way round.
  return module?.createRequire(typeof __filename === 'string' ? __filename : import.meta.url);
}

/**
 * mathjs for a schedule expression: loaded already, or now (synchronously, in Node).
 *
 * @throws {DqaError} DQA_SCHEDULE_PARSER_NOT_LOADED where mathjs cannot be loaded synchronously
 *   and {@link loadScheduleParser} has not run.
 */
export function scheduleMath(): ScheduleMath {
  if (loaded !== undefined) return loaded;
  const require = nodeRequire();
  if (require === undefined) {
    throw new DqaError(
      'DQA_SCHEDULE_PARSER_NOT_LOADED',
      'schedule expressions need mathjs, which this environment cannot load synchronously: call `await loadScheduleParser()` once before using a string schedule, or give the schedule as functions of u',
    );
  }
  loaded = require('mathjs/number') as ScheduleMath;
  return loaded;
}

/** True once mathjs is loaded (for tests and diagnostics). */
export function scheduleParserLoaded(): boolean {
  return loaded !== undefined;
}
