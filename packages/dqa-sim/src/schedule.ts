import { echo } from '@boltzmann/ising-core/internal';
import { DqaError } from './errors.js';
import {
  CHECK_BUDGET_MS,
  checkSchedule,
  compileExpression,
} from './internal/scheduleExpression.js';

/**
 * One schedule function of the anneal fraction `u ∈ [0, 1]`: a mathjs expression of `u` or a JS function.
 *
 * @category Annealing
 */
export type ScheduleFunction = string | ((u: number) => number);

/**
 * How the anneal interpolates `H(u) = A(u) H_D + B(u) H_P`: a preset name or a pair of
 * functions of the anneal fraction `u = t / τ`.
 *
 * - `'linear'`: `A = 1 − u`, `B = u` (METHOD.md §4 default).
 * - `'dwave'`: `A = (1 − u)^3`, `B = u^2` — a qualitative D-Wave-like shape (the driver
 *   falls steeply, the problem term rises quadratically). It is an approximation chosen
 *   here, not D-Wave's published per-QPU A(s)/B(s) tables.
 * @category Annealing
 */
export type ScheduleSpec =
  | 'linear'
  | 'dwave'
  | { readonly A: ScheduleFunction; readonly B: ScheduleFunction };

/**
 * A validated schedule whose `A` and `B` are plain, fast JS functions.
 *
 * @category Annealing
 */
export interface CompiledSchedule {
  /** Human-readable description, e.g. `A(u) = 1 - u; B(u) = u`. */
  readonly label: string;
  /** Driver (transverse-field) strength. */
  readonly A: (u: number) => number;
  /** Problem-Hamiltonian strength. */
  readonly B: (u: number) => number;
}

/**
 * The expressions behind the preset names.
 *
 * @category Annealing
 */
export const SCHEDULE_PRESETS = {
  linear: { A: '1 - u', B: 'u' },
  dwave: { A: '(1 - u)^3', B: 'u^2' },
} as const satisfies Record<string, { A: string; B: string }>;

function toFunction(fn: ScheduleFunction, which: 'A' | 'B'): (u: number) => number {
  if (typeof fn === 'function') return fn;
  if (typeof fn !== 'string') {
    throw new DqaError(
      'DQA_BAD_SCHEDULE',
      `schedule ${which} must be a mathjs expression string or a function, got ${typeof fn}`,
    );
  }
  return compileExpression(fn, which);
}

/**
 * Compiles a schedule once (mathjs expressions become closures) and checks that `A` and `B`
 * are finite real numbers on a grid of 1001 points over `[0, 1]`.
 *
 * Expressions are arithmetic in `u` only: numbers, `u`, `pi`, `e`, `+ - * / ^` (and implicit
 * multiplication, `2u`), parentheses, and the functions `sin cos tan asin acos atan atan2 sinh
 * cosh tanh exp expm1 log log10 log2 log1p sqrt cbrt pow abs sign min max floor ceil`, at most
 * 1,000 characters. Everything else mathjs could parse (matrices, `zeros`, `size`, indexing,
 * assignments, strings, units, `evaluate`, …) is refused before anything is evaluated, and the
 * 1001-point check of an expression gives up after 250 ms. The grid cannot see a singularity
 * between its points, so every anneal also checks the schedule at the exact times it evaluates it
 * (each Trotter midpoint, and the quadrature nodes of the effective-temperature integral) and
 * refuses a non-finite value there with DQA_BAD_SCHEDULE naming `u` and `t`.
 *
 * @param spec a preset name, `{ A, B }` expressions of `u`, or functions; an already compiled
 *   schedule is returned unchanged.
 * @returns the compiled schedule.
 * @throws {DqaError} DQA_BAD_SCHEDULE for an unknown preset, an expression that is too long, does
 *   not parse or uses anything outside the syntax above, a check over the time budget, or a value
 *   that is not a finite real number somewhere on `[0, 1]`.
 * @example
 * import { compileSchedule, loadScheduleParser } from '@boltzmann/dqa-sim';
 *
 * await loadScheduleParser(); // formulas need the parser (a dynamic import of mathjs)
 * const s = compileSchedule({ A: '1 - u^2', B: 'u^2' });
 * console.log(s.A(0.5)); // 0.75
 * @category Annealing
 */
export function compileSchedule(
  spec: ScheduleSpec | CompiledSchedule = 'linear',
): CompiledSchedule {
  if (
    typeof spec === 'object' &&
    spec !== null &&
    'label' in spec &&
    typeof spec.A === 'function' &&
    typeof spec.B === 'function'
  ) {
    return spec as CompiledSchedule;
  }
  let pair: { readonly A: ScheduleFunction; readonly B: ScheduleFunction };
  if (typeof spec === 'string') {
    if (!Object.hasOwn(SCHEDULE_PRESETS, spec)) {
      throw new DqaError(
        'DQA_BAD_SCHEDULE',
        `unknown schedule preset ${echo(spec)} (known: ${Object.keys(SCHEDULE_PRESETS).join(', ')})`,
      );
    }
    // Presets are compiled and checked once per process; every anneal call names one.
    const cached = presetCache.get(spec);
    if (cached !== undefined) return cached;
    const name = spec as keyof typeof SCHEDULE_PRESETS;
    const { A, B } = PRESET_FUNCTIONS[name];
    const compiled = {
      ...compilePair({ A, B }),
      label: `A(u) = ${SCHEDULE_PRESETS[name].A}; B(u) = ${SCHEDULE_PRESETS[name].B}`,
    };
    presetCache.set(spec, compiled);
    return compiled;
  } else if (typeof spec === 'object' && spec !== null && 'A' in spec && 'B' in spec) {
    pair = spec;
  } else {
    throw new DqaError(
      'DQA_BAD_SCHEDULE',
      `schedule must be 'linear', 'dwave' or { A, B }, got ${echo(spec)}`,
    );
  }
  return compilePair(pair);
}

const presetCache = new Map<string, CompiledSchedule>();

/**
 * The presets as JS functions, the same arithmetic as their expressions in mathjs (`-`, and `^`
 * is `Math.pow`), so that presets never load mathjs.
 */
const PRESET_FUNCTIONS: Record<
  keyof typeof SCHEDULE_PRESETS,
  { A: (u: number) => number; B: (u: number) => number }
> = {
  linear: { A: (u) => 1 - u, B: (u) => u },
  dwave: { A: (u) => (1 - u) ** 3, B: (u) => u ** 2 },
};

function compilePair(pair: {
  readonly A: ScheduleFunction;
  readonly B: ScheduleFunction;
}): CompiledSchedule {
  const source = (f: ScheduleFunction) => (typeof f === 'string' ? echo(f) : 'function');
  // Expressions get a time budget; a JS function is the caller's own code and is checked without one.
  const budget = (f: ScheduleFunction) => (typeof f === 'string' ? CHECK_BUDGET_MS : undefined);
  const A = toFunction(pair.A, 'A');
  const B = toFunction(pair.B, 'B');
  checkSchedule(A, 'A', source(pair.A), budget(pair.A));
  checkSchedule(B, 'B', source(pair.B), budget(pair.B));
  const text = (f: ScheduleFunction) => (typeof f === 'string' ? f : '<function>');
  return { label: `A(u) = ${text(pair.A)}; B(u) = ${text(pair.B)}`, A, B };
}
