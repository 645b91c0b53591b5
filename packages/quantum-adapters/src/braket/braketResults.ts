import { echo } from '@boltzmann/ising-core/internal';
import type { SampleSet } from '@boltzmann/ising-core';
import { malformed } from '../shared/errors.js';

const isBit = (v: unknown): v is 0 | 1 => v === 0 || v === 1;

/**
 * Decodes a Braket `results.json` (`braket.task_result.gate_model_task_result` v1, QUANTUM_APIS.md §2.5)
 * into a sample set over `n` spins: spin `j` is qubit `j`, a measured bit 0 is `s = +1` and 1 is `s = −1`.
 * Per-shot `measurements` are preferred; otherwise `measurementProbabilities` (keys big-endian: character
 * `k` is `measuredQubits[k]`) become weights `p · shots`. Identical shots are merged into one weighted row.
 *
 * @summary Decodes a Braket `results.json` (`braket.task_result.gate_model_task_result` v1, QUANTUM_APIS.md §2.5) into a sample set over `n` spins.
 * @param result the parsed JSON document.
 * @param n number of spins (qubits 0..n−1 must all be measured).
 * @throws {AdapterError} ADAPTER_MALFORMED for a wrong schema, missing qubits, ragged rows or non-binary values.
 * @example
 * import { decodeBraketResults } from '@boltzmann/quantum-adapters';
 *
 * // A Braket task's results.json (measurements of 2 qubits, 3 shots).
 * const text = JSON.stringify({
 *   braketSchemaHeader: { name: 'braket.task_result.gate_model_task_result', version: '1' },
 *   measurements: [[0, 1], [0, 1], [1, 1]],
 *   measuredQubits: [0, 1],
 * });
 * const set = decodeBraketResults(JSON.parse(text), 2);
 * console.log(set.states, set.weights);
 * @category Amazon Braket
 */
export function decodeBraketResults(result: unknown, n: number): SampleSet {
  const r = result as Record<string, unknown> | null;
  if (r === null || typeof r !== 'object' || Array.isArray(r))
    throw malformed('results.json is not a JSON object');
  const header = r.braketSchemaHeader as { name?: unknown } | undefined;
  if (header?.name !== 'braket.task_result.gate_model_task_result') {
    throw malformed(
      `results.json has schema ${echo(header?.name)}, expected "braket.task_result.gate_model_task_result"`,
    );
  }
  const qubits = r.measuredQubits;
  if (!Array.isArray(qubits) || !qubits.every((x) => Number.isInteger(x)))
    throw malformed('results.json lacks an integer measuredQubits array');
  const column = new Int32Array(n).fill(-1);
  qubits.forEach((qubit: number, k) => {
    if (qubit >= 0 && qubit < n) column[qubit] = k;
  });
  const missing = column.findIndex((c) => c < 0);
  if (missing >= 0)
    throw malformed(
      `results.json measured qubits ${echo(qubits)} but spin ${missing} needs qubit ${missing}`,
    );
  const counts = new Map<string, number>();
  const add = (bits: ArrayLike<unknown>, weight: number): void => {
    let key = '';
    for (let j = 0; j < n; j++) key += bits[column[j]!] === 1 ? '1' : '0';
    counts.set(key, (counts.get(key) ?? 0) + weight);
  };
  if (Array.isArray(r.measurements)) {
    if (r.measurements.length === 0)
      throw malformed('results.json has an empty measurements array');
    r.measurements.forEach((row: unknown, i) => {
      if (!Array.isArray(row) || row.length !== qubits.length || !row.every(isBit)) {
        throw malformed(
          `results.json measurements[${i}] is not a row of ${qubits.length} bits: ${echo(row, 80)}`,
        );
      }
      add(row, 1);
    });
  } else if (
    r.measurementProbabilities !== null &&
    typeof r.measurementProbabilities === 'object'
  ) {
    const shots = (r.taskMetadata as { shots?: unknown } | undefined)?.shots;
    if (typeof shots !== 'number' || !(shots > 0))
      throw malformed(
        'results.json has measurementProbabilities but no positive taskMetadata.shots',
      );
    let total = 0;
    for (const [key, p] of Object.entries(r.measurementProbabilities as Record<string, unknown>)) {
      if (
        key.length !== qubits.length ||
        !/^[01]+$/.test(key) ||
        typeof p !== 'number' ||
        !(p >= 0 && p <= 1)
      ) {
        throw malformed(`results.json measurementProbabilities has entry ${echo(key)}: ${echo(p)}`);
      }
      total += p;
      add([...key].map(Number), p * shots);
    }
    if (Math.abs(total - 1) > 1e-6)
      throw malformed(`results.json measurementProbabilities sum to ${total}, not 1`);
  } else {
    throw malformed('results.json has neither measurements nor measurementProbabilities');
  }
  const keys = [...counts.keys()].filter((k) => counts.get(k)! > 0);
  const states = new Int8Array(keys.length * n);
  const weights = new Float64Array(keys.length);
  keys.forEach((key, i) => {
    for (let j = 0; j < n; j++) states[i * n + j] = key[j] === '1' ? -1 : 1;
    weights[i] = counts.get(key)!;
  });
  return { spins: n, states, weights };
}
