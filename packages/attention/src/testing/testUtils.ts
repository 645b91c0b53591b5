import * as tf from '@tensorflow/tfjs';
import { createRng, floorScaledInt } from '@boltzmann/ising-core';
import type { TokenBatch, Transformer, TransformerConfig } from '../index.js';

/** Seeded `count` tokens in `[0, vocab)`, drawn with `floorScaledInt` (the streams these tests were written on). */
export function randomTokens(count: number, vocab: number, seed: number): Int32Array {
  const rng = createRng(seed);
  return Int32Array.from({ length: count }, () => floorScaledInt(rng, vocab));
}

/** Seeded standard-normal values. */
export function randomNormal(count: number, seed: number, scale = 1): Float64Array {
  const rng = createRng(seed);
  return Float64Array.from({ length: count }, () => scale * rng.normal());
}

/** Largest absolute difference of two equally long arrays. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

/** Reads a tensor's values and disposes it. */
export function take(t: tf.Tensor): Float32Array {
  const data = Float32Array.from(t.dataSync());
  t.dispose();
  return data;
}

/** A float32 tensor from any numeric array (tfjs rejects Float64Array). */
export function tensorOf<R extends tf.Rank>(
  values: ArrayLike<number>,
  shape: number[],
): tf.Tensor<R> {
  return tf.tensor(Float32Array.from(values), shape) as unknown as tf.Tensor<R>;
}

/** A step's figures without its wall-clock `timings` (which differ between any two runs). */
export function figures<T extends { readonly timings?: unknown }>(result: T): Omit<T, 'timings'> {
  const { timings: _timings, ...rest } = result;
  return rest;
}

/** The small 2-layer, 2-head model of the multi-layer GPT tests (gptLayers*.test.ts). */
export const gpt: TransformerConfig = {
  vocabSize: 7,
  maxLength: 6,
  dModel: 8,
  ffnHidden: 16,
  heads: 2,
  layers: 2,
  seed: 2,
};

/** Sequences of a period-3 pattern with a random phase: next-token prediction is learnable. */
export function patternBatch(b: number, seed: number): TokenBatch {
  const phases = randomTokens(b, 3, seed);
  const t = 6;
  const inputs = Int32Array.from(
    { length: b * t },
    (_, k) => [1, 4, 2][(phases[Math.floor(k / t)]! + (k % t)) % 3]!,
  );
  const targets = Int32Array.from(inputs, (_, k) => (k % t === t - 1 ? 0 : inputs[k + 1]!));
  const mask = Float32Array.from(inputs, (_, k) => (k % t === t - 1 ? 0 : 1));
  return { inputs, targets, mask, batchSize: b };
}

/** The logits of `model.forward`, read and disposed. */
export const logitsOf = async (
  model: Transformer,
  inputs: Int32Array,
  b: number,
): Promise<Float32Array> => take(await model.forward(inputs, b));

/** The tiny one-layer model of the trainer tests (trainer*.test.ts). */
export const tiny: TransformerConfig = {
  vocabSize: 6,
  maxLength: 6,
  dModel: 16,
  ffnHidden: 32,
  seed: 1,
};
/** `b` random 6-token sequences (seeded), the first position of each masked out. */
export const batchOf = (b: number, seed: number): TokenBatch => ({
  inputs: randomTokens(b * 6, 6, seed),
  targets: randomTokens(b * 6, 6, seed + 1),
  mask: Float32Array.from({ length: b * 6 }, (_, i) => (i % 6 === 0 ? 0 : 1)),
  batchSize: b,
});
