import * as tf from '@tensorflow/tfjs';
import type { Transformer } from './modelTypes.js';
import { evaluationChunk, evaluationOf, scoreRows } from '../model/evaluation.js';
import type { Evaluation, EvaluationSums } from '../model/evaluation.js';
import { checkBatch } from '../model/tokenBatch.js';
import type { TokenBatch } from '../model/tokenBatch.js';
import { readOutsideTidy } from './tensorData.js';

/**
 * Evaluates a model on a batch without training: masked mean cross-entropy and argmax accuracy
 * over the masked positions.
 *
 * Sequences are processed `chunkSize` at a time (default 64) to bound memory; works with
 * asynchronous samplers. A model trained on the engine can be evaluated there instead, without
 * syncing its weights back: `EngineTrainer.evaluate`.
 *
 * @throws {AttentionError} the batch errors of {@link createTrainer}'s step; ATTENTION_INVALID_ARGUMENT for a bad chunk size.
 * @example
 * import { createTransformer, evaluate, initBackend, perplexity } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 });
 * const inputs = Int32Array.of(1, 2, 3, 4, 4, 3, 2, 1);
 * const targets = Int32Array.of(2, 3, 4, 5, 3, 2, 1, 0);
 * const { loss, correct, count } = await evaluate(model, { inputs, targets, batchSize: 2 });
 * console.log(perplexity(loss), correct / count);
 * model.dispose();
 * @category Evaluation
 */
export async function evaluate(
  model: Transformer,
  batch: TokenBatch,
  options: { chunkSize?: number } = {},
): Promise<Evaluation> {
  const { batchSize, mask, targets } = checkBatch(model.config, batch);
  const chunk = evaluationChunk(options.chunkSize);
  const t = batch.inputs.length / batchSize;
  const classes = model.config.outputSize;
  const inputs = Int32Array.from(batch.inputs);
  const sums: EvaluationSums = { lossSum: 0, weight: 0, correct: 0, count: 0 };
  for (let start = 0; start < batchSize; start += chunk) {
    const b = Math.min(chunk, batchSize - start);
    const logits = await model.forward(inputs.subarray(start * t, (start + b) * t), b);
    const rows = readOutsideTidy(() => tf.logSoftmax(logits));
    logits.dispose();
    scoreRows(sums, { rows, classes, from: start * t, normalized: true }, targets, mask);
  }
  return evaluationOf(sums);
}
