/**
 * The engine's transfer-matrix kernels over the arena (kernels/transfer/transfer.c): Boltzmann
 * attention's causal op with exact banded inference for every problem of a pass in one call, and
 * its backward. Native only for now: on WebAssembly `createTransferKernels` gives `undefined` and
 * the engine runs ising-core's transfer-matrix sampler. Offsets in floats.
 */
import { AttentionError } from '../core/errors.js';
import { engineCount, engineFits } from './arena.js';
import type { EngineMemory } from './arena.js';
import { nativeOnlyExports } from './native/engineBackend.js';
import type { KernelBackend } from './native/engineBackend.js';

/** One call's operands: `B × H × T × T` fields and weights, `H × T × T` couplings, `B × H × T` row sums. */
export interface TransferOperands {
  readonly h: number;
  readonly j: number;
  readonly w: number;
  readonly sums: number;
  readonly batch: number;
  readonly heads: number;
  readonly length: number;
  /** The window `W` (bandwidth, at most `length − 1`), 1 … 16. */
  readonly window: number;
  readonly beta: number;
}

/**
 * The arithmetic the kernels execute per problem and window state (an FMA counts 2), counted
 * from transferChain.h's loops: the forward's two value sweeps 6 + 7; the backward's value and
 * tangent sweep twice (checkpoints, then each segment again) 12 + 12, its forward sweep's three
 * state loops 24 + 18 + 24 per pair of states (33 a state) and the bit sums 2. And the bytes each
 * state moves through the stored messages (float32 written and read once: values in the forward,
 * values and tangents in the backward).
 */
export const TRANSFER_COST = {
  forward: { flops: 13, bytes: 8 },
  backward: { flops: 59, bytes: 16 },
} as const;

/** Problem × window states of one call: `Σ_i (i + 1) · 2^W` per sequence and head. */
export function transferStates(
  a: Pick<TransferOperands, 'batch' | 'heads' | 'length' | 'window'>,
): number {
  return ((a.batch * a.heads * a.length * (a.length + 1)) / 2) * 2 ** a.window;
}

/** The transfer-matrix kernels bound to one arena. */
export interface TransferKernels {
  /**
   * w and each row's `Σ α` into sums; a problem outside the float32 kernel's range gets sums = −1
   * and is left to the caller. Returns how many were left.
   */
  transferForward(a: TransferOperands): number;
  /** gh of every row the forward took and gJ (`H × T × T`, overwritten) of those rows. */
  transferBackward(a: TransferOperands & { gw: number; gh: number; gj: number }): void;
}

/** The kernels on `memory`, or `undefined` where the backend has none (WebAssembly). */
export function createTransferKernels(
  memory: EngineMemory,
  backend?: KernelBackend,
): TransferKernels | undefined {
  const k = nativeOnlyExports(['transfer_forward', 'transfer_backward'], memory, backend);
  if (k === undefined) return undefined;
  const args = (name: string, a: TransferOperands, extra: number[]): number[] => {
    const b = engineCount(name, 'batch', a.batch);
    const hd = engineCount(name, 'heads', a.heads);
    const t = engineCount(name, 'length', a.length);
    const w = engineCount(name, 'window', a.window);
    if (w < 1 || w > 16 || w > t - 1 || !(a.beta > 0))
      throw new AttentionError(
        'ATTENTION_INVALID_ARGUMENT',
        `${name}: window ${w} must be 1 … min(16, length − 1) and beta > 0, got beta ${a.beta}`,
      );
    const arena = memory.buffer.byteLength >>> 2;
    const bhtt = b * hd * t * t;
    engineFits(name, 'h', a.h, bhtt, arena);
    engineFits(name, 'w', a.w, bhtt, arena);
    engineFits(name, 'j', a.j, hd * t * t, arena);
    engineFits(name, 'sums', a.sums, b * hd * t, arena);
    return [4 * a.h, 4 * a.j, 4 * a.w, 4 * a.sums, b, hd, t, w, a.beta, ...extra];
  };
  const failed = (name: string, code: number | undefined): number => {
    if (code === undefined || code < 0)
      throw new AttentionError(
        'ATTENTION_OUT_OF_MEMORY',
        `${name}: the kernel could not allocate its messages`,
      );
    return code;
  };
  return {
    transferForward(a) {
      return failed('transferForward', k.transfer_forward!(...args('transferForward', a, [])));
    },
    transferBackward(a) {
      const arena = memory.buffer.byteLength >>> 2;
      const bhtt = a.batch * a.heads * a.length ** 2;
      engineFits('transferBackward', 'gw', a.gw, bhtt, arena);
      engineFits('transferBackward', 'gh', a.gh, bhtt, arena);
      engineFits('transferBackward', 'gj', a.gj, a.heads * a.length ** 2, arena);
      const extra = [4 * a.gw, 4 * a.gh, 4 * a.gj];
      failed('transferBackward', k.transfer_backward!(...args('transferBackward', a, extra)));
    },
  };
}
