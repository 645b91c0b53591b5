import { IsingError } from '../../errors.js';
import type { IsingBatch } from '../../types.js';

/**
 * Largest `max(1, β) · (Σ_j |h_j| + Σ_{j<k} |J_jk|)` a problem may have for exact enumeration:
 * 2^1021 ≈ 2.2e307, a quarter of the float64 range. Every intermediate of the enumeration
 * (energies, their differences, `β`-scaled log-weights and the steps of the doubling tables)
 * is at most twice that sum in magnitude, so below it nothing overflows and the answers are
 * exact; above it `Inf − Inf` would turn them into NaN.
 */
export const EXACT_RANGE_LIMIT = 2 ** 1021;

/** `Σ_{j<k<n} |J_jk|` for every prefix `n = 0 … stride` (used entries only, strict upper triangle). */
function prefixCouplingSums(couplings: Float64Array, stride: number, upTo: number): Float64Array {
  const sums = new Float64Array(upTo + 1);
  for (let k = 0; k < upTo; k++) {
    let column = 0;
    for (let j = 0; j < k; j++) column += Math.abs(couplings[j * stride + k]!);
    sums[k + 1] = sums[k]! + column;
  }
  return sums;
}

/**
 * Refuses a batch whose exact enumeration would overflow float64 somewhere (see
 * {@link EXACT_RANGE_LIMIT}), naming the first such problem, instead of returning NaN.
 *
 * @param beta the inverse temperature the enumeration uses (1 for plain energies).
 * @throws {IsingError} ISING_NOT_FINITE
 */
export function assertExactRange(batch: IsingBatch, who: string, beta = batch.beta): void {
  const { size, stride, spins, fields, couplings } = batch;
  let maxN = 0;
  for (let q = 0; q < size; q++) maxN = Math.max(maxN, spins[q]!);
  const coupled = prefixCouplingSums(couplings, stride, maxN);
  const scale = Math.max(1, beta);
  for (let q = 0; q < size; q++) {
    const n = spins[q]!;
    let sum = coupled[n]!;
    for (let j = 0; j < n; j++) sum += Math.abs(fields[q * stride + j]!);
    if (!(scale * sum <= EXACT_RANGE_LIMIT)) {
      throw new IsingError(
        'ISING_NOT_FINITE',
        `${who}: problem ${q} (${n} spins) has max(1, β)·(Σ|h| + Σ|J|) = ${scale * sum} with β = ${beta}, ` +
          `above 2^1021 ≈ 2.2e307: its energies or log-weights would overflow float64. Rescale the fields and couplings.`,
      );
    }
  }
}

/**
 * Refuses gradients with a non-finite used entry (an upstream gradient so large that `β` times
 * it overflows float64) instead of handing NaN or ±Infinity on to training.
 *
 * @throws {IsingError} ISING_NOT_FINITE naming the first such entry.
 */
export function assertFiniteGradients(
  batch: IsingBatch,
  grads: { readonly fields: Float64Array; readonly couplings: Float64Array },
  who: string,
): void {
  const { size, stride, spins } = batch;
  const fail = (what: string, v: number): never => {
    throw new IsingError(
      'ISING_NOT_FINITE',
      `${who}: ${what} is ${v}; β times the upstream gradient overflows float64. Scale ∂L/∂m down.`,
    );
  };
  let maxN = 0;
  for (let q = 0; q < size; q++) {
    const n = spins[q]!;
    maxN = Math.max(maxN, n);
    for (let j = 0; j < n; j++) {
      const v = grads.fields[q * stride + j]!;
      if (!Number.isFinite(v)) fail(`∂L/∂h of problem ${q}, spin ${j}`, v);
    }
  }
  for (let j = 0; j < maxN; j++) {
    for (let k = j + 1; k < maxN; k++) {
      const v = grads.couplings[j * stride + k]!;
      if (!Number.isFinite(v)) fail(`∂L/∂J_${j},${k}`, v);
    }
  }
}
