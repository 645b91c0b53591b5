/**
 * Loss and accuracy of a model on token batches, backend-free: the scoring of output rows that
 * both paths share (`evaluate` on a tfjs model, `EngineTrainer.evaluate` on the engine), the
 * merge of several batches, and perplexity.
 */
import { AttentionError } from '../core/errors.js';

/**
 * Loss and accuracy of a model on a batch.
 *
 * @category Evaluation
 */
export interface Evaluation {
  /** Masked mean cross-entropy, `lossSum / weight`. */
  readonly loss: number;
  /** `Σ mask · (−log p(target))`. */
  readonly lossSum: number;
  /** `Σ mask`. */
  readonly weight: number;
  /** Positions with a positive mask whose argmax equals the target. */
  readonly correct: number;
  /** Positions with a positive mask. */
  readonly count: number;
}

/** The running sums of an evaluation (see {@link Evaluation}). */
export interface EvaluationSums {
  lossSum: number;
  weight: number;
  correct: number;
  count: number;
}

/** Rows of one chunk of a batch: `rows.length / classes` positions from position `from` on. */
export interface ScoredRows {
  /** `positions × classes`, row-major: log-probabilities, or logits when `normalized` is false. */
  readonly rows: Float32Array;
  readonly classes: number;
  /** The batch's position of the first row. */
  readonly from: number;
  /** Whether `rows` are log-probabilities already (else each row's log-sum-exp is taken off). */
  readonly normalized: boolean;
}

/** `log Σ exp(row)` in float64, shifted by the row's maximum. */
function logSumExp(row: Float32Array): number {
  let max = -Infinity;
  for (let c = 0; c < row.length; c++) if (row[c]! > max) max = row[c]!;
  let sum = 0;
  for (let c = 0; c < row.length; c++) sum += Math.exp(row[c]! - max);
  return max + Math.log(sum);
}

/**
 * Adds one chunk's masked cross-entropy and argmax hits to `sums` (positions with mask 0 are
 * skipped; an argmax tie goes to the lower class).
 */
export function scoreRows(
  sums: EvaluationSums,
  chunk: ScoredRows,
  targets: ArrayLike<number>,
  mask: ArrayLike<number>,
): void {
  const { rows, classes, from } = chunk;
  const positions = rows.length / classes;
  for (let r = 0; r < positions; r++) {
    const pos = from + r;
    const w = mask[pos]!;
    if (w === 0) continue;
    const row = rows.subarray(r * classes, (r + 1) * classes);
    let best = 0;
    for (let c = 1; c < classes; c++) if (row[c]! > row[best]!) best = c;
    const shift = chunk.normalized ? 0 : logSumExp(row);
    sums.lossSum -= w * (row[targets[pos]!]! - shift);
    sums.weight += w;
    sums.count++;
    if (best === targets[pos]) sums.correct++;
  }
}

/** The {@link Evaluation} of finished sums. */
export function evaluationOf(sums: EvaluationSums): Evaluation {
  const { lossSum, weight, correct, count } = sums;
  return { loss: lossSum / weight, lossSum, weight, correct, count };
}

/** The sequences of a chunked evaluation: `chunkSize` (default 64), checked. */
export function evaluationChunk(chunkSize: number | undefined): number {
  const chunk = chunkSize ?? 64;
  if (!Number.isInteger(chunk) || chunk < 1) {
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `chunkSize must be a positive integer, got ${String(chunk)}`,
    );
  }
  return chunk;
}

/**
 * Merges evaluations of several batches into one (weighted by their masks).
 *
 * @throws {AttentionError} ATTENTION_EMPTY_MASK when no part has a positive mask weight.
 * @example
 * import { combineEvaluations, createTransformer, evaluate, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 });
 * const batches = [Int32Array.of(1, 2, 3, 4), Int32Array.of(4, 3, 2, 1)].map((inputs) => ({
 *   inputs,
 *   targets: inputs.map((t) => (t + 1) % 8),
 *   batchSize: 1,
 * }));
 * const total = combineEvaluations(await Promise.all(batches.map((b) => evaluate(model, b))));
 * console.log(total.loss, total.count);
 * model.dispose();
 * @category Evaluation
 */
export function combineEvaluations(parts: readonly Evaluation[]): Evaluation {
  const sums: EvaluationSums = { lossSum: 0, weight: 0, correct: 0, count: 0 };
  for (const p of parts) {
    sums.lossSum += p.lossSum;
    sums.weight += p.weight;
    sums.correct += p.correct;
    sums.count += p.count;
  }
  if (sums.weight === 0)
    throw new AttentionError(
      'ATTENTION_EMPTY_MASK',
      'no evaluation to combine has a positive mask weight',
    );
  return evaluationOf(sums);
}

/**
 * Perplexity `exp(mean cross-entropy)` (nats).
 *
 * @example
 * import { perplexity } from '@boltzmann/attention';
 *
 * console.log(perplexity(Math.log(65))); // 65: a uniform guess over 65 characters
 * @category Evaluation
 */
export function perplexity(meanCrossEntropy: number): number {
  return Math.exp(meanCrossEntropy);
}
