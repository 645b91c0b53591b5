import { createIsingBatch } from '../batch.js';
import { IsingError } from '../errors.js';
import type { Rng } from '../rng.js';
import type { BatchEstimate, IsingBatch } from '../types.js';
import type { Rows } from './draws.js';

/** Reads conditioned together in one batch: bounds a batch's fields to this many × n doubles. */
const READS_PER_BATCH = 256;

/** One model, `n` spins, `couplings` `n × n` row-major (upper triangle read). */
interface Model {
  readonly n: number;
  readonly fields: Float64Array;
  readonly couplings: Float64Array;
  readonly beta: number;
}

/** The `(n − j) × (n − j)` block of `couplings` from row and column `j`. */
function block(couplings: Float64Array, n: number, j: number): Float64Array {
  const m = n - j;
  const out = new Float64Array(m * m);
  for (let a = 0; a < m; a++) out.set(couplings.subarray((j + a) * n + j, (j + a + 1) * n), a * m);
  return out;
}

/**
 * `reads` exact samples of a model of any size from an exact `estimate` alone, by the chain rule
 * `p(s) = Π_j p(s_j | s_<j)`: at step `j` every read's remaining spins `j … n−1` form one problem
 * whose fields carry the fixed spins (`h_k + Σ_{i<j} J_ik s_i`), all reads in one batch sharing the
 * coupling block; `s_j` is drawn with `p(+1) = (1 + ⟨s_j⟩)/2` from that problem's magnetization.
 * `n · ⌈reads / 256⌉` estimate calls.
 */
export async function drawSequential(
  estimate: (batch: IsingBatch) => Promise<BatchEstimate>,
  model: Model,
  reads: number,
  rng: Rng,
): Promise<Rows> {
  const { n, couplings, beta } = model;
  const states = new Int8Array(reads * n);
  for (let first = 0; first < reads; first += READS_PER_BATCH) {
    const size = Math.min(READS_PER_BATCH, reads - first);
    // Each read's conditioned fields, updated as its spins are fixed.
    const fields = new Float64Array(size * n);
    for (let r = 0; r < size; r++) fields.set(model.fields, r * n);
    for (let j = 0; j < n; j++) {
      const m = n - j;
      const batchFields = new Float64Array(size * m);
      for (let r = 0; r < size; r++)
        batchFields.set(fields.subarray(r * n + j, (r + 1) * n), r * m);
      const batch = createIsingBatch({
        fields: batchFields,
        couplings: block(couplings, n, j),
        spins: new Int32Array(size).fill(m),
        stride: m,
        beta,
      });
      const mag = (await estimate(batch)).magnetization;
      for (let r = 0; r < size; r++) {
        const mj = mag[r * m]!;
        if (!(Math.abs(mj) <= 1))
          throw new IsingError('ISING_BAD_SAMPLES', `a conditional magnetization is ${mj}`);
        const s = rng.next() < (1 + mj) / 2 ? 1 : -1;
        states[(first + r) * n + j] = s;
        for (let k = j + 1; k < n; k++) fields[r * n + k]! += couplings[j * n + k]! * s;
      }
    }
  }
  return { states };
}
