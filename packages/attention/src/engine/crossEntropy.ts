/**
 * The engine's masked mean cross-entropy with its gradient in one pass (scripts/lossWat.mjs), as
 * the tfjs model's `maskedCrossEntropy`: `L = Σ_n w_n (lse(z_n) − z_n[t_n]) / Σ w`, and the
 * logits are overwritten by `∂L/∂z = (softmax(z_n) − onehot(t_n)) w_n / Σ w`. The kernel leaves
 * each row's max, Σ exp and z_t; the loss is summed from them in float64.
 */
import { AttentionError } from '../errors.js';
import { engineCount, engineFits, instantiateEngineModule } from './arena.js';
import type { EngineMemory } from './arena.js';
import { wasmBase64 } from './kernels/lossWasm.generated.js';

interface LossExports {
  cross_entropy(...args: number[]): void;
}

/** Float offsets: logits rows × classes; targets (int32), weights and stats (3 per row) scratch. */
export interface CrossEntropyArgs {
  readonly logits: number;
  readonly rows: number;
  readonly classes: number;
  readonly targets: number;
  readonly weights: number;
  readonly stats: number;
}

/** The cross-entropy kernel bound to one arena. */
export interface LossKernels {
  /**
   * The loss of the logits against `targets` under `mask` (copied into the arena), the logits
   * becoming their gradient.
   */
  crossEntropy(a: CrossEntropyArgs, targets: Int32Array, mask: Float32Array): number;
}

/** Instantiates the cross-entropy kernel on `memory`. */
export function createLossKernels(memory: EngineMemory): LossKernels {
  const k = instantiateEngineModule(wasmBase64, memory, 'cross-entropy') as LossExports;
  return {
    crossEntropy(a, targets, mask) {
      const rows = engineCount('crossEntropy', 'rows', a.rows);
      const classes = engineCount('crossEntropy', 'classes', a.classes);
      const arena = memory.buffer.byteLength >>> 2;
      const sizes = { logits: rows * classes, targets: rows, weights: rows, stats: 3 * rows };
      for (const [name, size] of Object.entries(sizes) as [keyof typeof sizes, number][])
        engineFits('crossEntropy', name, a[name], size, arena);
      let total = 0;
      for (let n = 0; n < rows; n++) {
        total += mask[n]!;
        const t = targets[n]!;
        if (!(t >= 0 && t < classes))
          throw new AttentionError(
            'ATTENTION_INVALID_TOKEN',
            `crossEntropy: targets[${n}] is ${t}; classes are integers in [0, ${classes})`,
          );
      }
      const f = new Float32Array(memory.buffer);
      new Int32Array(memory.buffer, 4 * a.targets, rows).set(targets.subarray(0, rows));
      for (let n = 0; n < rows; n++) f[a.weights + n] = mask[n]! / total;
      k.cross_entropy(4 * a.logits, rows, classes, 4 * a.targets, 4 * a.weights, 4 * a.stats);
      let loss = 0;
      for (let n = 0; n < rows; n++) {
        const s = a.stats + 3 * n;
        loss += mask[n]! * (f[s]! + Math.log(f[s + 1]!) - f[s + 2]!);
      }
      return loss / total;
    },
  };
}
