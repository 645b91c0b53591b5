/**
 * The engine's GEMM on the models' shapes (scripts/benchEngineGemm.ts's), native
 * (src/engine/kernels/gemm/*.c, every ISA the CPU runs: avx512, avx2, base) and wasm (gemm.wat,
 * the variant src/engine/gemm.ts picks) side by side in one run, each as a percentage of its own
 * roofline measured right before the row: the native FMA peak of that ISA (fmaPeak.c's fma_peak:
 * independent FMA chains in registers) and the f32x4 peak (bench/wasmPeak.ts). The goal of issue 40 is the widest ISA's column at
 * ≥ 75 % of its peak. Both backends run through the wrapper's own dispatch (callGemm: gemm_dot,
 * transpose, k blocks of Aᵀ·B) on the same arena. One core; every figure is the best of
 * `--batches` (default 30) timings of ≥ `--batch-ms` (default 5) ms each (bench/wasmPeak.ts's
 * `time`): on a shared machine many short batches find the moments it runs alone. Compare each
 * row's percentages (of the peak measured beside it), not its GFLOP/s across runs. The load
 * average is printed before and after.
 *
 *   cd packages/attention && npx tsx --conditions=@boltzmann/source scripts/benchNativeGemm.ts \
 *     [--isas avx512,avx2,base] [--no-wasm] [--only <substring of a row's name>]
 *     [--batches 30] [--batch-ms 5]
 */
import { loadavg } from 'node:os';
import { peakGflops, type Timing, time } from '../bench/wasmPeak.js';
import {
  callGemm,
  createArena,
  createGemmKernels,
  type GemmArgs,
  type GemmExports,
} from '../src/engine/gemm.js';
import { loadNativeAddon, type NativeKernels } from '../src/engine/native/nativeAddon.js';
import { type Shape, SHAPES } from '../bench/gemmShapes.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';

const args = parseScriptArgs(
  'benchNativeGemm.ts [--batch-ms VALUE] [--batches VALUE] [--isas VALUE] [--only VALUE] [--no-wasm]',
  { 'batch-ms': 'string', batches: 'string', isas: 'string', 'no-wasm': 'boolean', only: 'string' },
);

const ARENA_FLOATS = 8 << 20;
const TIMING: Timing = {
  batches: Number(scriptArg('batches', '30')),
  batchMs: Number(scriptArg('batch-ms', '5')),
};
const memory = createArena(ARENA_FLOATS);
const wasm = createGemmKernels(memory);

/** The native kernels of `isa` on the arena, as the GEMM wrapper calls them. */
function nativeGemm(kernels: NativeKernels): GemmExports & { fma_peak(turns: number): number } {
  const get = (name: string) => {
    const fn = kernels[name];
    if (fn === undefined) throw new Error(`the native addon has no kernel ${name}; rebuild it`);
    return fn;
  };
  const peak = get('fma_peak');
  return {
    gemm: get('gemm'),
    gemm_narrow: get('gemm_narrow'),
    gemm_dot: get('gemm_dot'),
    transpose: get('transpose'),
    fma_peak: (turns) => peak(turns) ?? 0,
  };
}

/** GFLOP/s of one ISA's FMA peak now: 10^5 turns a call, timed as every row is. */
function nativePeak(kernels: ReturnType<typeof nativeGemm>): number {
  const flopsPerTurn = kernels.fma_peak(0);
  return (1e5 * flopsPerTurn) / time(() => kernels.fma_peak(1e5), TIMING) / 1e9;
}

/** The arguments of `s`: operands laid out one after another, random values written once. */
function argsOf(s: Shape): GemmArgs {
  const batch = s.batch ?? 1;
  const view = new Float32Array(memory.buffer);
  const [a, b] = [0, batch * s.m * s.k];
  const c = b + batch * s.k * s.n;
  const scratch = c + batch * s.m * s.n;
  for (let i = 0; i < scratch + batch * s.k * s.n; i++) view[i] = Math.sin(i) * 0.5;
  return { layout: s.layout, m: s.m, n: s.n, k: s.k, a, b, c, batch, scratch };
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const loaded = loadNativeAddon();
if (loaded.addon === undefined) {
  console.error(`the native addon did not load: ${loaded.reason}`);
  process.exit(1);
}
const addon = loaded.addon;
const wanted = scriptArg('isas')?.split(',');
const isas = addon.isas().filter((isa) => wanted === undefined || wanted.includes(isa));
const natives = isas.map(
  (isa) => [isa, nativeGemm(addon.bind(new Uint8Array(memory.buffer), isa))] as const,
);
const withWasm = !args['no-wasm'] === true;
const only = scriptArg('only');

console.log(`load average before: ${load()}`);
for (const [isa, kernels] of natives)
  console.log(
    `native ${isa}: ${kernels.fma_peak(0) / 2} multiply-adds a turn of fma_peak, peak now ${nativePeak(kernels).toFixed(1)} GFLOP/s`,
  );
if (withWasm)
  console.log(
    `wasm (${wasm.fma ? 'fused multiply-add, relaxed SIMD' : 'mul + add'}): f32x4 peak now ${(await peakGflops(TIMING)).toFixed(1)} GFLOP/s`,
  );
const columns = [
  ...isas.map((isa) => `${isa} GFLOP/s (% of its peak)`),
  ...(withWasm ? ['wasm GFLOP/s (% of f32x4 peak, % of widest native peak)'] : []),
];
console.log(`shape | layout | m×n×k (batch) | ${columns.join(' | ')}`);

/** Per backend: the rows' flops and seconds, for the whole step's figure. */
const totals = new Map<string, { flops: number; seconds: number; peakSeconds: number }>();
function add(backend: string, flops: number, seconds: number, peak: number): void {
  const t = totals.get(backend) ?? { flops: 0, seconds: 0, peakSeconds: 0 };
  totals.set(backend, {
    flops: t.flops + flops,
    seconds: t.seconds + seconds,
    peakSeconds: t.peakSeconds + flops / (peak * 1e9),
  });
}

for (const s of SHAPES) {
  if (only !== undefined && !s.name.includes(only)) continue;
  const args = argsOf(s);
  const flops = 2 * s.m * s.n * s.k * (s.batch ?? 1);
  const cells: string[] = [];
  let widest = 0;
  for (const [isa, kernels] of natives) {
    const peak = nativePeak(kernels);
    if (widest === 0) widest = peak;
    const seconds = time(() => callGemm(kernels, args, ARENA_FLOATS), TIMING);
    const gflops = flops / seconds / 1e9;
    add(isa, flops, seconds, peak);
    cells.push(`${gflops.toFixed(1)} (${((100 * gflops) / peak).toFixed(0)} %)`);
  }
  if (withWasm) {
    const peak = await peakGflops(TIMING);
    const seconds = time(() => wasm.gemm(args), TIMING);
    const gflops = flops / seconds / 1e9;
    add('wasm', flops, seconds, peak);
    const ofWidest = widest > 0 ? `, ${((100 * gflops) / widest).toFixed(0)} %` : '';
    cells.push(`${gflops.toFixed(1)} (${((100 * gflops) / peak).toFixed(0)} %${ofWidest})`);
  }
  console.log(
    `${s.name} | ${s.layout} | ${s.m}×${s.n}×${s.k} (${s.batch ?? 1}) | ${cells.join(' | ')}`,
  );
}
// The rows as one step: Σ flops / Σ seconds, against the time the same flops take at the peaks
// measured beside each row.
for (const [backend, t] of totals)
  console.log(
    `all rows, ${backend}: ${(t.flops / t.seconds / 1e9).toFixed(1)} GFLOP/s, ${((100 * t.peakSeconds) / t.seconds).toFixed(0)} % of its peak`,
  );
console.log(`load average after: ${load()}`);
