import type { IsingBatch } from '@boltzmann/ising-core';
import { invalidArgument } from './errors.js';

/**
 * Problem `q` of a batch as dqa-sim reads one: its `n` fields and an `n × n` coupling matrix with
 * the strict upper triangle filled (physics signs, β not applied). The gate-model plugins (braket,
 * ibm) turn each into one circuit.
 *
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for an index outside the batch.
 */
export function batchProblem(
  batch: IsingBatch,
  q: number,
): { fields: number[]; couplings: Float64Array } {
  if (!Number.isInteger(q) || q < 0 || q >= batch.size)
    throw invalidArgument(`problem index ${q} is outside the batch of ${batch.size}`);
  const n = batch.spins[q]!;
  const { stride } = batch;
  const fields = Array.from(batch.fields.subarray(q * stride, q * stride + n));
  const couplings = new Float64Array(n * n);
  for (let u = 0; u < n; u++)
    for (let v = u + 1; v < n; v++) couplings[u * n + v] = batch.couplings[u * stride + v]!;
  return { fields, couplings };
}
