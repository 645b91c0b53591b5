/**
 * The arithmetic peak of WebAssembly SIMD on one core of this machine: the roofline that no wasm
 * kernel (tfjs-backend-wasm's XNNPACK included) can beat. A loop of 16 independent chains,
 * each `a = a · y + x` in `f32x4` (Node 20's wasm has no fused multiply-add: relaxed SIMD is
 * behind a flag), so every iteration is 16 multiplies and 16 adds of 4 lanes: 128 flops, enough
 * independent work to hide the latencies. Also the same in `f64x2` (64 flops). Best of 7 runs of 2·10^7 iterations; `--iterations N` to change.
 *
 *   npx tsx packages/ising-core/bench/wasmPeak.bench.ts
 */
// @ts-expect-error -- a plain .mjs build script without type declarations
import { compileWat } from '../../../tools/wasm/wasmSource.mjs';
import { option } from './benchArgs.js';
import { parseScriptArgs } from '../../../tools/scriptArgs.js';

parseScriptArgs('wasmPeak.bench.ts [--iterations VALUE]', { iterations: 'string' });

const ACC = 16;

function kernel(type: 'f32x4' | 'f64x2'): string {
  const locals = Array.from({ length: ACC }, (_, i) => `(local $a${i} v128)`).join(' ');
  const init = Array.from(
    { length: ACC },
    (_, i) => `(local.set $a${i} (${type}.splat (${type.slice(0, 3)}.const ${i + 1})))`,
  ).join('\n');
  const body = Array.from(
    { length: ACC },
    (_, i) =>
      `(local.set $a${i} (${type}.add (${type}.mul (local.get $a${i}) (local.get $y)) (local.get $x)))`,
  ).join('\n');
  const sum = Array.from(
    { length: ACC - 1 },
    (_, i) => `(local.set $a0 (${type}.add (local.get $a0) (local.get $a${i + 1})))`,
  ).join('\n');
  return `(module
  (func (export "run") (param $n i32) (result f64) (local $y v128) (local $x v128) ${locals}
    (local.set $y (${type}.splat (${type.slice(0, 3)}.add (${type.slice(0, 3)}.const 0.5) (${type.slice(0, 3)}.convert_i32_s (i32.and (local.get $n) (i32.const 0))))))
    (local.set $x (${type}.splat (${type.slice(0, 3)}.const 0.25)))
    ${init}
    (loop $l
      ${body}
      (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
    ${sum}
    ${type === 'f32x4' ? '(f64.promote_f32 (f32x4.extract_lane 0 (local.get $a0)))' : '(f64x2.extract_lane 0 (local.get $a0))'}))`;
}

/** The one WebAssembly JS API call used (the workspace's type libraries do not declare it). */
const wasm = (globalThis as { WebAssembly?: unknown }).WebAssembly as {
  instantiate(bytes: ArrayBuffer): Promise<{ instance: { exports: Record<string, unknown> } }>;
};
const iterations = Number(option('iterations', '20000000'));
for (const type of ['f32x4', 'f64x2'] as const) {
  const bytes = await compileWat(`peak-${type}.wat`, kernel(type));
  const { instance } = await wasm.instantiate(bytes);
  const run = instance.exports.run as (n: number) => number;
  run(1000);
  let best = Infinity;
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    run(iterations);
    best = Math.min(best, performance.now() - t0);
  }
  const flops = iterations * ACC * 2 * (type === 'f32x4' ? 4 : 2);
  console.log(
    `${type}: ${(flops / best / 1e6).toFixed(1)} GFLOP/s on one core (${ACC} independent chains of mul + add, best of 7)`,
  );
}
