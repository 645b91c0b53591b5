import { AttentionError } from '../errors.js';

/** Validates a `B×T` token batch and returns `T`. */
export function sequenceLength(inputs: ArrayLike<number>, batchSize: number, maxLength: number, vocab: number, what = 'inputs'): number {
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new AttentionError('ATTENTION_INVALID_ARGUMENT', `batchSize must be a positive integer, got ${String(batchSize)}`);
  }
  if (inputs.length === 0 || inputs.length % batchSize !== 0) {
    throw new AttentionError('ATTENTION_SHAPE_MISMATCH', `${what} has ${inputs.length} entries, not a positive multiple of batchSize ${batchSize}`);
  }
  const length = inputs.length / batchSize;
  if (length > maxLength) {
    throw new AttentionError('ATTENTION_SHAPE_MISMATCH', `${what} sequences have length ${length}; the model's maxLength is ${maxLength}`);
  }
  for (let i = 0; i < inputs.length; i++) {
    const t = inputs[i]!;
    if (!Number.isInteger(t) || t < 0 || t >= vocab) {
      throw new AttentionError('ATTENTION_INVALID_TOKEN', `${what}[${i}] is ${String(t)}; tokens must be integers in [0, ${vocab})`);
    }
  }
  return length;
}

/** Validates an optional `B×T` loss mask (finite, ≥ 0, not all zero) and returns it or all-ones. */
export function lossMask(mask: ArrayLike<number> | undefined, size: number): Float32Array {
  if (mask === undefined) return new Float32Array(size).fill(1);
  if (mask.length !== size) {
    throw new AttentionError('ATTENTION_SHAPE_MISMATCH', `mask has ${mask.length} entries; the batch has ${size} positions`);
  }
  let total = 0;
  for (let i = 0; i < size; i++) {
    const m = mask[i]!;
    if (!Number.isFinite(m) || m < 0) throw new AttentionError('ATTENTION_INVALID_ARGUMENT', `mask[${i}] is ${String(m)}; weights must be finite and ≥ 0`);
    total += m;
  }
  if (total === 0) throw new AttentionError('ATTENTION_EMPTY_MASK', `mask selects no position out of ${size}`);
  return Float32Array.from(mask);
}
