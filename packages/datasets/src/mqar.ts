import { createRng } from '@boltzmann/ising-core';
import type { Rng } from '@boltzmann/ising-core';
import { DatasetError } from './errors.js';
import { assertFiniteNumber, assertIntInRange, describe } from './internal/assert.js';
import { topKeysOrder } from './internal/powerLawGaps.js';

/**
 * Multi-query associative recall (MQAR; Arora et al. 2023, "Zoology", `multiquery_ar` of
 * HazyResearch/zoology): a sequence opens with `numKvPairs` key–value pairs, then every key is
 * queried once at a gap drawn from a power law, and the model must predict the paired value at
 * each query.
 */

/**
 * Options of {@link mqar}.
 *
 * @category MQAR
 */
export interface MqarOptions {
  /** Token ids 0 … vocabSize−1: keys are 1 … ⌊V/2⌋−1, values ⌊V/2⌋ … V−1 (Zoology's split). Default 8,192. */
  readonly vocabSize?: number;
  /** Sequence length T: even, at least 4 · numKvPairs. */
  readonly length: number;
  /** Key–value pairs per sequence (each key is queried once). */
  readonly numKvPairs: number;
  /** Power of the query gaps, `p(g) ∝ g^(a−1)` for gap slot g = 1 … (T − 2n)/2; 1 is uniform. Default 0.01 (Zoology's `power_a`). */
  readonly powerA?: number;
  /** Fill the positions that are neither pairs nor queries with uniform random tokens (else 0). Default true. */
  readonly randomNonQueries?: boolean;
  /** Sequences of the training set. Default 100,000 (Zoology's). */
  readonly trainExamples?: number;
  /** Sequences of the held-out test set. Default 3,000 (Zoology's). */
  readonly testExamples?: number;
  /** Seed of the training set's stream. Default 0. */
  readonly seed?: number;
  /** Seed of the test set's own stream; must differ from `seed`. Default `seed + 10` (Zoology's). */
  readonly testSeed?: number;
}

/**
 * A set of MQAR sequences, row-major `count × length`.
 *
 * Targets are not stored: the target at `queryPositions[r·n + k]` is pair k's value,
 * `inputs[r·length + 2k + 1]` ({@link mqarBatch}).
 * @category MQAR
 */
export interface MqarExamples {
  readonly count: number;
  readonly length: number;
  readonly numKvPairs: number;
  readonly inputs: Int32Array;
  /** `count × numKvPairs`: the position where pair k's key is queried, in pair order. */
  readonly queryPositions: Int32Array;
}

/**
 * An MQAR task: its settings, training set and held-out test set.
 *
 * @category MQAR
 */
export interface Mqar {
  readonly vocabSize: number;
  readonly length: number;
  readonly numKvPairs: number;
  readonly powerA: number;
  readonly train: MqarExamples;
  readonly test: MqarExamples;
}

/**
 * Largest `examples × length` of one set (2^27 tokens, 512 MiB of Int32).
 *
 * @category MQAR
 */
export const MAX_MQAR_TOKENS = 2 ** 27;

/**
 * The settings of an MQAR task, checked ({@link checkMqarSpec}).
 *
 * @category MQAR
 */
export interface MqarSpec {
  readonly vocabSize: number;
  readonly length: number;
  readonly numKvPairs: number;
  readonly powerA: number;
  readonly randomNonQueries: boolean;
}

function invalid(message: string): never {
  throw new DatasetError('DATASET_INVALID_ARGUMENT', message);
}

/**
 * Checks the settings of an MQAR task (no sets drawn): the numbers Zoology asserts (an even
 * length, `4 · numKvPairs ≤ length`) and enough key and value ids for the pairs.
 *
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT naming the offending value.
 * @category MQAR
 */
export function checkMqarSpec(options: MqarOptions): MqarSpec {
  if (options === null || typeof options !== 'object')
    invalid(`options must be an object, got ${describe(options)}`);
  const length = assertIntInRange('length', options.length, 4, 1 << 20);
  if (length % 2 !== 0) invalid(`length must be even (Zoology's MQAR), got ${length}`);
  const numKvPairs = assertIntInRange('numKvPairs', options.numKvPairs, 1);
  if (4 * numKvPairs > length)
    invalid(
      `numKvPairs ${numKvPairs} needs a length of at least 4 · ${numKvPairs} = ${4 * numKvPairs} (pairs, then a gap slot per query), got ${length}`,
    );
  const vocabSize = assertIntInRange('vocabSize', options.vocabSize ?? 8192, 4, 1 << 24);
  const keys = Math.floor(vocabSize / 2) - 1;
  if (keys < numKvPairs)
    invalid(
      `vocabSize ${vocabSize} has ${keys} key ids (1 … ${keys}) for ${numKvPairs} distinct keys a sequence; use a vocabSize of at least ${2 * numKvPairs + 2}`,
    );
  const powerA = assertFiniteNumber('powerA', options.powerA ?? 0.01);
  if (powerA <= 0) invalid(`powerA must be > 0, got ${powerA}`);
  const randomNonQueries = options.randomNonQueries ?? true;
  if (typeof randomNonQueries !== 'boolean')
    invalid(`randomNonQueries must be a boolean, got ${describe(randomNonQueries)}`);
  return { vocabSize, length, numKvPairs, powerA, randomNonQueries };
}

/**
 * The weights of the gap slots g = 1 … space, `g^(a−1)` (Zoology's, before its normalization).
 *
 * @param space gap slots, `(length − 2 · numKvPairs) / 2`.
 * @param powerA the power a.
 * @category MQAR
 */
export function mqarGapWeights(space: number, powerA: number): Float64Array {
  const w = new Float64Array(space);
  for (let g = 0; g < space; g++) w[g] = (g + 1) ** (powerA - 1);
  return w;
}

/** `n` distinct ids uniform in [from, to), in the order drawn (redrawn while taken). */
function distinctIds(rng: Rng, from: number, to: number, n: number, out: Int32Array): void {
  for (let k = 0; k < n; k++) {
    let id: number;
    let again: boolean;
    do {
      id = from + rng.nextInt(to - from);
      again = false;
      for (let j = 0; j < k; j++) if (out[j] === id) again = true;
    } while (again);
    out[k] = id;
  }
}

/** Draws `count` sequences from `rng` into a new {@link MqarExamples}. */
function drawExamples(spec: MqarSpec, count: number, rng: Rng): MqarExamples {
  const { vocabSize: V, length: T, numKvPairs: n } = spec;
  const half = Math.floor(V / 2);
  const context = 2 * n;
  const weights = mqarGapWeights((T - context) / 2, spec.powerA);
  const inputs = new Int32Array(count * T);
  const queryPositions = new Int32Array(count * n);
  const keys = new Int32Array(n);
  const values = new Int32Array(n);
  const isQuery = new Uint8Array(T);
  for (let r = 0; r < count; r++) {
    distinctIds(rng, 1, half, n, keys);
    distinctIds(rng, half, V, n, values);
    const gaps = topKeysOrder(weights, n, rng);
    const row = r * T;
    isQuery.fill(0);
    for (let k = 0; k < n; k++) {
      inputs[row + 2 * k] = keys[k]!;
      inputs[row + 2 * k + 1] = values[k]!;
      const p = context + 2 * gaps[k]!;
      inputs[row + p] = keys[k]!;
      queryPositions[r * n + k] = p;
      isQuery[p] = 1;
    }
    for (let p = context; p < T; p++)
      if (isQuery[p] === 0) inputs[row + p] = spec.randomNonQueries ? rng.nextInt(V) : 0;
  }
  return { count, length: T, numKvPairs: n, inputs, queryPositions };
}

/**
 * Draws an MQAR task as Zoology's `multiquery_ar` defines it.
 *
 * Each sequence of length T: - positions 0 … 2n−1 hold n key–value pairs, the keys distinct ids of
 * 1 … ⌊V/2⌋−1 and the   values distinct ids of ⌊V/2⌋ … V−1; - every key is queried once, at
 * position `2n + 2g` with g a gap slot in 0 … (T−2n)/2 − 1; the   slots of the n keys are drawn
 * without replacement with probabilities `∝ (g+1)^(a−1)`, pair 0's   first (successive sampling,
 * as numpy's `choice(replace=False, p=…)`), so near slots dominate; - the target at a query
 * position is its key's value (the next token of Zoology's unshifted   sequence); every other
 * position is not scored (Zoology's −100; here target −1 and mask 0); - the other positions hold
 * uniform random tokens of 0 … V−1 (`randomNonQueries`), else 0.
 *
 * The training set is drawn from `createRng(seed)`, the test set from its own `createRng(testSeed)`.
 * Zoology also asserts `vocabSize > length`; nothing in the task needs it, so it is not required here.
 *
 * @param options see {@link MqarOptions}.
 * @returns the task: settings, training set, test set.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for an odd length, `4 · numKvPairs > length`,
 *   too few key or value ids, a non-positive powerA, bad counts, equal seeds, or a set above
 *   {@link MAX_MQAR_TOKENS} tokens.
 * @example
 * import { mqar, mqarBatch } from '@boltzmann/datasets';
 *
 * const task = mqar({ vocabSize: 256, length: 64, numKvPairs: 8, trainExamples: 1000, testExamples: 100 });
 * const { inputs, targets, mask } = mqarBatch(task.test); // mask: 1 at the 8 queries of each row
 * console.log(inputs.length, targets.length, mask.length);
 * @category MQAR
 */
export function mqar(options: MqarOptions): Mqar {
  const spec = checkMqarSpec(options);
  const count = (name: string, value: number | undefined, fallback: number): number => {
    const n = assertIntInRange(name, value ?? fallback, 1);
    if (n * spec.length > MAX_MQAR_TOKENS)
      invalid(
        `${name} ${n} × length ${spec.length} is above ${MAX_MQAR_TOKENS.toLocaleString('en-US')} tokens`,
      );
    return n;
  };
  const trainCount = count('trainExamples', options.trainExamples, 100_000);
  const testCount = count('testExamples', options.testExamples, 3_000);
  const seed = assertFiniteNumber('seed', options.seed ?? 0);
  const testSeed = assertFiniteNumber('testSeed', options.testSeed ?? seed + 10);
  if (testSeed === seed)
    invalid(`testSeed must differ from seed (the test set has its own stream), both are ${seed}`);
  return {
    vocabSize: spec.vocabSize,
    length: spec.length,
    numKvPairs: spec.numKvPairs,
    powerA: spec.powerA,
    train: drawExamples(spec, trainCount, createRng(seed)),
    test: drawExamples(spec, testCount, createRng(testSeed)),
  };
}

/**
 * A batch of MQAR sequences in a trainer's layout (row-major `batchSize × length`).
 *
 * @category MQAR
 */
export interface MqarBatch {
  readonly inputs: Int32Array;
  /** The paired value at each query position, −1 elsewhere. */
  readonly targets: Int32Array;
  /** 1 at the query positions (the only ones scored), 0 elsewhere. */
  readonly mask: Float32Array;
  readonly batchSize: number;
}

/**
 * Rows of an MQAR set as a batch: inputs, the value targets at the queries (−1 elsewhere) and the mask.
 *
 * @param set a training or test set of {@link mqar}.
 * @param rows the rows to take, in order (default: all).
 * @returns the batch.
 * @throws {DatasetError} DATASET_INVALID_ARGUMENT for a row outside the set.
 * @example
 * import { mqar, mqarBatch } from '@boltzmann/datasets';
 *
 * const test = mqarBatch(mqar({ length: 64, numKvPairs: 4 }).test);
 * console.log(test.inputs.length);
 * @category MQAR
 */
export function mqarBatch(set: MqarExamples, rows?: ArrayLike<number>): MqarBatch {
  const { length: T, numKvPairs: n } = set;
  const take = rows ?? Array.from({ length: set.count }, (_, r) => r);
  const inputs = new Int32Array(take.length * T);
  const targets = new Int32Array(take.length * T).fill(-1);
  const mask = new Float32Array(take.length * T);
  for (let b = 0; b < take.length; b++) {
    const r = assertIntInRange('row', take[b], 0, set.count - 1);
    inputs.set(set.inputs.subarray(r * T, (r + 1) * T), b * T);
    for (let k = 0; k < n; k++) {
      const p = set.queryPositions[r * n + k]!;
      targets[b * T + p] = set.inputs[r * T + 2 * k + 1]!;
      mask[b * T + p] = 1;
    }
  }
  return { inputs, targets, mask, batchSize: take.length };
}
