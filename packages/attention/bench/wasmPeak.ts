// The roofline of the speed scripts (scripts/benchEngineGemm.ts, scripts/benchEngine.ts): the
// one-core f32x4 peak measured now, and the best-of-5 timing they both use.
// @ts-expect-error -- a plain .mjs build script without type declarations
import { compileWat } from '../../../tools/wasmSource.mjs';

/** Seconds per call of `run`: repeated until a batch takes ≥ 40 ms, best of 5 batches. */
export function time(run: () => void): number {
  run();
  let reps = 1;
  for (;;) {
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) run();
    if (performance.now() - t0 >= 40) break;
    reps *= 2;
  }
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) run();
    best = Math.min(best, (performance.now() - t0) / reps);
  }
  return best / 1e3;
}

/**
 * The f32x4 peak: 12 independent chains of mul + add, 96 flops a turn. wasmPeak.bench.ts runs 16,
 * which with the two operands needs 18 of x64's 16 SIMD registers: V8 spills, and on this
 * machine it reads 25–30 GFLOP/s where 8 or 12 chains reach 50 (the same with FMA).
 */
function peakWat(): string {
  const chains = Array.from({ length: 12 }, (_, i) => i);
  const locals = chains.map((i) => `(local $a${i} v128)`).join(' ');
  const init = chains.map((i) => `(local.set $a${i} (f32x4.splat (f32.const ${i + 1})))`);
  const body = chains.map(
    (i) =>
      `(local.set $a${i} (f32x4.add (f32x4.mul (local.get $a${i}) (local.get $y)) (local.get $x)))`,
  );
  const sum = chains
    .slice(1)
    .map((i) => `(local.set $a0 (f32x4.add (local.get $a0) (local.get $a${i})))`);
  return `(module (func (export "run") (param $n i32) (result f32) (local $y v128) (local $x v128) ${locals}
    (local.set $y (f32x4.splat (f32.add (f32.const 0.5) (f32.convert_i32_s (i32.and (local.get $n) (i32.const 0))))))
    (local.set $x (f32x4.splat (f32.const 0.25)))
    ${init.join(' ')}
    (loop $l ${body.join(' ')} (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
    ${sum.join(' ')} (f32x4.extract_lane 0 (local.get $a0))))`;
}
const wasm = (globalThis as { WebAssembly?: unknown }).WebAssembly as {
  instantiate(bytes: ArrayBuffer): Promise<{ instance: { exports: Record<string, unknown> } }>;
};
let peakRun: ((n: number) => number) | undefined;

/** GFLOP/s of the one-core f32x4 peak kernel now (10^5 turns a call, best of 5). */
export async function peakGflops(): Promise<number> {
  if (peakRun === undefined) {
    const module = await wasm.instantiate(await compileWat('peak.wat', peakWat()));
    peakRun = module.instance.exports.run as (n: number) => number;
  }
  const run = peakRun;
  return (1e5 * 96) / time(() => run(1e5)) / 1e9;
}
