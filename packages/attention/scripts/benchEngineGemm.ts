/**
 * Achieved GFLOP/s of the engine's GEMM kernels (src/engine/gemm.ts) per layout on the models'
 * own shapes, beside the one-core wasm SIMD peak (ising-core's bench/wasmPeak.bench.ts, run first
 * in this same script, and a 12-chain f32x4 kernel timed again right before each row, since the
 * machine is shared: the row's percentage is of that neighbouring peak) and tfjs-backend-wasm's matMul
 * on the same shapes. One core, best of 5 timings of ≥ 40 ms each; the load average is printed
 * before and after.
 *
 *   cd packages/attention && npx tsx --conditions=@boltzmann/source scripts/benchEngineGemm.ts [--no-tfjs]
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { createArena, createGemmKernels } from '../src/engine/gemm.js';
import { type Shape, SHAPES } from '../bench/gemmShapes.js';
import { initBackend } from '../src/index.js';
import { peakGflops, time } from '../bench/wasmPeak.js';
import { parseScriptArgs } from '../bench/scriptArgs.js';

const args = parseScriptArgs('benchEngineGemm.ts [--no-tfjs]', { 'no-tfjs': 'boolean' });

/** Best-of-5 seconds per call of `run`, each timing ≥ 40 ms of repeated calls. */

const engine = createGemmKernels(createArena(8 << 20));
/** The engine's call for `s`: operands laid out one after another, random values. */
function engineRun(s: Shape): () => void {
  const batch = s.batch ?? 1;
  const mem = new Float32Array(engine.memory.buffer);
  const [a, b] = [0, batch * s.m * s.k];
  const c = b + batch * s.k * s.n;
  const scratch = c + batch * s.m * s.n;
  for (let i = 0; i < scratch + batch * s.k * s.n; i++) mem[i] = Math.sin(i) * 0.5;
  const args = { layout: s.layout, m: s.m, n: s.n, k: s.k, a, b, c, batch, scratch };
  return () => engine.gemm(args);
}

/** tfjs's matMul for `s` (transposeA/transposeB, a 3-D batched product when batch > 1). */
function tfjsRun(s: Shape): () => void {
  const batch = s.batch ?? 1;
  const shapeOf = (r: number, c: number) => (batch > 1 ? [batch, r, c] : [r, c]);
  const a = tf.randomNormal(s.layout === 'tn' ? shapeOf(s.k, s.m) : shapeOf(s.m, s.k));
  const b = tf.randomNormal(s.layout === 'nt' ? shapeOf(s.n, s.k) : shapeOf(s.k, s.n));
  return () =>
    tf.matMul(a as tf.Tensor2D, b as tf.Tensor2D, s.layout === 'tn', s.layout === 'nt').dispose();
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`load average before: ${load()}`);
const peakScript = fileURLToPath(
  new URL('../../ising-core/bench/wasmPeak.bench.ts', import.meta.url),
);
const peakText = execFileSync(process.execPath, ['--import', 'tsx', peakScript], {
  encoding: 'utf8',
});
process.stdout.write(peakText);
const withTfjs = !args['no-tfjs'] === true;
if (withTfjs) await initBackend('wasm');
console.log(
  `GEMM variant: ${engine.fma ? 'fused multiply-add (relaxed SIMD)' : 'mul + add'}\n` +
    'shape | layout | m×n×k (batch) | engine GFLOP/s | peak beside it | % of peak | tfjs-wasm GFLOP/s',
);
for (const s of SHAPES) {
  const peak = await peakGflops();
  const flops = 2 * s.m * s.n * s.k * (s.batch ?? 1);
  const ours = flops / time(engineRun(s)) / 1e9;
  const theirs = withTfjs ? (flops / time(tfjsRun(s)) / 1e9).toFixed(1) : '—';
  console.log(
    `${s.name} | ${s.layout} | ${s.m}×${s.n}×${s.k} (${s.batch ?? 1}) | ${ours.toFixed(1)} | ${peak.toFixed(1)} | ${((100 * ours) / peak).toFixed(0)} % | ${theirs}`,
  );
}
console.log(`load average after: ${load()}`);
