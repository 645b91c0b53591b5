// The tfjs model's effective couplings from its coupling parameter (the engine's are in
// engine/couplingParams.ts): kept apart from core/couplingForm.ts so that the forms parse without tfjs.
import * as tf from '@tensorflow/tfjs';
import type { ParsedCouplingForm } from '../core/couplingForm.js';

/**
 * `A[h, j, k] = f[h, k − j]` for `k ≥ j` (zero below the diagonal) from `f` (`heads × t`),
 * with reshapes only: each row of `[f, 0…0]` (length `2t + 1`) read back with row length `2t`
 * shifts one place per row. Differentiable on every backend (a gather's gradient needs
 * UnsortedSegmentSum, which the wasm backend lacks).
 */
function toeplitz(f: tf.Tensor, heads: number, t: number): tf.Tensor3D {
  const padded = tf.pad(f, [
    [0, 0],
    [0, t + 1],
  ]); // heads × (2t + 1)
  const rows = tf.add(tf.zeros([heads, t, 2 * t + 1]), tf.reshape(padded, [heads, 1, 2 * t + 1]));
  const flat = tf.slice(tf.reshape(rows, [heads, t * (2 * t + 1)]), [0, 0], [heads, 2 * t * t]);
  return tf.slice(tf.reshape(flat, [heads, t, 2 * t]), [0, 0, 0], [heads, t, t]) as tf.Tensor3D;
}

/**
 * Builds the effective `J` (`heads × t × t`, zero on and below the diagonal and outside a band)
 * from the parameter, differentiably; the constant masks and indices of each `t` are made once
 * and kept until `dispose`.
 */
export function createCouplingBuilder(
  form: ParsedCouplingForm,
  heads: number,
): { couplings(param: tf.Tensor, t: number): tf.Tensor3D; dispose(): void } {
  const masks = new Map<number, { mask: tf.Tensor2D }>();
  const constants = (t: number): { mask: tf.Tensor2D } => {
    let c = masks.get(t);
    if (c === undefined) {
      const mask = new Float32Array(t * t);
      for (let j = 0; j < t; j++) {
        for (let k = j + 1; k < t; k++) {
          mask[j * t + k] = form.kind === 'banded' && k - j > form.bandwidth ? 0 : 1;
        }
      }
      c = { mask: tf.keep(tf.tensor2d(mask, [t, t])) };
      masks.set(t, c);
    }
    return c;
  };
  return {
    couplings(param, t) {
      if (form.kind === 'full') return tf.slice(param, [0, 0, 0], [heads, t, t]) as tf.Tensor3D;
      const { mask } = constants(t);
      if (form.kind === 'relative')
        return tf.mul(toeplitz(tf.slice(param, [0, 0], [heads, t]), heads, t), mask) as tf.Tensor3D;
      return tf.mul(tf.slice(param, [0, 0, 0], [heads, t, t]), mask) as tf.Tensor3D;
    },
    dispose() {
      for (const { mask } of masks.values()) mask.dispose();
      masks.clear();
    },
  };
}
