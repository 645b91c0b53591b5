import type { IsingBatch } from '@boltzmann/ising-core';
import { invalidArgument } from '../shared/errors.js';

/**
 * The JSON form of dimod's `BinaryQuadraticModel.to_serializable()` (bqm_schema 3.0.0), SPIN vartype.
 *
 * @category D-Wave
 */
export interface DimodBqmJson {
  readonly type: 'BinaryQuadraticModel';
  readonly version: { readonly bqm_schema: '3.0.0' };
  readonly use_bytes: false;
  readonly index_type: 'int32';
  readonly bias_type: 'float64';
  readonly num_variables: number;
  readonly num_interactions: number;
  readonly variable_labels: readonly (string | number)[];
  readonly variable_type: 'SPIN';
  readonly offset: number;
  readonly info: Record<string, never>;
  readonly linear_biases: readonly number[];
  readonly quadratic_biases: readonly number[];
  readonly quadratic_head: readonly number[];
  readonly quadratic_tail: readonly number[];
}

/**
 * Serializes a SPIN binary quadratic model exactly as dimod's `to_serializable()` does
 * (QUANTUM_APIS.md §1.8): labels as given (pass them sorted, as dimod sorts sortable labels),
 * interactions with `head < tail`, sorted lexicographically. Biases are taken as given (D-Wave signs).
 *
 * @summary Serializes a SPIN binary quadratic model exactly as dimod's `to_serializable()` does (QUANTUM_APIS.md §1.8).
 * @param model labels, one linear bias per label, interactions `[u, v, bias]` by label index, and the offset.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT for non-finite biases, bad indices or repeated pairs.
 * @example
 * import { dimodBqmJson } from '@boltzmann/quantum-adapters';
 *
 * console.log(JSON.stringify(dimodBqmJson({ labels: ['a', 'b'], linear: [-1, 1], quadratic: [[0, 1, -1]] })));
 * @category D-Wave
 */
export function dimodBqmJson(model: {
  labels?: readonly (string | number)[];
  linear: readonly number[];
  quadratic: readonly (readonly [number, number, number])[];
  offset?: number;
}): DimodBqmJson {
  const n = model.linear.length;
  const labels = model.labels ?? Array.from({ length: n }, (_, i) => i);
  if (labels.length !== n) throw invalidArgument(`${labels.length} labels for ${n} linear biases`);
  model.linear.forEach((b, i) => {
    if (!Number.isFinite(b)) throw invalidArgument(`linear bias of ${String(labels[i])} is ${b}`);
  });
  const offset = model.offset ?? 0;
  if (!Number.isFinite(offset)) throw invalidArgument(`offset is ${offset}`);
  const seen = new Set<string>();
  const edges = model.quadratic.map(([u, v, bias]) => {
    if (
      !Number.isInteger(u) ||
      !Number.isInteger(v) ||
      u < 0 ||
      v < 0 ||
      u >= n ||
      v >= n ||
      u === v
    )
      throw invalidArgument(
        `interaction (${u}, ${v}) is not a pair of distinct variable indices below ${n}`,
      );
    if (!Number.isFinite(bias)) throw invalidArgument(`quadratic bias of (${u}, ${v}) is ${bias}`);
    const [head, tail] = u < v ? [u, v] : [v, u];
    if (seen.has(`${head},${tail}`))
      throw invalidArgument(`interaction (${head}, ${tail}) is given twice`);
    seen.add(`${head},${tail}`);
    return [head, tail, bias] as const;
  });
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return {
    type: 'BinaryQuadraticModel',
    version: { bqm_schema: '3.0.0' },
    use_bytes: false,
    index_type: 'int32',
    bias_type: 'float64',
    num_variables: n,
    num_interactions: edges.length,
    variable_labels: [...labels],
    variable_type: 'SPIN',
    offset,
    info: {},
    linear_biases: [...model.linear],
    quadratic_biases: edges.map((e) => e[2]),
    quadratic_head: edges.map((e) => e[0]),
    quadratic_tail: edges.map((e) => e[1]),
  };
}

/**
 * Problem `q` of a batch as a dimod SPIN BQM in D-Wave signs, with β folded in:
 * `h_dwave = -β·h`, `J_dwave = -β·J`, so `exp(-E_dwave) = exp(-β·E_physics)` and the Boltzmann
 * distribution at temperature 1 of the BQM is the batch's. Zero couplings are omitted. Labels are `0..n-1`.
 *
 * @summary Problem `q` of a batch as a dimod SPIN BQM in D-Wave signs, with β folded in.
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT when `q` is not a problem index of the batch.
 * @example
 * import { writeFileSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { causalBatch } from '@boltzmann/ising-core';
 * import { batchProblemToBqm } from '@boltzmann/quantum-adapters';
 *
 * const batch = causalBatch(Float64Array.from({ length: 16 }, (_, i) => Math.sin(i)), new Float64Array(16).fill(0.2), { batch: 1, length: 4 });
 * writeFileSync(join(tmpdir(), 'p0.bqm.json'), JSON.stringify(batchProblemToBqm(batch, 0)));
 * // Python: dimod.BinaryQuadraticModel.from_serializable(json.load(open('p0.bqm.json')))
 * @category D-Wave
 */
export function batchProblemToBqm(batch: IsingBatch, q: number): DimodBqmJson {
  if (!Number.isInteger(q) || q < 0 || q >= batch.size)
    throw invalidArgument(`problem index ${q} is outside the batch of ${batch.size}`);
  const n = batch.spins[q]!;
  const { stride, beta } = batch;
  const linear = Array.from({ length: n }, (_, j) => -beta * batch.fields[q * stride + j]! + 0);
  const quadratic: [number, number, number][] = [];
  for (let u = 0; u < n; u++) {
    for (let v = u + 1; v < n; v++) {
      const J = batch.couplings[u * stride + v]!;
      if (J !== 0) quadratic.push([u, v, -beta * J]);
    }
  }
  return dimodBqmJson({ linear, quadratic });
}
