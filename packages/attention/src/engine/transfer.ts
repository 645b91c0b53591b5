/**
 * The engine's transfer-matrix kernels over the arena: Boltzmann attention's causal op with exact
 * banded inference for every problem of a pass in one call, and its backward. Natively
 * kernels/transfer/transfer.c (which allocates its own messages); on WebAssembly the same
 * algorithm in f32x4 (kernels/transfer/transferWat.mjs), which works in a scratch region of the
 * arena (`transferScratchFloats`; the pass's activations hold one, layout.ts). Offsets in floats.
 */
import { AttentionError } from '../core/errors.js';
import { engineCount, engineFits, instantiateEngineModule } from './arena.js';
import type { EngineMemory } from './arena.js';
import { wasmBase64 as sharedBase64 } from './kernels/transfer/transferSharedWasm.generated.js';
import { wasmBase64 } from './kernels/transfer/transferWasm.generated.js';
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
  /** The scratch region of the WebAssembly kernels (`scratchFloats` floats at `scratch`). */
  readonly scratch: number;
  readonly scratchFloats: number;
}

/** The VJP's budgets (transferWat.mjs's): the whole backward sweep of a lane group while it fits the first. */
const WHOLE_BYTES = 4 << 20;
const SEGMENT_BYTES = 192 << 10;

/**
 * The bytes the WebAssembly kernels' scratch takes at length T and window W (transferWat.mjs
 * $layout, both kernels, plus 16 to align its start): per lane group 16-byte vectors (two
 * field factors, directions, read-outs, band sums, messages), the coupling table (2^W floats a
 * position and sign), the coupling bounds (4T + 33 float64s), and the messages: the forward's backward sweep, or the VJP's, whole or in
 * segments from checkpoints.
 */
function scratchBytes(t: number, w: number): number {
  const states = 2 ** w;
  const message = 16 * states;
  const fixed =
    64 +
    16 * (8 * t + t * w + 1 + w) +
    5 * message +
    (t * message) / 2 +
    16 * Math.ceil((4 * t + 33) / 2);
  const pair = 2 * message;
  const k = pair * t <= WHOLE_BYTES ? t : Math.max(2, Math.floor(SEGMENT_BYTES / pair));
  const segments = Math.ceil(t / k);
  const vjp = 4 * message + segments * (pair + 64) + k * pair;
  return 16 + fixed + 16 * states + Math.max(t * message, vjp);
}

/** The floats of scratch the WebAssembly kernels need at `length` and `window`. */
export function transferScratchFloats(length: number, window: number): number {
  return Math.ceil(scratchBytes(length, window) / 4);
}

/** A pass's scratch: at most 8 MB, unless window 1 needs more. */
const SCRATCH_BUDGET_FLOATS = 2 << 20;

/**
 * The scratch floats a pass of `length` sets aside (layout.ts), the same on every thread: enough
 * for the widest window within SCRATCH_BUDGET_FLOATS (at most 16 and length − 1; at least 1).
 */
export function transferPassScratchFloats(length: number): number {
  let w = 1;
  while (
    w < Math.min(16, length - 1) &&
    transferScratchFloats(length, w + 1) <= SCRATCH_BUDGET_FLOATS
  )
    w++;
  return transferScratchFloats(length, w);
}

/**
 * The arithmetic the kernels execute per problem and window state (an FMA counts 2), counted
 * from the loops of transferChain.h, transferVjp.h and transferVjpForward.h: the forward's two
 * value sweeps 6 + 7; the backward's value and tangent sweep 12 (once while a lane group's sweep
 * is kept whole, as at every window and length the benchmarks run; segments recompute it, 12
 * more), its forward sweep's three state loops 24 + 18 + 24 per pair of states (33 a state) and
 * the bit sums 2. And the bytes each state moves through the stored messages (float32 written and
 * read once: values in the forward, values and tangents in the backward).
 */
export const TRANSFER_COST = {
  forward: { flops: 13, bytes: 8 },
  backward: { flops: 47, bytes: 16 },
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
   * w and each row's `Σ α` into sums (natively −2 for a row the float64 pass took, whose backward
   * recomputes it); a problem outside the kernels' range gets sums = −1 and is left to the
   * caller. Returns how many were left.
   */
  transferForward(a: TransferOperands): number;
  /** gh of every row the forward took and gJ (`H × T × T`, overwritten) of those rows. */
  transferBackward(a: TransferOperands & { gw: number; gh: number; gj: number }): void;
  /** The scratch floats a call at `length` and `window` needs (0 natively: those kernels allocate their own). */
  scratchFloats(length: number, window: number): number;
}

interface TransferExports {
  transfer_forward(...args: number[]): number;
  transfer_backward(...args: number[]): number;
}

/** The kernels on `memory`: the native ones with a native `backend`, else the WebAssembly ones. */
export function createTransferKernels(
  memory: EngineMemory,
  backend?: KernelBackend,
): TransferKernels {
  const variants = { plain: wasmBase64, shared: sharedBase64 };
  const k = instantiateEngineModule(variants, memory, 'transfer', backend) as TransferExports;
  const native = backend?.addon !== undefined;
  const scratchFloats = (length: number, window: number) =>
    native ? 0 : transferScratchFloats(length, window);
  /** The checked arguments both kernels start with, and the scratch region's two at the end. */
  const args = (name: string, a: TransferOperands) => {
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
    engineFits(name, 'scratch', a.scratch, a.scratchFloats, arena);
    if (a.scratchFloats < scratchFloats(t, w))
      throw new AttentionError(
        'ATTENTION_SHAPE_MISMATCH',
        `${name}: the scratch (${a.scratchFloats} floats) is smaller than the ${scratchFloats(t, w)} length ${t} and window ${w} need`,
      );
    return {
      head: [4 * a.h, 4 * a.j, 4 * a.w, 4 * a.sums, b, hd, t, w, a.beta],
      scratch: [4 * a.scratch, 4 * a.scratchFloats],
    };
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
    scratchFloats,
    transferForward(a) {
      const { head, scratch } = args('transferForward', a);
      return failed('transferForward', k.transfer_forward(...head, ...scratch));
    },
    transferBackward(a) {
      const { head, scratch } = args('transferBackward', a);
      const arena = memory.buffer.byteLength >>> 2;
      const bhtt = a.batch * a.heads * a.length ** 2;
      engineFits('transferBackward', 'gw', a.gw, bhtt, arena);
      engineFits('transferBackward', 'gh', a.gh, bhtt, arena);
      engineFits('transferBackward', 'gj', a.gj, a.heads * a.length ** 2, arena);
      const grads = [4 * a.gw, 4 * a.gh, 4 * a.gj, 0];
      failed('transferBackward', k.transfer_backward(...head, ...grads, ...scratch));
    },
  };
}
