import { AttentionError } from '../core/errors.js';
import { checkTargets } from '../loss.js';
import type { TokenBatch, Transformer } from '../modelTypes.js';

/** Validates a `B×T` token batch and returns `T`. */
export function sequenceLength(
  inputs: ArrayLike<number>,
  batchSize: number,
  maxLength: number,
  vocab: number,
  what = 'inputs',
): number {
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `batchSize must be a positive integer, got ${String(batchSize)}`,
    );
  }
  if (inputs.length === 0 || inputs.length % batchSize !== 0) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `${what} has ${inputs.length} entries, not a positive multiple of batchSize ${batchSize}`,
    );
  }
  const length = inputs.length / batchSize;
  if (length > maxLength) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `${what} sequences have length ${length}; the model's maxLength is ${maxLength}`,
    );
  }
  for (let i = 0; i < inputs.length; i++) {
    const t = inputs[i]!;
    if (!Number.isInteger(t) || t < 0 || t >= vocab) {
      throw new AttentionError(
        'ATTENTION_INVALID_TOKEN',
        `${what}[${i}] is ${String(t)}; tokens must be integers in [0, ${vocab})`,
      );
    }
  }
  return length;
}

/** Validates an optional `B×T` loss mask (finite, ≥ 0, not all zero) and returns it or all-ones. */
export function lossMask(mask: ArrayLike<number> | undefined, size: number): Float32Array {
  if (mask === undefined) return new Float32Array(size).fill(1);
  if (mask.length !== size) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `mask has ${mask.length} entries; the batch has ${size} positions`,
    );
  }
  let total = 0;
  for (let i = 0; i < size; i++) {
    const m = mask[i]!;
    if (!Number.isFinite(m) || m < 0)
      throw new AttentionError(
        'ATTENTION_INVALID_ARGUMENT',
        `mask[${i}] is ${String(m)}; weights must be finite and ≥ 0`,
      );
    total += m;
  }
  if (total === 0)
    throw new AttentionError('ATTENTION_EMPTY_MASK', `mask selects no position out of ${size}`);
  return Float32Array.from(mask);
}

/** Validates a batch against a model; returns `B`, the loss mask and the targets (0 where masked out). */
export function checkBatch(
  model: Transformer,
  batch: TokenBatch,
): { batchSize: number; mask: Float32Array; targets: Int32Array } {
  const { maxLength, vocabSize } = model.config;
  if (batch.batchSize === undefined && batch.inputs.length % maxLength !== 0) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `inputs has ${batch.inputs.length} entries, not a multiple of maxLength ${maxLength}; pass batchSize for shorter sequences`,
    );
  }
  const batchSize = batch.batchSize ?? batch.inputs.length / maxLength;
  sequenceLength(batch.inputs, batchSize, maxLength, vocabSize);
  if (batch.targets?.length !== batch.inputs.length) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `targets has ${String(batch.targets?.length)} entries; inputs has ${batch.inputs.length}`,
    );
  }
  const mask = lossMask(batch.mask, batch.inputs.length);
  return {
    batchSize,
    mask,
    targets: checkTargets(batch.targets, mask, batch.inputs.length, model.config.outputSize),
  };
}
