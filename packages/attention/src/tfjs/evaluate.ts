import * as tf from '@tensorflow/tfjs';
import { AttentionError } from '../core/errors.js';
import type { Transformer } from './modelTypes.js';
import { checkBatch } from '../model/tokenBatch.js';
import type { TokenBatch } from '../model/tokenBatch.js';
import { readOutsideTidy } from './tensorData.js';

/** Loss and accuracy of a model on a batch. */
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

/**
 * Evaluates a model on a batch without training: masked mean cross-entropy and argmax
 * accuracy over the masked positions. Sequences are processed `chunkSize` at a time (default
 * 64) to bound memory; works with asynchronous samplers.
 *
 * @throws {AttentionError} the batch errors of {@link createTrainer}'s step; ATTENTION_INVALID_ARGUMENT for a bad chunk size.
 * @example
 * const { loss, correct, count } = await evaluate(model, { inputs, targets, batchSize: 8 });
 * console.log(perplexity(loss), correct / count);
 */
export async function evaluate(
  model: Transformer,
  batch: TokenBatch,
  options: { chunkSize?: number } = {},
): Promise<Evaluation> {
  const { batchSize, mask, targets } = checkBatch(model.config, batch);
  const chunk = options.chunkSize ?? 64;
  if (!Number.isInteger(chunk) || chunk < 1) {
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `chunkSize must be a positive integer, got ${String(chunk)}`,
    );
  }
  const t = batch.inputs.length / batchSize;
  const classes = model.config.outputSize;
  const inputs = Int32Array.from(batch.inputs);
  let lossSum = 0;
  let weight = 0;
  let correct = 0;
  let count = 0;
  for (let start = 0; start < batchSize; start += chunk) {
    const b = Math.min(chunk, batchSize - start);
    const ids = inputs.subarray(start * t, (start + b) * t);
    const logits = await model.forward(ids, b);
    const logp = readOutsideTidy(() => tf.logSoftmax(logits));
    logits.dispose();
    for (let r = 0; r < b * t; r++) {
      const pos = start * t + r;
      const w = mask[pos]!;
      if (w === 0) continue;
      const row = logp.subarray(r * classes, (r + 1) * classes);
      let best = 0;
      for (let c = 1; c < classes; c++) if (row[c]! > row[best]!) best = c;
      lossSum -= w * row[targets[pos]!]!;
      weight += w;
      count++;
      if (best === targets[pos]) correct++;
    }
  }
  return { loss: lossSum / weight, lossSum, weight, correct, count };
}

/**
 * Merges evaluations of several batches into one (weighted by their masks).
 *
 * @example
 * const total = combineEvaluations(await Promise.all(batches.map((b) => evaluate(model, b))));
 */
export function combineEvaluations(parts: readonly Evaluation[]): Evaluation {
  let lossSum = 0;
  let weight = 0;
  let correct = 0;
  let count = 0;
  for (const p of parts) {
    lossSum += p.lossSum;
    weight += p.weight;
    correct += p.correct;
    count += p.count;
  }
  if (weight === 0)
    throw new AttentionError(
      'ATTENTION_EMPTY_MASK',
      'no evaluation to combine has a positive mask weight',
    );
  return { loss: lossSum / weight, lossSum, weight, correct, count };
}

/**
 * Perplexity `exp(mean cross-entropy)` (nats).
 *
 * @example
 * perplexity((await evaluate(model, validation)).loss);
 */
export function perplexity(meanCrossEntropy: number): number {
  return Math.exp(meanCrossEntropy);
}
