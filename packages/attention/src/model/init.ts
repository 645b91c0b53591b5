import { createRng } from '@boltzmann/ising-core';
import type { ParamSpec } from '../core/paramSpecs.js';

/** FNV-1a of a string: a stable per-parameter seed offset. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * The initial values of one parameter. Each parameter draws from its own stream, seeded by
 * the model seed and the parameter's name, so a parameter starts the same in every variant
 * (paired comparisons across variants share their embeddings, FFN and head).
 */
export function initialValues(spec: ParamSpec, seed: number): Float32Array {
  const size = spec.shape.reduce((a, b) => a * b, 1);
  const out = new Float32Array(size);
  if (spec.init === 'ones') return out.fill(1);
  if (spec.init === 'zeros') return out;
  const rng = createRng(hash(`${seed}/${spec.name}`) + seed * 2 ** 32);
  const std = spec.std ?? 0.02;
  if (spec.init === 'normal') {
    for (let i = 0; i < size; i++) out[i] = std * rng.normal();
    return out;
  }
  // 'upperNormal': a stack of square matrices, normal on the strict upper triangle only.
  const n = spec.shape[spec.shape.length - 1]!;
  for (let i = 0; i < size; i++) {
    const row = Math.floor(i / n) % n;
    if (row < i % n) out[i] = std * rng.normal();
  }
  return out;
}
