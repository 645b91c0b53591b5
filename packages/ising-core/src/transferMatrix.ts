import { revalidateBatch } from './batch.js';
import { assertExactRange } from './internal/kernels/exactRange.js';
import { echo } from './echo.js';
import { IsingError } from './errors.js';
import { runChain } from './internal/kernels/transferKernel.js';
import type { ChainProblem } from './internal/kernels/transferKernel.js';
import { foldBandGrad } from './internal/kernels/linearVjp.js';
import type { TransferPrecision } from './internal/kernels/transferWasm.js';
import { fastForward, fastPath, fastVjp } from './internal/transferFastPath.js';
import { assertGradMagnetization, maxSpinsOf } from './internal/vjpInput.js';
import { assertPluginOptions, optionSpecs } from './pluginOptions.js';
import type { BatchEstimate, IsingBatch, IsingGradients } from './types.js';

/**
 * Options of {@link estimateTransferMatrix} and the {@link transferMatrixSampler} plugin.
 *
 * @category Exact
 */
export interface TransferMatrixOptions {
  /**
   * The bandwidth `w`: couplings `J_jk` with `k − j > w` must be zero (default 8, an integer in
   * [0, 16]). Cost and memory grow as `2^w`.
   */
  readonly bandwidth?: number;
  /**
   * The number type of the messages (default `'float64'`: exact to float64 rounding).
   * `'float32'` runs the WebAssembly kernel with four lanes per vector instead of two, about twice
   * as fast, for training where float32 results suffice (tfjs is float32): magnetizations and
   * gradients then agree with the float64 kernel to about 1e-6 relative (tested). Windows below
   * 3, and engines without wasm SIMD, stay float64.
   */
  readonly precision?: TransferPrecision;
}

/**
 * A transfer-matrix estimate: the {@link BatchEstimate} plus `log Z` per problem and `P(s = +1)`.
 *
 * @category Exact
 */
export interface TransferMatrixEstimate extends BatchEstimate {
  /** `log Z_q`, `Z_q = Σ_s exp(−β E_q(s))`, one entry per problem. */
  readonly logPartition: Float64Array;
  /**
   * `P(s_j = +1)` (layout of `magnetization`), read out of the window marginals themselves: exact
   * where `(m + 1)/2` has cancelled (`m` within float64's rounding of −1, below about `e^{−36}`).
   */
  readonly probabilityUp: Float64Array;
}

/**
 * Default bandwidth of the transfer-matrix sampler.
 *
 * @category Exact
 */
export const DEFAULT_BANDWIDTH = 8;
/**
 * Largest bandwidth the transfer-matrix sampler accepts (`2^16` window states).
 *
 * @category Exact
 */
export const MAX_BANDWIDTH = 16;
/**
 * Largest spin count per problem the transfer-matrix sampler accepts.
 *
 * @category Exact
 */
export const TRANSFER_MATRIX_SPIN_LIMIT = 4096;

/** The transfer-matrix sampler's registry name. */
export const NAME = 'transfer-matrix';
/** The transfer matrix's own options as data (the plugin adds `threads`). */
export const TRANSFER_MATRIX_OPTIONS = optionSpecs<TransferMatrixOptions>({
  bandwidth: {
    type: 'integer',
    default: String(DEFAULT_BANDWIDTH),
    doc: 'The bandwidth w: couplings J_jk with k − j > w must be zero; cost and memory grow as 2^w (at most 16).',
  },
  precision: {
    type: "'float64' | 'float32'",
    default: "'float64'",
    doc: "The messages' number type: 'float32' runs four lanes per vector, about twice as fast, to about 1e-6 relative.",
  },
});

/** Validates the `precision` option (default `'float64'`). */
export function resolvePrecision(options: TransferMatrixOptions): TransferPrecision {
  const p: unknown = options.precision ?? 'float64';
  if (p !== 'float64' && p !== 'float32') {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `${NAME} option precision must be 'float64' or 'float32', got ${echo(p)}`,
    );
  }
  return p;
}

/** Validates the plugin options and returns the bandwidth (default {@link DEFAULT_BANDWIDTH}). */
export function resolveBandwidth(options: TransferMatrixOptions): number {
  assertPluginOptions(NAME, options, TRANSFER_MATRIX_OPTIONS);
  resolvePrecision(options);
  const w: unknown = options.bandwidth ?? DEFAULT_BANDWIDTH;
  if (typeof w !== 'number' || !Number.isInteger(w) || w < 0) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `${NAME} option bandwidth must be an integer ≥ 0, got ${echo(w)}`,
    );
  }
  if (w > MAX_BANDWIDTH) {
    throw new IsingError(
      'ISING_INVALID_ARGUMENT',
      `${NAME} option bandwidth ${w} is above ${MAX_BANDWIDTH} (it would need 2^${w} states per position); ` +
        `for wide or dense couplings use the approximate 'tap' or 'mean-field' sampler instead`,
    );
  }
  return w;
}

/** Re-validates the batch, applies the spin limit and refuses couplings outside the band. */
function validate(batch: IsingBatch, bandwidth: number): IsingBatch {
  const checked = revalidateBatch(batch, NAME);
  const used = maxSpinsOf(checked);
  if (used > TRANSFER_MATRIX_SPIN_LIMIT) {
    throw new IsingError(
      'ISING_TOO_MANY_SPINS',
      `${NAME} refuses ${used} spins per problem (limit ${TRANSFER_MATRIX_SPIN_LIMIT}); split the sequence or use 'mean-field' or 'gibbs'`,
    );
  }
  const { couplings, stride } = checked;
  for (let j = 0; j < used; j++) {
    for (let k = j + bandwidth + 1; k < used; k++) {
      const v = couplings[j * stride + k]!;
      if (v !== 0) {
        throw new IsingError(
          'ISING_INVALID_ARGUMENT',
          `${NAME}: coupling J[${j}][${k}] = ${v} lies outside bandwidth ${bandwidth} (k − j = ${k - j} > ${bandwidth}); ` +
            `couplings are never dropped, so raise bandwidth (at most ${MAX_BANDWIDTH}), zero the far couplings, or use 'tap' or 'mean-field'`,
        );
      }
    }
  }
  return checked;
}

/** The kernel's view of problem `q`: its fields and the band `J_{t−W+b, t}` of its block. */
function chainOf(batch: IsingBatch, q: number, bandwidth: number): ChainProblem {
  const { stride, couplings, beta } = batch;
  const n = batch.spins[q]!;
  const W = Math.min(bandwidth, n - 1);
  const band = new Float64Array(n * W);
  for (let t = 0; t < n; t++) {
    for (let b = Math.max(0, W - t); b < W; b++)
      band[t * W + b] = couplings[(t - W + b) * stride + t]!;
  }
  return { n, window: W, beta, fields: batch.fields.subarray(q * stride, q * stride + n), band };
}

/**
 * Exact magnetizations, `log Z` and VJP of a batch whose couplings have bandwidth `w`
 * (`J_jk = 0` whenever `k − j > w`), at any length up to 4096 spins (METHOD.md §6). Each problem
 * is a Markov chain of order `w`; a forward–backward pass over the `2^w` states of the last `w`
 * spins gives every marginal in `O(n · 2^w)`, exact for any field strength and β (messages are
 * rescaled at every step, in the linear domain when a dynamic-range bound proves no weight can
 * underflow, as logarithms otherwise). Linear-domain problems run in one batched kernel: the
 * coupling factors are tabulated once per batch (they do not depend on the fields), the kernel is
 * WebAssembly SIMD where the engine has it (else JavaScript); the sampler's `threads` option
 * splits a large batch across the shared worker pool. The
 * VJP runs the same pass once more with tangents (forward-mode in the direction of the upstream
 * gradient, which equals the reverse-mode VJP because the Hessian of `log Z` is symmetric), giving
 * `∂L/∂h_k = β Cov(G, s_k)` and `∂L/∂J_kl = β Σ_q Cov_q(G, s_k s_l)` with `G = Σ_j g_j s_j`, taken
 * centered, `Σ_j g_j (s_j − m_j)` with `1 ± m_j` from `probabilityUp`: the same covariances, but
 * rows of tiny `α` (where `g ~ 1/Σα` in attention) keep their digits. `probabilityUp` is read
 * from the window marginals, exact where `(1 + m)/2` rounds to 0.
 * `∂L/∂J` is the gradient with respect to the banded couplings: entries with `l − k > w` are 0,
 * so a training step keeps `J` inside the band this function accepts.
 *
 * @summary Exact magnetizations, `log Z` and VJP of a batch with banded couplings, at up to 4096 spins.
 * @param batch problems sharing one coupling matrix (any mix of spin counts).
 * @param options `bandwidth` (default 8, at most 16); `precision` (`'float64'`, default, or `'float32'`).
 * @returns magnetizations, `P(s = +1)`, `log Z` per problem and `vjp(∂L/∂m) → { fields: ∂L/∂h, couplings: ∂L/∂J }`.
 * @throws {IsingError} ISING_INVALID_ARGUMENT on a bad or unknown option, a bandwidth above 16, or a
 *   nonzero coupling outside the band (naming the first `(j, k)`); ISING_TOO_MANY_SPINS above 4096
 *   spins; ISING_SHAPE_MISMATCH / ISING_NOT_FINITE on a malformed batch or upstream gradient.
 * @example
 * import { causalBatch, estimateTransferMatrix } from '@boltzmann/ising-core';
 *
 * const length = 256;
 * const fields = Float64Array.from({ length: 2 * length * length }, (_, i) => Math.sin(i));
 * const couplings = new Float64Array(length * length);
 * for (let j = 0; j + 1 < length; j++) couplings[j * length + j + 1] = 0.4; // nearest neighbours: bandwidth 1
 * const est = estimateTransferMatrix(causalBatch(fields, couplings, { batch: 2, length }), { bandwidth: 1 });
 * const { fields: dh, couplings: dJ } = est.vjp(new Float64Array(est.magnetization.length).fill(1));
 * console.log(dh.length, dJ.length);
 * @category Exact
 */
export function estimateTransferMatrix(
  batch: IsingBatch,
  options: TransferMatrixOptions = {},
): TransferMatrixEstimate {
  const bandwidth = resolveBandwidth(options);
  const checked = validate(batch, bandwidth);
  assertExactRange(checked, NAME);
  const { size, stride } = checked;
  const fast = fastPath(checked, bandwidth, resolvePrecision(options));
  const magnetization = new Float64Array(size * stride);
  const probabilityUp = new Float64Array(size * stride);
  const logPartition = new Float64Array(size);
  // The batched kernels (wasm SIMD where the engine has it, else JavaScript). Threads come from
  // the sampler's `threads` option (the shared worker pool), never from here.
  if (fast !== undefined) fastForward(fast, checked, magnetization, probabilityUp, logPartition);
  for (let q = 0; q < size; q++) {
    if (fast !== undefined && fast.linear[q] !== 0) continue;
    const out = runChain(chainOf(checked, q, bandwidth), undefined);
    magnetization.set(out.magnetization, q * stride);
    probabilityUp.set(out.probabilityUp, q * stride);
    logPartition[q] = out.logPartition;
  }
  return {
    magnetization,
    probabilityUp,
    logPartition,
    vjp(gradMagnetization: Float64Array): IsingGradients {
      assertGradMagnetization(checked, gradMagnetization, `${NAME} vjp`);
      const fields = new Float64Array(size * stride);
      const couplings = new Float64Array(stride * stride);
      const addBand = (dBand: Float64Array, n: number, W: number): void => {
        for (let t = 0; t < n; t++) {
          for (let b = Math.max(0, W - t); b < W; b++)
            couplings[(t - W + b) * stride + t]! += dBand[t * W + b]!;
        }
      };
      if (fast !== undefined) {
        const { length: n, window: W } = fast.tables;
        const acc = new Float64Array(n << W);
        const acc0 = new Float64Array(n);
        fastVjp(fast, checked, gradMagnetization, probabilityUp, fields, acc, acc0);
        const dBand = new Float64Array(n * W);
        foldBandGrad(acc, acc0, n, W, dBand);
        addBand(dBand, n, W);
      }
      for (let q = 0; q < size; q++) {
        if (fast !== undefined && fast.linear[q] !== 0) continue;
        const chain = chainOf(checked, q, bandwidth);
        const at = q * stride;
        const out = runChain(chain, gradMagnetization.subarray(at, at + chain.n), {
          center: probabilityUp.subarray(at, at + chain.n),
        });
        fields.set(out.fieldGrad!, q * stride);
        addBand(out.bandGrad!, chain.n, chain.window);
      }
      return { fields, couplings };
    },
  };
}
