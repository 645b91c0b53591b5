import { AttentionError } from '../core/errors.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';

/**
 * A training or evaluation batch: `B×T` tokens and targets, with an optional `B×T` loss mask.
 *
 * @category Training
 */
export interface TokenBatch {
  readonly inputs: ArrayLike<number>;
  readonly targets: ArrayLike<number>;
  readonly mask?: ArrayLike<number>;
  /** Number of sequences `B` (default `inputs.length / maxLength`). */
  readonly batchSize?: number;
}

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

/** Validates a batch against a model's configuration; returns `B`, the loss mask and the targets (0 where masked out). */
export function checkBatch(
  config: Pick<ResolvedTransformerConfig, 'maxLength' | 'vocabSize' | 'outputSize'>,
  batch: TokenBatch,
): { batchSize: number; mask: Float32Array; targets: Int32Array } {
  const { maxLength, vocabSize, outputSize } = config;
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
    targets: checkTargets(batch.targets, mask, batch.inputs.length, outputSize),
  };
}

/** Validates targets where the mask is positive; returns them with masked-out entries set to 0. */
export function checkTargets(
  targets: ArrayLike<number>,
  mask: Float32Array,
  size: number,
  classes: number,
): Int32Array {
  if (targets.length !== size || mask.length !== size) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `targets (${targets.length}) and mask (${mask.length}) must both have ${size} entries`,
    );
  }
  const clean = new Int32Array(size);
  for (let i = 0; i < size; i++) {
    if (mask[i] === 0) continue;
    const c = targets[i]!;
    if (!Number.isInteger(c) || c < 0 || c >= classes) {
      throw new AttentionError(
        'ATTENTION_INVALID_TOKEN',
        `targets[${i}] is ${String(c)}; classes are integers in [0, ${classes})`,
      );
    }
    clean[i] = c;
  }
  return clean;
}
