/**
 * Forward + VJP wall time of the long-context samplers through their plugins, `threads: 1` vs
 * `threads: 2` (median of `--repeats` after one warm-up run, which also starts the workers), on
 * causal batches B × T. Fields ~ N(0, 1); mean-field and tap: dense couplings ~ N(0, 0.3²/T);
 * transfer-matrix: bandwidth `--bandwidth` (default 8), banded couplings ~ 0.3 N(0, 1). All three
 * thread through the one shared worker pool, so `threads: 1` is one thread for each.
 *
 * Run from the workspace root:
 * `npx tsx --conditions=@boltzmann/source packages/ising-core/bench/threadedSamplers.bench.ts`
 * Options: `--shapes 12x64,12x256 --samplers mean-field,tap,transfer-matrix --repeats 5 --bandwidth 8`.
 */
import {
  causalBatch,
  createRng,
  meanFieldSampler,
  tapSampler,
  transferMatrixSampler,
} from '../src/index.js';
import type { BatchEstimate, IsingBatch, Sampler } from '../src/index.js';
import { batchCost } from '../src/internal/pool/splitRanges.js';
import { disposeWorkerPool } from '../src/internal/pool/sharedPool.js';
import { median, option } from './benchArgs.js';
import { parseScriptArgs } from '../../../tools/scriptArgs.js';

parseScriptArgs(
  'threadedSamplers.bench.ts [--bandwidth VALUE] [--repeats VALUE] [--samplers VALUE] [--shapes VALUE]',
  { bandwidth: 'string', repeats: 'string', samplers: 'string', shapes: 'string' },
);

const shapes = option('shapes', '12x64,12x256')
  .split(',')
  .map((s) => s.split('x').map(Number) as [number, number]);
const samplers = option('samplers', 'mean-field,tap,transfer-matrix').split(',');
const repeats = Number(option('repeats', '5'));
const bandwidth = Number(option('bandwidth', '8'));

function batchFor(name: string, b: number, T: number, seed: number): IsingBatch {
  const rng = createRng(seed);
  const fields = Float64Array.from({ length: b * T * T }, () => rng.normal());
  const couplings = new Float64Array(T * T);
  for (let j = 0; j < T; j++) {
    for (let k = j + 1; k < T; k++) {
      if (name === 'transfer-matrix') {
        if (k - j <= bandwidth) couplings[j * T + k] = 0.3 * rng.normal();
      } else couplings[j * T + k] = (0.3 * rng.normal()) / Math.sqrt(T);
    }
  }
  return causalBatch(fields, couplings, { batch: b, length: T });
}

function create(name: string, threads: number): Sampler {
  if (name === 'mean-field') return meanFieldSampler.create({ threads });
  if (name === 'tap') return tapSampler.create({ threads });
  return transferMatrixSampler.create({ threads, bandwidth });
}

function time(sampler: Sampler, batch: IsingBatch): number {
  const grad = Float64Array.from({ length: batch.size * batch.stride }, (_, i) => Math.sin(i));
  const once = (): number => {
    const t = performance.now();
    (sampler.estimate!(batch) as BatchEstimate).vjp(grad);
    return performance.now() - t;
  };
  once();
  return median(Array.from({ length: repeats }, once));
}

console.log('| sampler | B × T | cost | threads 1 (ms) | threads 2 (ms) | speed-up |');
console.log('|---|---|---:|---:|---:|---:|');
for (const name of samplers) {
  for (const [b, T] of shapes) {
    const batch = batchFor(name, b, T, 1);
    const cost = batchCost(name as 'tap', batch.spins);
    const one = time(create(name, 1), batch);
    const two = time(create(name, 2), batch);
    console.log(
      `| ${name} | ${b} × ${T} | ${cost} | ${one.toFixed(1)} | ${two.toFixed(1)} | ${(one / two).toFixed(2)}× |`,
    );
  }
}
await disposeWorkerPool();
