/**
 * The batched linear-domain transfer kernel in WebAssembly SIMD (wasm/transfer.wat), with
 * `linearForward` / `linearVjp` (transferLinear.ts, linearVjp.ts) as the fallback and the
 * reference it is tested against (equal to rounding: the SIMD lanes sum in a different order).
 * The module has its own instance and memory (one per thread), so its buffers never collide with
 * the split kernels' arena.
 */
import type { BandTables } from './transferLinear.js';
import { wasmBase64 } from './wasm/transferWasm.generated.js';
import { instantiateWasm } from './wasmInstance.js';
import type { WasmMemory } from './wasmInstance.js';

interface TransferExports {
  readonly memory: WasmMemory;
  forward(...pointers: number[]): void;
  vjp(...pointers: number[]): void;
}

let instance: TransferExports | null | undefined;
let enabled = true;

function module(): TransferExports | null {
  if (!enabled) return null;
  if (instance === undefined) {
    instance = instantiateWasm<TransferExports>(wasmBase64); // null: the JavaScript kernel runs
  }
  return instance;
}

/** Turns the wasm transfer kernel off (`false`) or on for this thread; returns whether it is in use. */
export function useWasmTransfer(on: boolean): boolean {
  enabled = on;
  return module() !== null;
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
  ): void;
  /** Adds the accumulated sums into `acc` (`length · 2^W`) and `acc0` (`length`), the layout of `linearVjp`. */
  collect(acc: Float64Array, acc0: Float64Array): void;
}

/** Views over the wasm memory of the given lengths (grown as needed), the first filled with the tables in SIMD order. */
function layout(
  mod: TransferExports,
  tables: BandTables,
  lengths: readonly number[],
): { views: Float64Array[]; offsets: number[] } {
  const bytes = lengths.reduce((t, k) => t + 8 * k, 0);
  const have = mod.memory.buffer.byteLength;
  if (bytes > have) mod.memory.grow(Math.ceil((bytes - have) / 65536));
  const views: Float64Array[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const k of lengths) {
    views.push(new Float64Array(mod.memory.buffer, offset, k));
    offsets.push(offset);
    offset += 8 * k;
  }
  // SIMD order: simd[8Q + 2c + l] = table[8Q + 4l + c] (c: k₋ even, k₋ odd, k₊ even, k₊ odd; l: pair 2Q + l).
  const { table } = tables;
  const tbl = views[0]!;
  for (let base = 0; base < table.length; base += 8) {
    for (let c = 0; c < 4; c++) {
      tbl[base + 2 * c] = table[base + c]!;
      tbl[base + 2 * c + 1] = table[base + 4 + c]!;
    }
  }
  return { views, offsets };
}

/** The forward pass of a batch's linear-domain problems in wasm. */
export type WasmTransferForward = (
  fields: Float64Array,
  fieldsAt: number,
  n: number,
  magnetization: Float64Array,
  magAt: number,
) => number;

/**
 * `linearForward` in wasm for the batch of `tables` (`undefined` when wasm SIMD is unavailable or
 * `W < 2`); returns `log Z`. Valid until the next layout on this thread.
 */
export function wasmTransferForward(tables: BandTables): WasmTransferForward | undefined {
  const mod = module();
  const { window: W, length: n, beta } = tables;
  if (mod === null || W < 2) return undefined;
  const S = 1 << W;
  const { views, offsets } = layout(mod, tables, [n * 2 * S, n * S, S, S, n, n, n + 1]);
  const [, , , , E, mag, sig] = views as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  const [pTbl, pBack, pA, pNx, pE, pMag, pSig] = offsets as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return (fields, fieldsAt, len, magnetization, magAt) => {
    for (let t = 0; t < len; t++) E[t] = Math.exp(beta * fields[fieldsAt + t]!);
    mod.forward(len, W, pTbl, pBack, pA, pNx, pE, pMag, pSig);
    let logZ = -W * Math.LN2;
    for (let t = 0; t <= len; t++) logZ += Math.log(sig[t]!);
    for (let t = 0; t < len; t++) magnetization[magAt + t] = mag[t]!;
    return logZ;
  };
}

/**
 * Lays out the tables (in the SIMD order) and the buffers of a batch in the wasm memory, or
 * `undefined` when wasm SIMD is unavailable or `W < 2`. Valid until the next layout on this thread.
 */
export function wasmTransferVjp(tables: BandTables): WasmTransferVjp | undefined {
  const mod = module();
  const { window: W, length: n, beta } = tables;
  if (mod === null || W < 2) return undefined;
  const S = 1 << W;
  const { views, offsets } = layout(mod, tables, [
    n * 2 * S,
    (n + 1) * S,
    (n + 1) * S,
    S,
    S,
    S,
    S,
    n * S,
    n,
    n,
    n,
    n,
    n,
    n,
  ]);
  const [, , , , , , , acc, acc0, , , E, G, fg] = views as [Float64Array, ...Float64Array[]];
  acc!.fill(0);
  acc0!.fill(0);
  const [pTbl, pBack, pBackT, pA, pAT, pNx, pNxT, pAcc, pAcc0, pSum, pShift, pE, pG, pFg] =
    offsets as [number, ...number[]];
  return {
    run(fields, fieldsAt, grad, gradAt, len, fieldGrad, fgAt) {
      for (let t = 0; t < len; t++) {
        E![t] = Math.exp(beta * fields[fieldsAt + t]!);
        G![t] = beta * grad[gradAt + t]!;
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
      );
      for (let t = 0; t < len; t++) fieldGrad[fgAt + t] = fg![t]!;
    },
    collect(accOut, acc0Out) {
      for (let i = 0; i < n * S; i++) accOut[i]! += acc![i]!;
      for (let t = 0; t < n; t++) acc0Out[t]! += acc0![t]!;
    },
  };
}
