import type { DimodArray, DimodSampleSetJson, IsingSampleSetParts } from './types.js';

function vector(values: Float64Array, dataType: 'int64' | 'float64'): DimodArray {
  return {
    type: 'array',
    data: Array.from(values),
    data_type: dataType,
    shape: [values.length],
    use_bytes: false,
  };
}

/**
 * A sample set as the JSON that dimod's `SampleSet.from_serializable` reads: the object
 * `SampleSet.to_serializable(use_bytes=False, pack_samples=False)` writes, schema 3.2.0
 * (dimod@aca7cc3 dimod/sampleset.py; arrays as `serialize_ndarray` in dimod/serialization/utils.py).
 * Samples are unpacked `int8` ±1 rows (`sample_packed: false`, read since schema 3.1.0),
 * variables are labelled `0 … n−1` (spin `s_j` is variable `j`), `variable_type` is `SPIN`, and
 * the vectors are `energy` (float64), `num_occurrences` (int64, or float64 when a weight is not an
 * integer) and, for an enumerated distribution, `probability`. `info` holds `sampler`, `source`,
 * `beta` and the energy convention. The energies are ising-core's `−Σ h s − Σ J s s`: they equal
 * dimod's `bqm.energies` for the BQM with `h' = −h`, `J' = −J` (QUANTUM_APIS.md §4.2), not for `h, J`.
 */
export function toDimodJson(set: IsingSampleSetParts): DimodSampleSetJson {
  const n = set.spins;
  const rows = set.occurrences.length;
  const data: number[][] = [];
  for (let r = 0; r < rows; r++) data.push(Array.from(set.states.subarray(r * n, (r + 1) * n)));
  const integral = set.occurrences.every((w) => Number.isSafeInteger(w));
  const vectors: Record<string, DimodArray> = {
    energy: vector(set.energies, 'float64'),
    num_occurrences: vector(set.occurrences, integral ? 'int64' : 'float64'),
  };
  if (set.probabilities) vectors.probability = vector(set.probabilities, 'float64');
  return {
    type: 'SampleSet',
    version: { sampleset_schema: '3.2.0' },
    num_variables: n,
    num_rows: rows,
    sample_data: { type: 'array', data, data_type: 'int8', shape: [rows, n], use_bytes: false },
    sample_type: 'int8',
    sample_packed: false,
    vectors,
    variable_labels: Array.from({ length: n }, (_, j) => j),
    variable_type: 'SPIN',
    info: {
      sampler: set.info.sampler,
      source: set.info.source,
      beta: set.info.beta,
      energy_convention: 'E = -sum(h*s) - sum(J*s*s); dimod model h=-h, J=-J',
    },
  };
}
