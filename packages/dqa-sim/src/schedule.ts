import { compile } from 'mathjs';
import type { EvalFunction } from 'mathjs';
import { DqaError } from './errors.js';

/** One schedule function of the anneal fraction `u ∈ [0, 1]`: a mathjs expression of `u` or a JS function. */
export type ScheduleFunction = string | ((u: number) => number);

/**
 * How the anneal interpolates `H(u) = A(u) H_D + B(u) H_P`: a preset name or a pair of
 * functions of the anneal fraction `u = t / τ`.
 *
 * - `'linear'`: `A = 1 − u`, `B = u` (METHOD.md §4 default).
 * - `'dwave'`: `A = (1 − u)^3`, `B = u^2` — a qualitative D-Wave-like shape (the driver
 *   falls steeply, the problem term rises quadratically). It is an approximation chosen
 *   here, not D-Wave's published per-QPU A(s)/B(s) tables.
 */
export type ScheduleSpec = 'linear' | 'dwave' | { readonly A: ScheduleFunction; readonly B: ScheduleFunction };

/** A validated schedule whose `A` and `B` are plain, fast JS functions. */
export interface CompiledSchedule {
  /** Human-readable description, e.g. `A(u) = 1 - u; B(u) = u`. */
  readonly label: string;
  /** Driver (transverse-field) strength. */
  readonly A: (u: number) => number;
  /** Problem-Hamiltonian strength. */
  readonly B: (u: number) => number;
}

/** The expressions behind the preset names. */
export const SCHEDULE_PRESETS = {
  linear: { A: '1 - u', B: 'u' },
  dwave: { A: '(1 - u)^3', B: 'u^2' },
} as const satisfies Record<string, { A: string; B: string }>;

/** Points of the finiteness check on `[0, 1]`. */
const CHECK_POINTS = 1001;

function toFunction(fn: ScheduleFunction, which: 'A' | 'B'): (u: number) => number {
  if (typeof fn === 'function') return fn;
  if (typeof fn !== 'string') {
    throw new DqaError('DQA_BAD_SCHEDULE', `schedule ${which} must be a mathjs expression string or a function, got ${typeof fn}`);
  }
  let code: EvalFunction;
  try {
    code = compile(fn);
  } catch (cause) {
    throw new DqaError('DQA_BAD_SCHEDULE', `schedule ${which} = "${fn}" does not parse: ${(cause as Error).message}`, { cause });
  }
  // One scope object reused for every call: evaluation runs once per Trotter step.
  const scope = { u: 0 };
  return (u: number) => {
    scope.u = u;
    const value: unknown = code.evaluate(scope);
    return typeof value === 'number' ? value : Number.NaN;
  };
}

function check(f: (u: number) => number, which: 'A' | 'B', source: string): void {
  for (let i = 0; i < CHECK_POINTS; i++) {
    const u = i / (CHECK_POINTS - 1);
    let v: number;
    try {
      v = f(u);
    } catch (cause) {
      throw new DqaError('DQA_BAD_SCHEDULE', `schedule ${which} = ${source} throws at u = ${u}: ${(cause as Error).message}`, { cause });
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new DqaError(
        'DQA_BAD_SCHEDULE',
        `schedule ${which} = ${source} is ${String(v)} at u = ${u}; it must be a finite real number on [0, 1]`,
      );
    }
  }
}

/**
 * Compiles a schedule once (mathjs expressions become closures) and checks that `A` and `B`
 * are finite real numbers on a grid of 1001 points over `[0, 1]`.
 *
 * @param spec a preset name, `{ A, B }` expressions of `u`, or functions; an already compiled
 *   schedule is returned unchanged.
 * @returns the compiled schedule.
 * @throws {DqaError} DQA_BAD_SCHEDULE for an unknown preset, an unparsable expression, or a
 *   value that is not a finite real number somewhere on `[0, 1]`.
 * @example
 * const s = compileSchedule({ A: '1 - u^2', B: 'u^2' });
 * s.A(0.5); // 0.75
 */
export function compileSchedule(spec: ScheduleSpec | CompiledSchedule = 'linear'): CompiledSchedule {
  if (typeof spec === 'object' && spec !== null && 'label' in spec && typeof spec.A === 'function' && typeof spec.B === 'function') {
    return spec as CompiledSchedule;
  }
  let pair: { readonly A: ScheduleFunction; readonly B: ScheduleFunction };
  if (typeof spec === 'string') {
    if (!Object.hasOwn(SCHEDULE_PRESETS, spec)) {
      throw new DqaError('DQA_BAD_SCHEDULE', `unknown schedule preset "${spec}" (known: ${Object.keys(SCHEDULE_PRESETS).join(', ')})`);
    }
    // Presets are compiled and checked once per process; every anneal call names one.
    const cached = presetCache.get(spec);
    if (cached !== undefined) return cached;
    const compiled = compilePair(SCHEDULE_PRESETS[spec]);
    presetCache.set(spec, compiled);
    return compiled;
  } else if (typeof spec === 'object' && spec !== null && 'A' in spec && 'B' in spec) {
    pair = spec;
  } else {
    throw new DqaError('DQA_BAD_SCHEDULE', `schedule must be 'linear', 'dwave' or { A, B }, got ${String(spec)}`);
  }
  return compilePair(pair);
}

const presetCache = new Map<string, CompiledSchedule>();

function compilePair(pair: { readonly A: ScheduleFunction; readonly B: ScheduleFunction }): CompiledSchedule {
  const source = (f: ScheduleFunction) => (typeof f === 'string' ? `"${f}"` : 'function');
  const A = toFunction(pair.A, 'A');
  const B = toFunction(pair.B, 'B');
  check(A, 'A', source(pair.A));
  check(B, 'B', source(pair.B));
  const text = (f: ScheduleFunction) => (typeof f === 'string' ? f : '<function>');
  return { label: `A(u) = ${text(pair.A)}; B(u) = ${text(pair.B)}`, A, B };
}
