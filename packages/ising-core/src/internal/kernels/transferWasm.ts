/**
 * The batched linear-domain transfer kernel in WebAssembly SIMD: float64 (wasm/transfer/transfer.wat,
 * two window-state pairs per vector) and float32 (four; transfer32.wat beside it, derived from
 * transfer.wat's text by transferFloat32.mjs, so the algorithm has one home), with `linearForward` /
 * `linearVjp` (transferLinear.ts, linearVjp.ts) as the fallback and the reference they are tested
 * against (float64: equal to rounding, the SIMD lanes sum in a different order; float32: to float32
 * rounding). Each module has its own instance and memory (one per thread), so its buffers never
 * collide with the split kernels' arena.
 */
import type { BandTables } from './transferLinear.js';
import { centeredDirection } from './centeredDirection.js';
import { wasmBase64 as base64Float32 } from './wasm/transfer/transfer32Wasm.generated.js';
import { wasmBase64 as base64Float64 } from './wasm/transfer/transferWasm.generated.js';
import { instantiateWasm } from './wasmInstance.js';
import type { WasmMemory } from './wasmInstance.js';

/** The number type of a transfer kernel's messages: `float64` (exact to rounding) or `float32` (twice the SIMD lanes). */
export type TransferPrecision = 'float64' | 'float32';

interface TransferExports {
  readonly memory: WasmMemory;
  forward(...pointers: number[]): void;
  vjp(...args: number[]): void;
}

const instances: Record<TransferPrecision, TransferExports | null | undefined> = {
  float64: undefined,
  float32: undefined,
};
let enabled = true;

/** Smallest window each kernel takes (its half-message must fill one vector). */
const MIN_WINDOW: Record<TransferPrecision, number> = { float64: 2, float32: 3 };

function module(precision: TransferPrecision): TransferExports | null {
  if (!enabled) return null;
  if (instances[precision] === undefined) {
    // null: the JavaScript kernel runs.
    const base64 = precision === 'float32' ? base64Float32 : base64Float64;
    instances[precision] = instantiateWasm<TransferExports>(base64);
  }
  return instances[precision];
}

/** The kernel of `precision` for `tables`, or null when wasm SIMD is off or unavailable, or the window is too small. */
function moduleFor(tables: BandTables, precision: TransferPrecision): TransferExports | null {
  return tables.window < MIN_WINDOW[precision] ? null : module(precision);
}

/** Turns the wasm transfer kernels off (`false`) or on for this thread; returns whether they are in use. */
export function useWasmTransfer(on: boolean): boolean {
  enabled = on;
  return module('float64') !== null && module('float32') !== null;
}

/** The VJP of a batch's linear-domain problems in wasm: one layout per batch, then one call per problem. */
export interface WasmTransferVjp {
  /** As `linearVjp`, accumulating the band-gradient sums inside the wasm memory. */
  run(
    fields: Float64Array,
    fieldsAt: number,
    grad: Float64Array,
    gradAt: number,
    n: number,
    fieldGrad: Float64Array,
    fgAt: number,
    center?: Float64Array,
  ): void;
  /** Adds the accumulated sums into `acc` (`length · 2^W`) and `acc0` (`length`), the layout of `linearVjp`. */
  collect(acc: Float64Array, acc0: Float64Array): void;
}

/** A buffer of the layout: its length, and whether it holds messages (the kernel's precision) or float64 scalars. */
type Buffer = readonly [length: number, kind: 'messages' | 'scalars'];
type View = Float32Array | Float64Array;

/** Each batch's tables in SIMD order, per precision: built once, copied in by every layout (forward and VJP). */
const simdTables = new WeakMap<BandTables, Partial<Record<TransferPrecision, View>>>();

/**
 * `table` in SIMD order: with L lanes per vector (2 for float64, 4 for float32),
 * `simd[4L·G + L·c + l] = table[4L·G + 4l + c]` (c: k₋ even, k₋ odd, k₊ even, k₊ odd; l: pair
 * L·G + l). A leaf of one array type, so V8 optimizes it whole (its loop inside the cache lookup
 * below was optimized on stack and thrown away at the loop's exit on every call).
 */
function simdOrder(table: Float64Array, L: number): Float64Array {
  const out = new Float64Array(table.length);
  for (let base = 0; base < table.length; base += 4 * L) {
    for (let c = 0; c < 4; c++)
      for (let l = 0; l < L; l++) out[base + L * c + l] = table[base + 4 * l + c]!;
  }
  return out;
}

/** `tables.table` in the SIMD order of `precision` (see {@link simdOrder}), cached per batch. */
function simdTable(tables: BandTables, precision: TransferPrecision): View {
  const cached = simdTables.get(tables) ?? {};
  const hit = cached[precision];
  if (hit !== undefined) return hit;
  const order = simdOrder(tables.table, precision === 'float32' ? 4 : 2);
  const out = precision === 'float32' ? new Float32Array(order) : order;
  cached[precision] = out;
  simdTables.set(tables, cached);
  return out;
}

/** Views over the wasm memory (grown as needed; every buffer 16-byte aligned), the first holding the tables in SIMD order. */
function layout(
  mod: TransferExports,
  tables: BandTables,
  buffers: readonly Buffer[],
  precision: TransferPrecision,
): { views: View[]; offsets: number[] } {
  const message = precision === 'float32' ? 4 : 8;
  const bytesOf = ([k, kind]: Buffer): number =>
    Math.ceil(((kind === 'messages' ? message : 8) * k) / 16) * 16;
  const bytes = buffers.reduce((t, b) => t + bytesOf(b), 0);
  const have = mod.memory.buffer.byteLength;
  if (bytes > have) mod.memory.grow(Math.ceil((bytes - have) / 65536));
  const views: View[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const b of buffers) {
    const [k, kind] = b;
    const Type = kind === 'messages' && precision === 'float32' ? Float32Array : Float64Array;
    views.push(new Type(mod.memory.buffer, offset, k));
    offsets.push(offset);
    offset += bytesOf(b);
  }
  views[0]!.set(simdTable(tables, precision));
  return { views, offsets };
}

/** The forward pass of a batch's linear-domain problems in wasm. */
export type WasmTransferForward = (
  fields: Float64Array,
  fieldsAt: number,
  n: number,
  magnetization: Float64Array,
  magAt: number,
  probabilityUp?: Float64Array,
) => number;

/**
 * `linearForward` in wasm for the batch of `tables` (`undefined` when wasm SIMD is unavailable or
 * the window is below the kernel's minimum: 2 for float64, 3 for float32); returns `log Z`. Valid
 * until the next layout on this thread.
 */
export function wasmTransferForward(
  tables: BandTables,
  precision: TransferPrecision = 'float64',
): WasmTransferForward | undefined {
  const mod = moduleFor(tables, precision);
  if (mod === null) return undefined;
  const { window: W, length: n, beta } = tables;
  const S = 1 << W;
  const { views, offsets } = layout(
    mod,
    tables,
    [
      [n * 2 * S, 'messages'],
      [n * S, 'messages'],
      [S, 'messages'],
      [S, 'messages'],
      [n, 'scalars'],
      [n, 'scalars'],
      [n, 'scalars'],
      [n + 1, 'scalars'],
    ],
    precision,
  );
  const [, , , , E, mag, up, sig] = views as [View, View, View, View, View, View, View, View];
  const [pTbl, pBack, pA, pNx, pE, pMag, pUp, pSig] = offsets as [number, ...number[]];
  return (fields, fieldsAt, len, magnetization, magAt, probabilityUp) => {
    for (let t = 0; t < len; t++) E[t] = Math.exp(beta * fields[fieldsAt + t]!);
    mod.forward(len, W, pTbl, pBack!, pA!, pNx!, pE!, pMag!, pUp!, pSig!);
    let logZ = -W * Math.LN2;
    for (let t = 0; t <= len; t++) logZ += Math.log(sig[t]!);
    for (let t = 0; t < len; t++) magnetization[magAt + t] = mag[t]!;
    if (probabilityUp !== undefined)
      for (let t = 0; t < len; t++) probabilityUp[magAt + t] = up[t]!;
    return logZ;
  };
}

/**
 * Lays out the tables (in the SIMD order) and the buffers of a batch in the wasm memory, or
 * `undefined` when wasm SIMD is unavailable or the window is below the kernel's minimum. Valid
 * until the next layout on this thread. Each problem's upstream gradient goes in divided by a
 * power of two near its largest entry and its results come out multiplied by it (the VJP is
 * linear in the gradient, and the scaling is exact): the float32 kernel then sees gradients of
 * order 1, whose tangents stay clear of its flush to zero.
 */
export function wasmTransferVjp(
  tables: BandTables,
  precision: TransferPrecision = 'float64',
): WasmTransferVjp | undefined {
  const mod = moduleFor(tables, precision);
  if (mod === null) return undefined;
  const { window: W, length: n, beta } = tables;
  const S = 1 << W;
  const messages = [n * 2 * S, (n + 1) * S, (n + 1) * S, S, S, S, S, n * S];
  const { views, offsets } = layout(
    mod,
    tables,
    [
      ...messages.map((k): Buffer => [k, 'messages']),
      ...[n, n, n, n, 2 * n, n].map((k): Buffer => [k, 'scalars']), // acc0, bsum, bshift, E, G (two a spin), fg
    ],
    precision,
  );
  const [, , , , , , , acc, acc0, , , E, G, fg] = views as [View, ...View[]];
  acc!.fill(0);
  acc0!.fill(0);
  const [pTbl, pBack, pBackT, pA, pAT, pNx, pNxT, pAcc, pAcc0, pSum, pShift, pE, pG, pFg] =
    offsets as [number, ...number[]];
  return {
    run(fields, fieldsAt, grad, gradAt, len, fieldGrad, fgAt, center) {
      // The problem's direction scaled to its largest entry, by a power of two (exact): the float32
      // kernel's tangents then stay clear of its flush to zero whatever the gradient's size.
      const { up, down } = centeredDirection(beta, grad, gradAt, len, center, gradAt);
      let peak = 0;
      for (let t = 0; t < len; t++) peak = Math.max(peak, Math.abs(up[t]!), Math.abs(down[t]!));
      const scale = peak > 0 && Number.isFinite(peak) ? 2 ** Math.ceil(Math.log2(peak)) : 1;
      for (let t = 0; t < len; t++) {
        E![t] = Math.exp(beta * fields[fieldsAt + t]!);
        G![2 * t] = up[t]! / scale;
        G![2 * t + 1] = down[t]! / scale;
      }
      mod.vjp(
        len,
        W,
        pTbl,
        pBack!,
        pBackT!,
        pA!,
        pAT!,
        pNx!,
        pNxT!,
        pAcc!,
        pAcc0!,
        pSum!,
        pShift!,
        pE!,
        pG!,
        pFg!,
        scale,
      );
      for (let t = 0; t < len; t++) fieldGrad[fgAt + t] = fg![t]! * scale;
    },
    collect(accOut, acc0Out) {
      for (let i = 0; i < n * S; i++) accOut[i]! += acc![i]!;
      for (let t = 0; t < n; t++) acc0Out[t]! += acc0![t]!;
    },
  };
}
