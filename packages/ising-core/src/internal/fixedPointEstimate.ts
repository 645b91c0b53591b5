import { assertFinite } from '../batch.js';
import { echo } from '../echo.js';
import { IsingError } from '../errors.js';
import { optionSpecs } from '../pluginOptions.js';
import { assertPluginOptions } from '../pluginOptions.js';
import type {
  BatchEstimate,
  ConvergenceDiagnostics,
  IsingBatch,
  IsingGradients,
} from '../types.js';
import { FixedPointWorkspace, solveFixedPoint } from './fixedPoint.js';
import { assertExactRange } from './kernels/exactRange.js';
import type { FixedPointSettings } from './fixedPoint.js';
import { AdjointWorkspace } from './fixedPointBackward.js';
import { IsingMap } from './isingMaps.js';
import type { IsingMapKind } from './isingMaps.js';
import { symmetricCouplings } from './symmetricCouplings.js';
import { assertGradMagnetization, maxSpinsOf } from './vjpInput.js';

/** Options of the fixed-point samplers `mean-field` and `tap` (the same for both). */
export interface FixedPointSamplerOptions {
  /** Weight of the previous iterate in a plain step, in [0, 1): `m ← d·m + (1 − d)·F(m)` (default 0.5). */
  readonly damping?: number;
  /**
   * Converged when `max_j |F(m)_j − m_j| ≤ tolerance` (magnetizations lie in [−1, 1], so this is
   * relative to their scale); the VJP's adjoint uses the same tolerance relative to its own scale,
   * `max(max|b|, max|z|)` (see the README). Default 1e-10.
   */
  readonly tolerance?: number;
  /** Map evaluations per problem before giving up, forward and adjoint each (default 1000, at most 100,000). */
  readonly maxIterations?: number;
  /**
   * `'return'` (default): keep the last iterate and count the problem in `diagnostics.missed`;
   * `'throw'`: ISING_NOT_CONVERGED. Non-finite values are always ISING_NOT_FINITE.
   */
  readonly onNonConvergence?: 'return' | 'throw';
  /** Anderson acceleration memory, an integer in [0, 20]; 0 = damped iteration only (default 5). */
  readonly anderson?: number;
  /**
   * Start problem `q` from problem `q − 1`'s answer when it has exactly one more spin (the next
   * query of a causal sequence; the new spin from `tanh(βh)`, then one undamped step with the new
   * fields), otherwise from `tanh(βh)`. Default false: it saves about 10 % of the iterations only
   * when successive queries have nearly the same fields, and costs about as much when they differ.
   */
  readonly warmStart?: boolean;
}

/** Gradients of a fixed-point sampler's VJP, with the adjoint solves' convergence figures. */
export interface FixedPointGradients extends IsingGradients {
  readonly diagnostics: ConvergenceDiagnostics;
}

/** The estimate of a fixed-point sampler: a {@link BatchEstimate} whose diagnostics are always present. */
export interface FixedPointEstimate extends BatchEstimate {
  readonly diagnostics: ConvergenceDiagnostics;
  vjp(gradMagnetization: Float64Array): FixedPointGradients;
}

export type ResolvedFixedPointOptions = Required<FixedPointSamplerOptions>;

/** The `mean-field` and `tap` options as data (the plugins add `threads`). */
export const FIXED_POINT_OPTIONS = optionSpecs<FixedPointSamplerOptions>({
  damping: {
    type: 'number',
    default: '0.5',
    doc: 'Weight of the previous iterate in a plain step, in [0, 1): m ← d·m + (1 − d)·F(m).',
  },
  tolerance: {
    type: 'number',
    default: '1e-10',
    doc: 'Converged when max_j |F(m)_j − m_j| ≤ tolerance; the VJP adjoint uses it relative to its own scale.',
  },
  maxIterations: {
    type: 'integer',
    default: '1000',
    doc: 'Map evaluations per problem before giving up, forward and adjoint each (at most 100,000).',
  },
  onNonConvergence: {
    type: "'return' | 'throw'",
    default: "'return'",
    doc: "'return' keeps the last iterate and counts it in diagnostics.missed; 'throw' is ISING_NOT_CONVERGED.",
  },
  anderson: {
    type: 'integer',
    default: '5',
    doc: 'Anderson acceleration memory in [0, 20]; 0 is damped iteration only.',
  },
  warmStart: {
    type: 'boolean',
    default: 'false',
    doc: "Start a causal sequence's next query from the previous query's answer.",
  },
});

/**
 * Largest values of the `mean-field` and `tap` options: `maxIterations` 100,000 map evaluations
 * (forward) and CG iterations (adjoint) per problem, `anderson` memory 20 (the normal equations
 * are `memory × memory`).
 * @summary Largest values of the `mean-field` and `tap` options.
 * @category Samplers
 */
export const FIXED_POINT_LIMITS = { maxIterations: 100_000, anderson: 20 } as const;
const MAX_ANDERSON = FIXED_POINT_LIMITS.anderson;
const MAX_ITERATIONS = FIXED_POINT_LIMITS.maxIterations;

/** Validates and completes the options; `who` names the sampler in messages. */
export function readFixedPointOptions(
  who: string,
  options: FixedPointSamplerOptions,
): ResolvedFixedPointOptions {
  assertPluginOptions(who, options, FIXED_POINT_OPTIONS);
  const {
    damping = 0.5,
    tolerance = 1e-10,
    maxIterations = 1000,
    onNonConvergence = 'return',
    anderson = 5,
    warmStart = false,
  } = options;
  const bad = (message: string): IsingError =>
    new IsingError('ISING_INVALID_ARGUMENT', `${who} option ${message}`);
  if (!(Number.isFinite(damping) && damping >= 0 && damping < 1))
    throw bad(`damping must be in [0, 1), got ${echo(damping)}`);
  if (!(Number.isFinite(tolerance) && tolerance > 0))
    throw bad(`tolerance must be a finite positive number, got ${echo(tolerance)}`);
  if (!Number.isSafeInteger(maxIterations) || maxIterations < 1 || maxIterations > MAX_ITERATIONS)
    throw bad(
      `maxIterations must be an integer in [1, ${MAX_ITERATIONS.toLocaleString('en-US')}], got ${echo(maxIterations)}`,
    );
  if (onNonConvergence !== 'throw' && onNonConvergence !== 'return')
    throw bad(`onNonConvergence must be 'return' or 'throw', got ${echo(onNonConvergence)}`);
  if (!Number.isInteger(anderson) || anderson < 0 || anderson > MAX_ANDERSON)
    throw bad(`anderson must be an integer in [0, ${MAX_ANDERSON}], got ${echo(anderson)}`);
  if (typeof warmStart !== 'boolean')
    throw bad(`warmStart must be a boolean, got ${echo(warmStart)}`);
  return { damping, tolerance, maxIterations, onNonConvergence, anderson, warmStart };
}

function diagnosticsOf(
  iterations: Int32Array,
  residual: Float64Array,
  tolerance: number,
): ConvergenceDiagnostics {
  let missed = 0;
  for (let q = 0; q < residual.length; q++) if (!(residual[q]! <= tolerance)) missed += 1;
  return { iterations, residual, tolerance, missed, converged: missed === 0 };
}

const notFinite = (who: string, what: string, q: number, n: number): IsingError =>
  new IsingError(
    'ISING_NOT_FINITE',
    `${who}${what} of problem ${q} (${n} spins) is not finite; the fields or couplings are too large for float64`,
  );

/**
 * Refuses a non-finite used field or coupling, and a batch past the exact samplers' range: beyond
 * it β(h + J m) overflows, and the iteration would settle on finite but meaningless magnetizations.
 */
function assertUsableInput(kind: IsingMapKind, batch: IsingBatch, used: number): void {
  const { stride, spins } = batch;
  assertFinite(batch.fields, 'fields', (i) => i % stride < spins[Math.floor(i / stride)]!);
  assertFinite(batch.couplings, 'couplings', (i) => {
    const j = Math.floor(i / stride);
    const k = i % stride;
    return j < k && k < used;
  });
  assertExactRange(batch, kind);
}

/**
 * Runs the fixed point of `kind` on every problem of the batch (the shared driver of
 * `meanFieldEstimate` and `tapEstimate`), with the implicit VJP.
 *
 * @throws {IsingError} ISING_NOT_FINITE on a non-finite used field or coupling or result, or past the exact range (2^1021);
 *   ISING_NOT_CONVERGED with `onNonConvergence: 'throw'`; from `vjp`, ISING_SHAPE_MISMATCH /
 *   ISING_NOT_FINITE on a malformed gradient, ISING_NOT_CONVERGED with `'throw'`.
 */
export function fixedPointEstimate(
  kind: IsingMapKind,
  batch: IsingBatch,
  options: ResolvedFixedPointOptions,
): FixedPointEstimate {
  const { size, stride, beta, spins } = batch;
  const used = maxSpinsOf(batch);
  assertUsableInput(kind, batch, used);
  const settings: FixedPointSettings = {
    damping: options.damping,
    tolerance: options.tolerance,
    maxIterations: options.maxIterations,
    memory: options.anderson,
  };
  const sym = symmetricCouplings(batch, used);
  const map = new IsingMap(kind, sym, stride, beta, used);
  const ws = new FixedPointWorkspace(used, options.anderson);
  const magnetization = new Float64Array(size * stride);
  const start = new Float64Array(used);
  const iterations = new Int32Array(size);
  const residual = new Float64Array(size);
  for (let q = 0; q < size; q++) {
    const n = spins[q]!;
    const base = q * stride;
    const h = batch.fields.subarray(base, base + n);
    const x = magnetization.subarray(base, base + n);
    map.bind(h);
    const warm = options.warmStart && q > 0 && n === spins[q - 1]! + 1;
    if (warm) {
      // The previous query's answer is a fixed point for other fields: one undamped step with this
      // query's fields (counted as an iteration) keeps its coupling term and replaces its fields.
      start.set(magnetization.subarray(base - stride, base - stride + n - 1));
      start[n - 1] = Math.tanh(beta * h[n - 1]!);
      map.apply(start, x, n);
    } else {
      for (let j = 0; j < n; j++) x[j] = Math.tanh(beta * h[j]!);
    }
    solveFixedPoint(map, n, x, 1, settings, ws);
    if (!Number.isFinite(ws.residual) || !x.every(Number.isFinite))
      throw notFinite(kind, ' magnetization', q, n);
    iterations[q] = ws.iterations + (warm ? 1 : 0);
    residual[q] = ws.residual;
    if (!(ws.residual <= options.tolerance) && options.onNonConvergence === 'throw') {
      throw new IsingError(
        'ISING_NOT_CONVERGED',
        `${kind} did not converge on problem ${q} (${n} spins): residual ${ws.residual} > tolerance ${options.tolerance} ` +
          `after ${ws.iterations} iterations; raise maxIterations or damping, or pass onNonConvergence: 'return'`,
      );
    }
  }

  const vjp = (gradMagnetization: Float64Array): FixedPointGradients => {
    assertGradMagnetization(batch, gradMagnetization, `${kind} vjp`);
    const fields = new Float64Array(size * stride);
    const couplings = new Float64Array(stride * stride);
    const adjoint = new AdjointWorkspace(used);
    const d = new Float64Array(used);
    const w = new Float64Array(used);
    const adjointIterations = new Int32Array(size);
    const adjointResidual = new Float64Array(size);
    for (let q = 0; q < size; q++) {
      const n = spins[q]!;
      const base = q * stride;
      map.bind(batch.fields.subarray(base, base + n));
      map.linearize(magnetization.subarray(base, base + n), n, d);
      adjoint.solve(map, d, gradMagnetization.subarray(base, base + n), n, settings, w);
      if (!Number.isFinite(adjoint.residual) || !w.subarray(0, n).every(Number.isFinite))
        throw notFinite(kind, ' vjp: the adjoint', q, n);
      adjointIterations[q] = adjoint.iterations;
      adjointResidual[q] = adjoint.residual;
      if (!(adjoint.residual <= options.tolerance) && options.onNonConvergence === 'throw') {
        throw new IsingError(
          'ISING_NOT_CONVERGED',
          `${kind} vjp did not converge on problem ${q} (${n} spins): adjoint residual ${adjoint.residual} > tolerance ` +
            `${options.tolerance} after ${adjoint.iterations} iterations (the linear response is singular or nearly so)`,
        );
      }
      map.addGradients(w, n, fields.subarray(base, base + n), couplings);
    }
    return {
      fields,
      couplings,
      diagnostics: diagnosticsOf(adjointIterations, adjointResidual, options.tolerance),
    };
  };

  return {
    magnetization,
    vjp,
    diagnostics: diagnosticsOf(iterations, residual, options.tolerance),
  };
}
