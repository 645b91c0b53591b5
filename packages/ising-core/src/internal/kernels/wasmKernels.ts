/**
 * The split kernels in WebAssembly SIMD (wasm/split/split.wat), with the JavaScript loops of
 * splitKernels.ts as the fallback and the reference they are tested against (bit-identical).
 *
 * The wasm code can only read its own memory, so the kernel scratch tables of one thread live
 * in that memory: {@link wasmArena} hands out views over it. The module is instantiated
 * synchronously on first use, once per thread (each worker has its own instance and memory).
 */
import { splitBackward, splitForward } from './splitKernels.js';
import { wasmBase64 } from './wasm/split/splitWasm.generated.js';
import { instantiateWasm } from './wasmInstance.js';
import type { WasmMemory } from './wasmInstance.js';

interface SplitExports {
  readonly memory: WasmMemory;
  forward(
    E: number,
    L: number,
    H: number,
    m: number,
    highBits: number,
    col: number,
    row: number,
  ): void;
  backward(
    E: number,
    A: number,
    B: number,
    a: number,
    b: number,
    m: number,
    highBits: number,
    acc: number,
    col: number,
    row: number,
  ): void;
}

let exports: SplitExports | null | undefined;
let enabled = true;

function module(): SplitExports | null {
  if (!enabled) return null;
  if (exports === undefined) exports = instantiateWasm<SplitExports>(wasmBase64); // null: the JavaScript kernels run
  return exports;
}

/**
 * Turns the wasm kernels off (`false`) or back on for this thread, e.g. to compare them with the
 * JavaScript kernels in one benchmark run. Scratch allocated afterwards follows the setting.
 *
 * @returns whether the wasm kernels are now in use (false if this engine cannot run them).
 */
export function useWasmKernels(on: boolean): boolean {
  enabled = on;
  return module() !== null;
}

/** True when the wasm kernels are on and this engine runs them. */
export function wasmArenaInUse(): boolean {
  return module() !== null;
}

/**
 * `Float64Array`s of the given lengths laid out one after another in the wasm memory (grown as
 * needed), or `undefined` when the wasm kernels are off. Growing the memory detaches every view
 * handed out before, so a thread keeps one arena at a time (the kernels' scratch).
 */
export function wasmArena(lengths: readonly number[]): Float64Array[] | undefined {
  const mod = module();
  if (mod === null) return undefined;
  const bytes = lengths.reduce((t, n) => t + 8 * n, 0);
  const have = mod.memory.buffer.byteLength;
  if (bytes > have) mod.memory.grow(Math.ceil((bytes - have) / 65536));
  const views: Float64Array[] = [];
  let offset = 0;
  for (const n of lengths) {
    views.push(new Float64Array(mod.memory.buffer, offset, n));
    offset += 8 * n;
  }
  return views;
}

/** The module when every array lives in its current memory and the split has ≥ 2 rows and columns. */
function usable(arrays: readonly Float64Array[], m: number, highBits: number): SplitExports | null {
  const mod = module();
  if (mod === null || m < 1 || highBits < 1) return null;
  const buffer = mod.memory.buffer;
  for (const a of arrays) if (a.buffer !== buffer) return null;
  return mod;
}

/** {@link splitForward}, in wasm when the tables are arena views. */
export function splitForwardFast(
  E: Float64Array,
  L: Float64Array,
  H: Float64Array,
  m: number,
  highBits: number,
  col: Float64Array,
  row: Float64Array,
): void {
  const mod = usable([E, L, H, col, row], m, highBits);
  if (mod === null) splitForward(E, L, H, m, highBits, col, row);
  else
    mod.forward(
      E.byteOffset,
      L.byteOffset,
      H.byteOffset,
      m,
      highBits,
      col.byteOffset,
      row.byteOffset,
    );
}

/** {@link splitBackward}, in wasm when the tables are arena views. */
export function splitBackwardFast(...args: Parameters<typeof splitBackward>): void {
  const [E, A, B, a, b, m, highBits, acc, col, row] = args;
  const mod = usable([E, A, B, a, b, acc, col, row], m, highBits);
  if (mod === null) splitBackward(...args);
  else
    mod.backward(
      E.byteOffset,
      A.byteOffset,
      B.byteOffset,
      a.byteOffset,
      b.byteOffset,
      m,
      highBits,
      acc.byteOffset,
      col.byteOffset,
      row.byteOffset,
    );
}
