/**
 * Options of {@link sampleIsing}.
 *
 * @category Sampling
 */
export interface SampleIsingOptions {
  /**
   * Reads (dimod's `num_reads`, Qiskit's shots) that `sampleIsing` draws itself: from a sampler's
   * exact distribution (`'dense'` answers, exact estimate-only samplers) or from an approximate
   * sampler's marginals. A sampler that answers with samples keeps its own count (its `shots`,
   * `numReads`, `chains × samples` option). A positive integer up to 2^24; default 10, the default
   * `num_reads` of dimod's reference samplers (dimod@aca7cc3 `random_sampler.py`, `simulated_annealing.py`).
   */
  readonly reads?: number;
  /** Inverse temperature of `p(s) ∝ exp(−β E(s))` (default 1). Energies never include it. */
  readonly beta?: number;
  /** Seed of the draws `sampleIsing` makes itself (default 0); the sampler's own seed is its option. */
  readonly seed?: number;
  /**
   * What an answer with exact probabilities becomes: `'draw'` (default) `reads` samples drawn
   * with the seeded generator, one row per read, like any sampler's; `'enumerate'` every state
   * once with `occurrences` 1 and its probability, as dimod's `ExactSolver` returns every state once.
   * `'enumerate'` refuses more than 24 spins (2^24 rows).
   */
  readonly dense?: 'draw' | 'enumerate';
}

/**
 * Where a sample set's rows came from:
 * - `samples`: the sampler's own samples (gibbs, dqa with shots, hardware, plugins);
 * - `dense-draw` / `dense-enumerate`: an exact distribution (dqa with `shots: 0`, a plugin's
 *   `'dense'` answer, or an exact estimate-only sampler: `exact`, `transfer-matrix`), drawn or enumerated;
 * - `exact-sequential`: an exact estimate-only sampler above 24 spins, each read drawn spin by spin
 *   from the sampler's magnetizations conditioned on the spins drawn before (the chain rule);
 * - `product-of-marginals`: an approximate estimate-only sampler (`mean-field`, `tap`): independent
 *   spins with the sampler's magnetizations, `p(s_j = ±1) = (1 ± m_j)/2`, that approximation's own
 *   distribution; it has no correlations beyond it.
 * @summary Where a sample set's rows came from.
 * @category Sampling
 */
export type SampleSource =
  | 'samples'
  | 'dense-draw'
  | 'dense-enumerate'
  | 'exact-sequential'
  | 'product-of-marginals';

/**
 * What ran: dimod's `SampleSet.info`.
 *
 * @category Sampling
 */
export interface IsingSampleSetInfo {
  /** The sampler's name (`'exact'`, `'gibbs'`, `'dqa'`, …). */
  readonly sampler: string;
  readonly source: SampleSource;
  /** β the sampler ran at. */
  readonly beta: number;
}

/**
 * One row of a sample set, as dimod's `data()` yields it.
 *
 * @category Sampling
 */
export interface SampleRow {
  /** The ±1 spins `s_0 … s_{n−1}` (a copy). */
  readonly sample: Int8Array;
  /** `E(s) = −Σ_j h_j s_j − Σ_{j<k} J_jk s_j s_k`. */
  readonly energy: number;
  /** dimod's `num_occurrences`. */
  readonly occurrences: number;
  /** The row's index in the record. */
  readonly index: number;
}

/**
 * dimod's `serialize_ndarray(arr, use_bytes=False)` (dimod/serialization/utils.py).
 *
 * @category Sampling
 */
export interface DimodArray {
  readonly type: 'array';
  readonly data: number[] | number[][];
  readonly data_type: 'int8' | 'int64' | 'float64';
  readonly shape: number[];
  readonly use_bytes: false;
}

/**
 * dimod's `SampleSet.to_serializable(pack_samples=False)`, schema 3.2.0 (dimod/sampleset.py).
 *
 * @category Sampling
 */
export interface DimodSampleSetJson {
  readonly type: 'SampleSet';
  readonly version: { readonly sampleset_schema: '3.2.0' };
  readonly num_variables: number;
  readonly num_rows: number;
  readonly sample_data: DimodArray;
  readonly sample_type: 'int8';
  readonly sample_packed: false;
  readonly vectors: Readonly<Record<string, DimodArray>>;
  readonly variable_labels: number[];
  readonly variable_type: 'SPIN';
  readonly info: Readonly<Record<string, unknown>>;
}

/** The parts of an `IsingSampleSet`: its rows, their energies and occurrences, and what ran. */
export interface IsingSampleSetParts {
  /** Variables per row. */
  readonly spins: number;
  /** `rows × spins` ±1 values, row-major. */
  readonly states: Int8Array;
  readonly energies: Float64Array;
  readonly occurrences: Float64Array;
  readonly info: IsingSampleSetInfo;
  /** Each row's probability, when the rows enumerate an exact distribution. */
  readonly probabilities?: Float64Array | undefined;
}
