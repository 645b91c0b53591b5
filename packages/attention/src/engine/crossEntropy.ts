/**
 * The engine's masked mean cross-entropy with its gradient in one pass
 * (kernels/crossEntropy/crossEntropyWat.mjs), as the tfjs model's `maskedCrossEntropy`:
 * `L = Σ_n w_n (lse(z_n) − z_n[t_n]) / Σ w`, and the logits are overwritten by
 * `∂L/∂z = (softmax(z_n) − onehot(t_n)) w_n / Σ w`. The kernel leaves each row's max, Σ exp
 * and z_t; the loss is summed from them in float64. The weights are the whole batch's
 * (`mask / Σ mask`), so a shard's loss is its part of the batch's.
 */
import { AttentionError } from '../core/errors.js';
import { engineCount, engineFits, instantiateEngineModule } from './arena.js';
import type { EngineMemory } from './arena.js';
import type { KernelBackend } from './native/engineBackend.js';
import { wasmBase64 as sharedBase64 } from './kernels/crossEntropy/crossEntropySharedWasm.generated.js';
import { wasmBase64 } from './kernels/crossEntropy/crossEntropyWasm.generated.js';

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
export interface CrossEntropyKernels {
  /**
   * Writes rows `from … from + a.rows` of `targets` (int32) and their weights `mask / total`
   * into the arena; throws `ATTENTION_INVALID_TOKEN` for a target outside the classes.
   */
  writeTargets(
    a: CrossEntropyArgs,
    targets: Int32Array,
    mask: Float32Array,
    from: number,
    total: number,
  ): void;
  /** Overwrites the logits by their gradient, leaving each row's statistics. */
  crossEntropy(a: CrossEntropyArgs): void;
  /** Σ_rows weight · (lse − z_target) from the statistics, in float64. */
  loss(a: CrossEntropyArgs): number;
}

/** Instantiates the cross-entropy kernel on `memory`. */
export function createCrossEntropyKernels(
  memory: EngineMemory,
  backend?: KernelBackend,
): CrossEntropyKernels {
  const k = instantiateEngineModule(
    { plain: wasmBase64, shared: sharedBase64 },
    memory,
    'cross-entropy',
    backend,
  ) as LossExports;
  const checked = (a: CrossEntropyArgs) => {
    const rows = engineCount('crossEntropy', 'rows', a.rows);
    const classes = engineCount('crossEntropy', 'classes', a.classes);
    const arena = memory.buffer.byteLength >>> 2;
    const sizes = { logits: rows * classes, targets: rows, weights: rows, stats: 3 * rows };
    for (const [name, size] of Object.entries(sizes) as [keyof typeof sizes, number][])
      engineFits('crossEntropy', name, a[name], size, arena);
    return { rows, classes };
  };
  return {
    writeTargets(a, targets, mask, from, total) {
      const { rows, classes } = checked(a);
      const ints = new Int32Array(memory.buffer, 4 * a.targets, rows);
      const f = new Float32Array(memory.buffer);
      for (let n = 0; n < rows; n++) {
        const t = targets[from + n]!;
        if (!(t >= 0 && t < classes))
          throw new AttentionError(
            'ATTENTION_INVALID_TOKEN',
            `crossEntropy: targets[${from + n}] is ${t}; classes are integers in [0, ${classes})`,
          );
        ints[n] = t;
        f[a.weights + n] = mask[from + n]! / total;
      }
    },
    crossEntropy(a) {
      const { rows, classes } = checked(a);
      k.cross_entropy(4 * a.logits, rows, classes, 4 * a.targets, 4 * a.weights, 4 * a.stats);
    },
    loss(a) {
      const { rows } = checked(a);
      const f = new Float32Array(memory.buffer);
      let loss = 0;
      for (let n = 0; n < rows; n++) {
        const s = a.stats + 3 * n;
        loss += f[a.weights + n]! * (f[s]! + Math.log(f[s + 1]!) - f[s + 2]!);
      }
      return loss;
    },
  };
}
