import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { solveLinear } from './internal/solveLinear.js';
import { symmetricCouplings } from './internal/symmetricCouplings.js';
import { assertGradMagnetization, maxSpinsOf } from './internal/vjpInput.js';
import type { BatchEstimate, ConvergenceDiagnostics, IsingBatch, IsingGradients, SamplerCapabilities, SamplerPlugin } from './types.js';
import { assertPluginOptions, optionKeys } from './pluginOptions.js';

/** Options of the {@link meanFieldSampler} plugin. */
export interface MeanFieldOptions {
  /** Fraction of the previous iterate kept at each step, in [0, 1) (default 0.5). */
  readonly damping?: number;
  /** Converged when `max_j |tanh(β(h + J m))_j − m_j| ≤ tolerance` (default 1e-10). */
  readonly tolerance?: number;
  /** Iterations per problem before giving up (default 1000). */
  readonly maxIterations?: number;
  /** `'throw'` (default): ISING_NOT_CONVERGED; `'return'`: keep the last iterate and flag it in `diagnostics`. */
  readonly onNonConvergence?: 'throw' | 'return';
}

/** A mean-field estimate: the {@link BatchEstimate} plus per-problem convergence figures. */
export interface MeanFieldEstimate extends BatchEstimate {
  readonly diagnostics: ConvergenceDiagnostics;
}

const KNOWN = optionKeys<MeanFieldOptions>({ damping: true, tolerance: true, maxIterations: true, onNonConvergence: true });

const capabilities: SamplerCapabilities = { exact: false, maxSpins: 4096, async: false, deterministic: true };

function readOptions(options: MeanFieldOptions): Required<MeanFieldOptions> {
  assertPluginOptions('mean-field', options, KNOWN);
  const { damping = 0.5, tolerance = 1e-10, maxIterations = 1000, onNonConvergence = 'throw' } = options;
  if (!(Number.isFinite(damping) && damping >= 0 && damping < 1)) {
    throw new IsingError('ISING_INVALID_ARGUMENT', `mean-field option damping must be in [0, 1), got ${echo(damping)}`);
  }
  if (!(Number.isFinite(tolerance) && tolerance > 0)) {
    throw new IsingError('ISING_INVALID_ARGUMENT', `mean-field option tolerance must be a finite positive number, got ${echo(tolerance)}`);
  }
  if (!Number.isSafeInteger(maxIterations) || maxIterations < 1) {
    throw new IsingError('ISING_INVALID_ARGUMENT', `mean-field option maxIterations must be a positive integer, got ${echo(maxIterations)}`);
  }
  if (onNonConvergence !== 'throw' && onNonConvergence !== 'return') {
    throw new IsingError('ISING_INVALID_ARGUMENT', `mean-field option onNonConvergence must be 'throw' or 'return', got ${echo(onNonConvergence)}`);
  }
  return { damping, tolerance, maxIterations, onNonConvergence };
}

/**
 * Damped fixed point of `m = tanh(β(h + J m))` for problem `q`, written into `out`
 * (its first `n` entries). Returns the iterations used and the final residual.
 */
function solveProblem(batch: IsingBatch, q: number, sym: Float64Array, settings: Required<MeanFieldOptions>, out: Float64Array): [number, number] {
  const { stride, beta } = batch;
  const n = batch.spins[q]!;
  const h = batch.fields.subarray(q * stride, q * stride + n);
  const next = new Float64Array(n);
  for (let j = 0; j < n; j++) out[j] = Math.tanh(beta * h[j]!);
  let residual = Infinity;
  for (let it = 1; it <= settings.maxIterations; it++) {
    residual = 0;
    for (let j = 0; j < n; j++) {
      let f = h[j]!;
      const row = j * stride;
      for (let k = 0; k < n; k++) f += sym[row + k]! * out[k]!;
      next[j] = Math.tanh(beta * f);
      residual = Math.max(residual, Math.abs(next[j]! - out[j]!));
    }
    if (!(residual > settings.tolerance)) {
      out.set(next);
      return [it, residual];
    }
    for (let j = 0; j < n; j++) out[j] = settings.damping * out[j]! + (1 - settings.damping) * next[j]!;
  }
  return [settings.maxIterations, residual];
}

/**
 * Naive mean-field magnetizations of a batch with the implicit-differentiation VJP (the
 * function behind {@link meanFieldSampler}). With `D = diag(β(1 − m²))` and the symmetric `J`
 * of each prefix, the fixed point gives `(I − D J) δm = D δh + D δJ m`; so the VJP solves
 * `(I − J D) λ = g` (dense, partial pivoting) and returns `∂L/∂h = D λ` and
 * `∂L/∂J_kl = (Dλ)_k m_l + (Dλ)_l m_k` summed over problems.
 *
 * @param batch the problems (see `createIsingBatch`, `causalBatch`).
 * @param options damping, tolerance, maxIterations, onNonConvergence (see {@link MeanFieldOptions}).
 * @returns magnetizations, the VJP and per-problem `diagnostics` (iterations, residual, converged).
 * @throws {IsingError} ISING_INVALID_ARGUMENT on bad options; ISING_NOT_CONVERGED when a problem misses the
 *   tolerance (unless `onNonConvergence: 'return'`) or, from the VJP, when `I − J D` is singular;
 *   ISING_SHAPE_MISMATCH / ISING_NOT_FINITE on a malformed upstream gradient.
 * @example
 * const { magnetization, vjp, diagnostics } = meanFieldEstimate(causalBatch(fields, couplings, { batch: 1, length: 128 }));
 * const { fields: dh, couplings: dJ } = vjp(gradMagnetization);
 */
export function meanFieldEstimate(batch: IsingBatch, options: MeanFieldOptions = {}): MeanFieldEstimate {
  const settings = readOptions(options);
  const { size, stride, beta } = batch;
  const sym = symmetricCouplings(batch, maxSpinsOf(batch));
  const magnetization = new Float64Array(size * stride);
  const iterations = new Int32Array(size);
  const residual = new Float64Array(size);
  let missed = 0;
  for (let q = 0; q < size; q++) {
    const [its, res] = solveProblem(batch, q, sym, settings, magnetization.subarray(q * stride, (q + 1) * stride));
    iterations[q] = its;
    residual[q] = res;
    if (!(res <= settings.tolerance)) {
      missed += 1;
      if (settings.onNonConvergence === 'throw') {
        throw new IsingError(
          'ISING_NOT_CONVERGED',
          `mean-field did not converge on problem ${q} (${batch.spins[q]} spins): residual ${res} > tolerance ${settings.tolerance} ` +
            `after ${its} iterations; raise damping or maxIterations, or pass onNonConvergence: 'return'`,
        );
      }
    }
  }

  const vjp = (gradMagnetization: Float64Array): IsingGradients => {
    assertGradMagnetization(batch, gradMagnetization, 'mean-field vjp');
    const fields = new Float64Array(size * stride);
    const couplings = new Float64Array(stride * stride);
    for (let q = 0; q < size; q++) {
      const n = batch.spins[q]!;
      const base = q * stride;
      const d = new Float64Array(n);
      for (let j = 0; j < n; j++) d[j] = beta * (1 - magnetization[base + j]! ** 2);
      const a = new Float64Array(n * n);
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) a[r * n + c] = (r === c ? 1 : 0) - sym[r * stride + c]! * d[c]!;
      }
      const lambda = solveLinear(a, gradMagnetization.subarray(base, base + n), n);
      if (lambda === undefined) {
        throw new IsingError(
          'ISING_NOT_CONVERGED',
          `mean-field vjp: the linear response I − J·D of problem ${q} is singular (the fixed point sits at a phase transition)`,
        );
      }
      for (let k = 0; k < n; k++) {
        const u = d[k]! * lambda[k]!;
        fields[base + k] = u;
        for (let l = k + 1; l < n; l++) {
          couplings[k * stride + l]! += u * magnetization[base + l]! + d[l]! * lambda[l]! * magnetization[base + k]!;
        }
      }
    }
    return { fields, couplings };
  };

  return { magnetization, vjp, diagnostics: { iterations, residual, tolerance: settings.tolerance, missed, converged: missed === 0 } };
}

/**
 * Naive mean-field as a sampler plugin (METHOD.md §3): a damped fixed-point iteration of
 * `m = tanh(β(h + J m))` per problem, `O(n²)` per iteration, so it runs at hundreds of spins
 * where enumeration cannot; the VJP is exact for the mean-field map (implicit
 * differentiation, one dense `n × n` solve per problem). Approximate: exact at `J = 0`,
 * with errors of order `J²` for weak couplings. Implements `estimate` directly.
 *
 * @throws {IsingError} from `create`: ISING_INVALID_ARGUMENT on bad options; from `estimate`:
 *   ISING_NOT_CONVERGED unless `onNonConvergence: 'return'`.
 * @example
 * const sampler = meanFieldSampler.create({ damping: 0.5, tolerance: 1e-12 });
 * const { magnetization, vjp } = estimateBatch(sampler, causalBatch(fields, couplings, { batch: 4, length: 128 })) as BatchEstimate;
 */
export const meanFieldSampler: SamplerPlugin<MeanFieldOptions> = {
  name: 'mean-field',
  version: '0.1.0',
  description: 'Damped naive mean-field fixed point with an implicit-differentiation VJP; O(n²) per iteration.',
  capabilities,
  create(options: MeanFieldOptions = {}) {
    const settings = readOptions(options);
    return {
      name: 'mean-field',
      capabilities,
      estimate: (batch: IsingBatch): MeanFieldEstimate => meanFieldEstimate(batch, settings),
    };
  },
};
