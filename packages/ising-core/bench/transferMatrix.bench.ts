/**
 * Benchmark of the transfer-matrix sampler (`estimateTransferMatrix`) on a causal batch: median
 * wall time of the forward pass, of the VJP, and of both, for batch 12 at lengths T and
 * bandwidths w. Query i of a sequence is its own chain of i + 1 spins, so the work is
 * `batch · Σ_i (i + 1) = batch · T (T + 1) / 2` positions of `2^w` window states each; "ns/state"
 * divides the time by that count (`batch · T (T + 1) / 2 · 2^w`).
 * Fields ~ N(0, 1), banded couplings ~ 0.3 N(0, 1), β = 1 (the linear-domain path).
 * Run with `npx tsx --conditions=@boltzmann/source packages/ising-core/bench/transferMatrix.bench.ts`
 * (from the workspace root). Options: `--lengths 16,32,64,128,256 --widths 4,8 --batch 12
 * --repeats 5 --budget 20000 --threads 2 --kernel wasm` (a configuration whose first run takes more
 * than `budget / repeats` ms runs fewer repeats, at least one; `--threads 1` keeps the work on the
 * calling thread; `--kernel js` runs the JavaScript kernel instead of the wasm SIMD one). With
 * `--threads 2` the sampler's `threads: 2` splits the batch across the shared worker pool.
 */
import { cpus } from 'node:os';
import {
  causalBatch,
  createRng,
  disposeExactWorkers,
  transferMatrixSampler,
} from '../src/index.js';
import type { BatchEstimate } from '../src/index.js';
import { useWasmTransfer } from '../src/internal/kernels/transferWasm.js';
import { median, option } from './benchArgs.js';
import { parseScriptArgs } from '../../../tools/scriptArgs.js';

parseScriptArgs(
  'transferMatrix.bench.ts [--batch VALUE] [--budget VALUE] [--kernel VALUE] [--lengths VALUE] [--repeats VALUE] [--threads VALUE] [--widths VALUE]',
  {
    batch: 'string',
    budget: 'string',
    kernel: 'string',
    lengths: 'string',
    repeats: 'string',
    threads: 'string',
    widths: 'string',
  },
);

const lengths = option('lengths', '16,32,64,128,256').split(',').map(Number);
const widths = option('widths', '4,8').split(',').map(Number);
const batch = Number(option('batch', '12'));
const repeats = Number(option('repeats', '5'));
const budget = Number(option('budget', '20000'));
// `--threads 1` keeps everything on the calling thread; `--kernel js` runs the JavaScript kernel (one thread).
const threads = Number(option('threads', '2'));
const kernel = option('kernel', 'wasm');
if (kernel === 'js') useWasmTransfer(false);
// The JavaScript kernel is switched on this thread only (pool workers run wasm), so it runs on one.
const twoThreads = kernel !== 'js' && threads > 1;

interface Row {
  forward: number;
  vjp: number;
  total: number;
  runs: number;
}

function measure(length: number, w: number): Row {
  const rng = createRng(1000 * length + w);
  const fields = Float64Array.from({ length: batch * length * length }, () => rng.normal());
  const couplings = new Float64Array(length * length);
  for (let j = 0; j < length; j++)
    for (let k = j + 1; k <= Math.min(j + w, length - 1); k++)
      couplings[j * length + k] = 0.3 * rng.normal();
  const upstream = Float64Array.from({ length: batch * length * length }, () => rng.normal());
  const problem = causalBatch(fields, couplings, { batch, length });
  const forward: number[] = [];
  const vjp: number[] = [];
  const total: number[] = [];
  let warmup = length <= 64 ? 3 : 1;
  let count = repeats;
  for (let r = 0; r < warmup + count; r++) {
    const t0 = performance.now();
    const est = transferMatrixSampler.create({ bandwidth: w, threads: twoThreads ? 2 : 1 })
      .estimate!(problem) as BatchEstimate;
    const t1 = performance.now();
    est.vjp(upstream);
    const t2 = performance.now();
    if (r === 0) {
      // Slow configurations: fewer repeats, and the first run counts.
      const allowed = Math.max(1, Math.floor(budget / (t2 - t0)));
      if (allowed < warmup + count) {
        warmup = Math.min(warmup, allowed > 1 ? 1 : 0);
        count = Math.max(1, Math.min(count, allowed - warmup));
      }
    }
    if (r >= warmup) {
      forward.push(t1 - t0);
      vjp.push(t2 - t1);
      total.push(t2 - t0);
    }
  }
  return { forward: median(forward), vjp: median(vjp), total: median(total), runs: forward.length };
}

console.log(
  `transferMatrix bench: causal batch ${batch}, lengths ${lengths.join(', ')}, bandwidths ${widths.join(', ')}, median of ≤ ${repeats} runs, ` +
    `${kernel} kernel, ${twoThreads ? 2 : 1} thread(s), ${cpus()[0]?.model ?? 'cpu'}`,
);
console.log('     T   w  runs  forward ms      vjp ms  fwd+vjp ms  fwd ns/state  vjp ns/state');
for (const w of widths) {
  for (const length of lengths) {
    const r = measure(length, w);
    const states = ((batch * length * (length + 1)) / 2) * 2 ** w;
    const ns = (ms: number) => ((ms * 1e6) / states).toFixed(2).padStart(12);
    console.log(
      `${String(length).padStart(6)}  ${String(w).padStart(2)}  ${String(r.runs).padStart(4)}  ${r.forward.toFixed(2).padStart(10)}  ${r.vjp.toFixed(2).padStart(10)}  ${r.total.toFixed(2).padStart(10)}  ${ns(r.forward)}  ${ns(r.vjp)}`,
    );
  }
}

await disposeExactWorkers();
