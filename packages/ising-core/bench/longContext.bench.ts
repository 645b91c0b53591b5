/**
 * Long-context benchmark (issue 11): forward + VJP of one causal attention call — batch 12, one
 * head, query i seeing keys 0..i — for `transfer-matrix` (w = 4, 8), `tap` and `mean-field`, at
 * T = 16 … 1024. Prints median wall ms of forward, VJP and both, and the cost normalized by
 * the work each method does: ns per (query · spin · iteration), where an iteration is one
 * fixed-point or adjoint iteration for tap and mean-field (from their diagnostics), and one
 * window state (2^w) for the transfer matrix.
 *
 * Fields are attention-like (N(0, 1) per query); J ~ N(0, 0.02²) dense for tap and mean-field
 * and banded (the same scale inside the band, zero beyond) for the transfer matrix. Run with
 * `pnpm nx run ising-core:bench` or directly:
 *   npx tsx --conditions=@boltzmann/source packages/ising-core/bench/longContext.bench.ts [--lengths 16,64 --threads 1]
 * `--methods` picks rows, e.g. `'transfer-matrix w=8,transfer-matrix w=8 float32'` (the float32
 * kernel of `precision: 'float32'`).
 * Lengths ≥ 512 run once (they take seconds to minutes); the others take the median of 5.
 */
import { availableParallelism } from 'node:os';
import {
  causalBatch,
  createRng,
  estimateBatch,
  meanFieldSampler,
  tapSampler,
  transferMatrixSampler,
} from '../src/index.js';
import type { BatchEstimate, IsingBatch, Sampler } from '../src/index.js';
import { median, option } from './benchArgs.js';
import { parseScriptArgs } from '../../../tools/scriptArgs.js';

parseScriptArgs('longContext.bench.ts [--lengths VALUE] [--methods VALUE] [--threads VALUE]', {
  lengths: 'string',
  methods: 'string',
  threads: 'string',
});

const lengths = option('lengths', '16,32,64,128,256,512,1024').split(',').map(Number);
const methods = option('methods', 'transfer-matrix w=4,transfer-matrix w=8,tap,mean-field').split(
  ',',
);
const threadsOption = option('threads', '');
const BATCH = 12;

function makeBatch(T: number, band: number | undefined): IsingBatch {
  const rng = createRng(T);
  const fields = Float64Array.from({ length: BATCH * T * T }, () => rng.normal());
  const couplings = new Float64Array(T * T);
  for (let j = 0; j < T; j++)
    for (let k = j + 1; k < T; k++)
      if (band === undefined || k - j <= band) couplings[j * T + k] = 0.02 * rng.normal();
  return causalBatch(fields, couplings, { batch: BATCH, length: T });
}

function samplerFor(method: string): { sampler: Sampler; band: number | undefined } {
  const threads = threadsOption === '' ? {} : { threads: Number(threadsOption) };
  const tm = /^transfer-matrix w=(\d+)( float32)?$/.exec(method);
  if (tm) {
    const precision = tm[2] === undefined ? 'float64' : 'float32';
    return {
      sampler: transferMatrixSampler.create({ bandwidth: Number(tm[1]), precision, ...threads }),
      band: Number(tm[1]),
    };
  }
  if (method === 'tap') return { sampler: tapSampler.create(threads as never), band: undefined };
  if (method === 'mean-field')
    return { sampler: meanFieldSampler.create(threads as never), band: undefined };
  throw new Error(`unknown method ${method}`);
}

/** Σ over problems of spins × work units per spin (iterations, or window states). */
function workUnits(
  batch: IsingBatch,
  method: string,
  estimate: BatchEstimate,
  adjointIterations: Int32Array | undefined,
): number {
  const tm = /^transfer-matrix w=(\d+)( float32)?$/.exec(method);
  let units = 0;
  for (let q = 0; q < batch.size; q++) {
    const n = batch.spins[q]!;
    const per = tm
      ? 2 ** Number(tm[1])
      : (estimate.diagnostics?.iterations[q] ?? 0) + (adjointIterations?.[q] ?? 0);
    units += n * per;
  }
  return units;
}

const sync = (sampler: Sampler, batch: IsingBatch): BatchEstimate =>
  estimateBatch(sampler, batch) as BatchEstimate;

process.stdout.write(
  `long-context forward + VJP, batch ${BATCH}, one head, causal; ${availableParallelism()} cores; threads ${threadsOption || 'default'}\n`,
);
process.stdout.write(
  '| method | T | forward ms | VJP ms | total ms | ns / (query·spin·iteration) |\n|---|---|---|---|---|---|\n',
);
/**
 * Untimed calls at the smallest length (at least 10, and 1.5 s) until the kernels are optimized:
 * V8 and the worker pool tier code up over many calls. With one warm-up call per row the first
 * method listed ran up to 2.2× slow (w = 8 listed three times, T = 64: 40.1, 18.2, 18.4 ms);
 * with this, 17.7 and 17.7 ms.
 */
function warmUp(sampler: Sampler, band: number | undefined): void {
  const T = Math.min(...lengths);
  const batch = makeBatch(T, band);
  const grad = new Float64Array(BATCH * T * T).fill(1e-3);
  const start = performance.now();
  for (let r = 0; r < 100 && (r < 10 || performance.now() - start < 1500); r++)
    sync(sampler, batch).vjp(grad);
}

for (const method of methods) {
  const { sampler, band } = samplerFor(method);
  warmUp(sampler, band);
  for (const T of lengths) {
    const batch = makeBatch(T, band);
    const grad = Float64Array.from({ length: BATCH * T * T }, (_, i) => Math.sin(i));
    const repeats = T >= 512 ? 1 : 5;
    const forward: number[] = [];
    const backward: number[] = [];
    let units = 0;
    for (let r = 0; r < repeats + (T >= 512 ? 0 : 1); r++) {
      const t0 = performance.now();
      const estimate = sync(sampler, batch);
      const t1 = performance.now();
      const grads = estimate.vjp(grad) as { diagnostics?: { iterations: Int32Array } };
      const t2 = performance.now();
      if (T < 512 && r === 0) continue; // warm-up
      forward.push(t1 - t0);
      backward.push(t2 - t1);
      units = workUnits(batch, method, estimate, grads.diagnostics?.iterations);
    }
    const f = median(forward);
    const b = median(backward);
    const perUnit = units > 0 ? ((f + b) * 1e6) / units : Number.NaN;
    process.stdout.write(
      `| ${method} | ${T} | ${f.toFixed(1)} | ${b.toFixed(1)} | ${(f + b).toFixed(1)} | ${perUnit.toFixed(2)} |\n`,
    );
  }
  await sampler.dispose?.();
}
