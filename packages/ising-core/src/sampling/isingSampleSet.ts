import { IsingError } from '../errors.js';
import type { SampleSet } from '../types.js';
import { toDimodJson } from './dimodJson.js';
import { rowEnergies } from './rowEnergy.js';
import type {
  DimodSampleSetJson,
  IsingSampleSetInfo,
  IsingSampleSetParts,
  SampleRow,
} from './types.js';

/** The parts of an {@link IsingSampleSet}; `states` is `rows × spins`, ±1. */
/** Rows of `input.states` (`n` spins each), after checking every shape and entry. */
function checkShapes(
  input: {
    couplings: Float64Array;
    states: Int8Array;
    occurrences?: Float64Array;
    probabilities?: Float64Array;
  },
  n: number,
): number {
  const rows = n === 0 ? Number.NaN : input.states.length / n;
  const lengths = [input.occurrences?.length, input.probabilities?.length];
  if (
    !Number.isInteger(rows) ||
    input.couplings.length !== n * n ||
    lengths.some((l) => l !== undefined && l !== rows)
  )
    throw new IsingError(
      'ISING_SHAPE_MISMATCH',
      `IsingSampleSet: ${n} fields need ${n * n} couplings and rows of ${n} states with one occurrence (and probability) each; got ${input.couplings.length} couplings, ${input.states.length} state entries, ${lengths.map((l) => l ?? 'no').join(' and ')} occurrences and probabilities`,
    );
  for (let i = 0; i < input.states.length; i++)
    if (input.states[i] !== 1 && input.states[i] !== -1)
      throw new IsingError(
        'ISING_BAD_SAMPLES',
        `IsingSampleSet: state entry ${i} is ${input.states[i]}, not ±1`,
      );
  return rows;
}

/**
 * The samples of one Ising problem with their energies, modelled on dimod's `SampleSet`.
 *
 * As dimod's (dimod@aca7cc3 dimod/sampleset.py): a record of rows (sample, energy,
 * num_occurrences) in the sampler's order, `first` (lowest energy), `data()` sorted by energy,
 * `aggregate()`, `lowest()`, plus Qiskit-style `counts()` and `toDimod()`. Energies are
 * ising-core's physics convention `E(s) = −Σ h_j s_j − Σ_{j<k} J_jk s_j s_k`, lower is better; the
 * same numbers are dimod's energies of the model `h' = −h`, `J' = −J` (QUANTUM_APIS.md §4.2).
 * Methods never change a set: they return new ones.
 *
 * @category Sampling
 */
export class IsingSampleSet {
  /** Variables per row (`n`); variable `j` is spin `s_j`. */
  readonly spins: number;
  /** `rows × spins` ±1 values, row-major. */
  readonly states: Int8Array;
  /** Energy of each row. */
  readonly energies: Float64Array;
  /** dimod's `num_occurrences` of each row. */
  readonly occurrences: Float64Array;
  /** Probability of each row, when the rows enumerate an exact distribution (`dense: 'enumerate'`). */
  readonly probabilities: Float64Array | undefined;
  /** What ran. */
  readonly info: IsingSampleSetInfo;

  private constructor(parts: IsingSampleSetParts) {
    this.spins = parts.spins;
    this.states = parts.states;
    this.energies = parts.energies;
    this.occurrences = parts.occurrences;
    this.probabilities = parts.probabilities;
    this.info = parts.info;
  }

  /**
   * A sample set of `states` with energies computed from `fields` (length `n`) and `couplings`
   * (`n × n` row-major, strict upper triangle read); `occurrences` defaults to 1 a row. The arrays
   * are kept, not copied. Shapes and ±1 entries are checked; values are as given (sampleIsing
   * checks them).
   *
   * @throws {IsingError} ISING_SHAPE_MISMATCH, ISING_BAD_SAMPLES
   */
  static fromStates(input: {
    fields: Float64Array;
    couplings: Float64Array;
    states: Int8Array;
    occurrences?: Float64Array;
    probabilities?: Float64Array;
    info: IsingSampleSetInfo;
  }): IsingSampleSet {
    const n = input.fields.length;
    const rows = checkShapes(input, n);
    return new IsingSampleSet({
      spins: n,
      states: input.states,
      energies: rowEnergies(input.fields, input.couplings, n, input.states),
      occurrences: input.occurrences ?? new Float64Array(rows).fill(1),
      probabilities: input.probabilities,
      info: input.info,
    });
  }

  /** Rows in the record (dimod's `len(sampleset)`). */
  get size(): number {
    return this.occurrences.length;
  }

  /** Sum of `occurrences`: the reads the set stands for. */
  get totalOccurrences(): number {
    let t = 0;
    for (const w of this.occurrences) t += w;
    return t;
  }

  /** Row `i` as dimod's `Sample(sample, energy, num_occurrences)`. */
  row(i: number): SampleRow {
    if (!Number.isInteger(i) || i < 0 || i >= this.size)
      throw new IsingError('ISING_INVALID_ARGUMENT', `row ${i} is outside 0 … ${this.size - 1}`);
    const n = this.spins;
    return {
      sample: this.states.slice(i * n, (i + 1) * n),
      energy: this.energies[i]!,
      occurrences: this.occurrences[i]!,
      index: i,
    };
  }

  /**
   * The rows sorted by energy, lowest first (dimod's `data()`, `sorted_by='energy'`); ties keep
   * record order (dimod's default argsort does not promise that). `sortedBy: null` keeps record order.
   */
  data(options: { sortedBy?: 'energy' | null; reverse?: boolean } = {}): SampleRow[] {
    const order = Array.from({ length: this.size }, (_, i) => i);
    if (options.sortedBy !== null) order.sort((a, b) => this.energies[a]! - this.energies[b]!);
    if (options.reverse) order.reverse();
    return order.map((i) => this.row(i));
  }

  /** The lowest-energy row (dimod's `first`); the earliest such row on ties. */
  get first(): SampleRow {
    if (this.size === 0) throw new IsingError('ISING_INVALID_ARGUMENT', 'the sample set is empty');
    let best = 0;
    for (let i = 1; i < this.size; i++) if (this.energies[i]! < this.energies[best]!) best = i;
    return this.row(best);
  }

  /**
   * A set with identical samples merged (dimod's `aggregate()`): rows in order of first
   * appearance, `occurrences` summed, the other fields from the first appearance.
   */
  aggregate(): IsingSampleSet {
    const n = this.spins;
    const index = new Map<string, number>();
    const keep: number[] = [];
    const sums: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const key = this.states.subarray(i * n, (i + 1) * n).join(',');
      const at = index.get(key);
      if (at === undefined) {
        index.set(key, keep.length);
        keep.push(i);
        sums.push(this.occurrences[i]!);
      } else sums[at]! += this.occurrences[i]!;
    }
    return this.pick(keep, Float64Array.from(sums));
  }

  /**
   * The rows whose energy is within `atol + rtol·|E_min|` of the lowest (dimod's `lowest()`,
   * numpy `isclose`; defaults rtol 1e-5, atol 1e-8 as there).
   */
  lowest(options: { rtol?: number; atol?: number } = {}): IsingSampleSet {
    const { rtol = 1e-5, atol = 1e-8 } = options;
    if (this.size === 0) return this;
    const low = this.first.energy;
    const keep: number[] = [];
    for (let i = 0; i < this.size; i++)
      if (Math.abs(this.energies[i]! - low) <= atol + rtol * Math.abs(low)) keep.push(i);
    return this.pick(
      keep,
      Float64Array.from(keep, (i) => this.occurrences[i]!),
    );
  }

  /**
   * Qiskit-style counts: bitstring → summed occurrences. Character `i` of a key is the bit of spin
   * `n − 1 − i` (Qiskit prints `c[n−1] … c[0]`, QUANTUM_APIS.md §3), and bit 0 ↔ `s = +1`, bit 1 ↔
   * `s = −1` (`s = 1 − 2b`, §4.3), as the ibm adapter reads its shots (quantum-adapters ibmResults.ts).
   *
   * @example
   * import { IsingSampleSet } from '@boltzmann/ising-core';
   *
   * // two spins, s_0 = +1, s_1 = −1 → "10"
   * const set = IsingSampleSet.fromStates({
   *   fields: new Float64Array(2),
   *   couplings: new Float64Array(4),
   *   states: Int8Array.of(1, -1),
   *   info: { sampler: 'by hand', source: 'samples', beta: 1 },
   * });
   * console.log(set.counts()); // { '10': 1 }
   */
  counts(): Record<string, number> {
    const n = this.spins;
    const out: Record<string, number> = {};
    const chars = new Array<string>(n);
    for (let i = 0; i < this.size; i++) {
      for (let j = 0; j < n; j++) chars[n - 1 - j] = this.states[i * n + j] === 1 ? '0' : '1';
      const key = chars.join('');
      out[key] = (out[key] ?? 0) + this.occurrences[i]!;
    }
    return out;
  }

  /** The JSON of dimod's `SampleSet.to_serializable(pack_samples=False)`; see `toDimodJson`. */
  toDimod(): DimodSampleSetJson {
    return toDimodJson(this);
  }

  /** The rows as ising-core's raw {@link SampleSet} (weights = occurrences), e.g. for `estimateFromSamples`. */
  toSampleSet(): SampleSet {
    return { spins: this.spins, states: this.states.slice(), weights: this.occurrences.slice() };
  }

  private pick(rows: readonly number[], occurrences: Float64Array): IsingSampleSet {
    const n = this.spins;
    const states = new Int8Array(rows.length * n);
    rows.forEach((r, i) => states.set(this.states.subarray(r * n, (r + 1) * n), i * n));
    const probabilities = this.probabilities;
    return new IsingSampleSet({
      spins: n,
      states,
      energies: Float64Array.from(rows, (r) => this.energies[r]!),
      occurrences,
      probabilities: probabilities && Float64Array.from(rows, (r) => probabilities[r]!),
      info: this.info,
    });
  }
}
