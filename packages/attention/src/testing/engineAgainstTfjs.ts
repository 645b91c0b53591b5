// What the engine's tests against the tfjs model share: weights scaled up so that the attention
// branch reaches the loss, and each parameter's gradient difference.
import * as tf from '@tensorflow/tfjs';
import type { Transformer } from '../index.js';

/** Scales every kernel and embedding of `model` by `factor` (larger than at initialization). */
export function scaleWeights(model: Transformer, factor: number): void {
  for (const p of model.parameters)
    if (p.name.endsWith('/kernel') || p.name.startsWith('embedding/'))
      p.variable.assign(tf.tidy(() => tf.mul(p.variable, factor)));
}

/**
 * Per parameter: max |engine − tfjs| over its gradient, relative to its largest entry (at least
 * 1e-3). `grads` are tfjs's (`tf.variableGrads`), `engineGrads(name)` the engine's.
 */
export function gradientErrors(
  model: Transformer,
  grads: Record<string, tf.Tensor>,
  engineGrads: (name: string) => Float32Array,
): [string, number][] {
  return model.parameters.map((p) => {
    const want = grads[p.variable.name]!.dataSync();
    const got = engineGrads(p.name);
    let scale = 1e-3;
    let diff = 0;
    for (let i = 0; i < want.length; i++) {
      scale = Math.max(scale, Math.abs(want[i]!));
      diff = Math.max(diff, Math.abs(got[i]! - want[i]!));
    }
    return [p.name, diff / scale];
  });
}
