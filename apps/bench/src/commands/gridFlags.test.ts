import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { BenchError } from '../benchError.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { engineThreadsFor } from './gridOptions.js';

const errorOf = (...argv: string[]): BenchError => {
  try {
    parseBenchArgs(argv, () => undefined);
  } catch (error) {
    if (error instanceof BenchError) return error;
    throw error;
  }
  throw new Error(`bench ${argv.join(' ')} was accepted`);
};

const helpOf = (task: string): string => {
  let text = '';
  parseBenchArgs([task, '--help'], (s) => {
    text += s;
  });
  return text;
};

/** Each task's own flags: the ones only some tasks take. */
const OWN: Record<string, readonly string[]> = {
  shakespeare: [
    '--data',
    '--eval-windows',
    '--variants',
    '--sampler',
    '--sampler-options',
    '--sampler-option',
  ],
  brackets: [
    '--mode',
    '--types',
    '--variants',
    '--sampler',
    '--sampler-options',
    '--sampler-option',
  ],
  dqa: [
    '--data',
    '--eval-windows',
    '--mode',
    '--types',
    '--datasets',
    '--shots',
    '--dqa-options',
    '--sweep-taus',
    '--sweep-steps',
  ],
  gpt: [
    '--data',
    '--warmup-steps',
    '--eval-batches',
    '--variants',
    '--sampler',
    '--sampler-options',
    '--sampler-option',
  ],
};
const ALL = [...new Set(Object.values(OWN).flat())];

describe('each task takes only its own flags', () => {
  it.each(Object.keys(OWN))('bench %s --help lists its own flags and no other task’s', (task) => {
    const help = helpOf(task);
    for (const flag of ALL) {
      const listed = new RegExp(`^\\s+${flag} `, 'm').test(help);
      expect([flag, listed]).toEqual([flag, OWN[task]!.includes(flag)]);
    }
    expect(help).toMatch(/^\s+--lengths /m);
  });

  it('refuses a flag of another task, naming the tasks it belongs to', () => {
    const types = errorOf('shakespeare', '--types', '2');
    expect(types.code).toBe('BENCH_INVALID_OPTION');
    expect(types.message).toBe(
      '--types is a flag of bench brackets and bench dqa; bench shakespeare does not take it',
    );
    expect(errorOf('brackets', '--data', 'input.txt').message).toBe(
      '--data is a flag of bench shakespeare, bench dqa and bench gpt; bench brackets does not take it',
    );
    expect(errorOf('gpt', '--eval-windows=8').message).toContain(
      '--eval-windows is a flag of bench shakespeare and bench dqa; bench gpt does not take it',
    );
    expect(errorOf('dqa', '--sampler', 'tap').message).toContain('bench dqa does not take it');
    expect(errorOf('dqa', '--sampler-option', 'a=1').message).toBe(
      '--sampler-option is a flag of bench shakespeare, bench brackets, bench gpt and bench recall; bench dqa does not take it',
    );
    expect(errorOf('shakespeare', '--shots', '0').message).toBe(
      '--shots is a flag of bench dqa; bench shakespeare does not take it',
    );
    expect(errorOf('brackets', '--warmup-steps', '3').message).toBe(
      '--warmup-steps is a flag of bench gpt and bench recall; bench brackets does not take it',
    );
  });

  it('takes every flag of its own', () => {
    expect(parseBenchArgs(['dqa', '--types', '2', '--eval-windows', '8'])!.grid.types).toBe(2);
    expect(parseBenchArgs(['gpt', '--data', 'x.txt'])!.dataPath).toMatch(/x\.txt$/);
    expect(parseBenchArgs(['brackets', '--mode', 'prefix'])!.grid.modes).toEqual(['prefix']);
  });

  it('still refuses a flag no task has as unknown', () => {
    const error = errorOf('shakespeare', '--typos', '2');
    expect(error.code).toBe('BENCH_INVALID_OPTION');
    expect(error.message).toMatch(/unknown option '--typos'/);
  });
});

describe('--engine-threads', () => {
  it('refuses more threads than the cores available when it is parsed, naming the count', () => {
    // Issue 38: 64 on 2 cores started 138 OS threads, then failed 60 s later.
    const cores = availableParallelism();
    const threads = (n: number) =>
      parseBenchArgs(['shakespeare', '--engine-threads', String(n)], () => undefined)?.engine
        .threads;
    expect(threads(cores)).toBe(cores);
    if (cores >= 64) return; // 64 is the engine's own bound
    const error = errorOf('shakespeare', '--engine-threads', String(cores + 1));
    expect(error.code).toBe('BENCH_INVALID_OPTION');
    expect(error.message).toContain(`the ${cores} cores available`);
  });

  it('defaults to every core a run has to itself (issue 40): all for a run alone, shared by the workers', () => {
    const cores = availableParallelism();
    expect(parseBenchArgs(['shakespeare'], () => undefined)?.engine.threads).toBe('auto');
    // A run alone: --workers 0, --workers 1, or a grid of one run on any number of workers.
    expect(engineThreadsFor('auto', 0, 36, false)).toBe(cores);
    expect(engineThreadsFor('auto', 1, 36, false)).toBe(cores);
    expect(engineThreadsFor('auto', 2, 1, false)).toBe(cores);
    // Workers that fill the cores get one each; never fewer than one.
    expect(engineThreadsFor('auto', cores, 36, false)).toBe(1);
    expect(engineThreadsFor('auto', 64, 36, false)).toBe(1);
    expect(engineThreadsFor('auto', 2, 36, false)).toBe(Math.max(1, Math.floor(cores / 2)));
    // The queue's workers choose their own; a number given is kept.
    expect(engineThreadsFor('auto', 0, 1, true)).toBe(1);
    expect(engineThreadsFor(1, 0, 1, false)).toBe(1);
  });
});

describe('--engine-backend', () => {
  it('takes auto (the default), native or wasm, outside the run config', () => {
    const backend = (...flags: string[]) =>
      parseBenchArgs(['shakespeare', ...flags], () => undefined)?.engine.backend;
    expect(backend()).toBe('auto');
    expect(backend('--engine-backend', 'native')).toBe('native');
    expect(backend('--engine-backend', 'wasm')).toBe('wasm');
    expect(errorOf('shakespeare', '--engine-backend', 'fast').code).toBe('BENCH_INVALID_OPTION');
  });
});
