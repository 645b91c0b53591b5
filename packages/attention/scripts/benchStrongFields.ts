/**
 * What strong fields cost the engine's transfer-matrix op, before and after its kernels took them
 * (issue 41): one causal pass and its VJP of `--rows` problems of length T (banded:W couplings of
 * a trained model's size), fields uniform in ±scale, on the native kernels (every row they keep)
 * against ising-core's float32 transfer-matrix sampler on the same rows, which is where the
 * engine sent every row whose step passed e^±16 until commit c8df3d6 (transferOp.ts sampleRows:
 * the sampler's own float32 kernel while the fields allow it, else float64, else its log domain).
 *
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchStrongFields.ts \
 *     [--length 128] [--window 8] [--rows 256] [--scales 2,8,30,100] [--rounds 3]
 *
 * Each round times both on every scale, one after the other; the table gives medians and the
 * ratio's range over the rounds. One benchmark process: run it on an idle machine.
 */
import { availableParallelism, loadavg } from 'node:os';
import {
  causalBatch,
  causalWeightsFromEstimate,
  estimateBatch,
  transferMatrixSampler,
} from '@boltzmann/ising-core';
import { formatLoad, median } from '../bench/peers/peerTable.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';
import { nativeKernels, rowBenchArgs, rowCase } from '../bench/transfer/rowBenchSetup.js';
import { nativeTransferRunner } from '../src/testing/transferKernels.js';
import type { TransferCase } from '../src/testing/transferKernels.js';

parseScriptArgs(
  'benchStrongFields.ts [--length VALUE] [--window VALUE] [--rows VALUE] [--scales VALUE] [--rounds VALUE]',
  { length: 'string', window: 'string', rows: 'string', scales: 'string', rounds: 'string' },
);

const length = Number(scriptArg('length', '128'));
const { window, batch, scales, rounds } = rowBenchArgs(length, {
  rows: '256',
  scales: '2,8,30,100',
});
const { addon, isa } = nativeKernels();
const run = nativeTransferRunner(addon, isa);

console.log(`load average at start: ${formatLoad(loadavg())} (${availableParallelism()} cores)`);
console.log(
  `native ${isa}, 1 thread; ${batch * length} rows of T = ${length}, banded:${window} (|J| ≤ 0.3), β = 1; ${rounds} rounds`,
);

/** One case's inputs at field scale `s`. */
const caseAt = (s: number): TransferCase => rowCase({ batch, length, window }, s, 0.3);

/** ms of the native kernels' forward and VJP, and the rows they left. */
function kernels(c: TransferCase): { ms: number; left: number } {
  const t0 = performance.now();
  const out = run(c, 7);
  return { ms: performance.now() - t0, left: out.left };
}

/** ms of ising-core's float32 transfer-matrix sampler on the same rows: weights, then their VJP. */
function sampler(c: TransferCase): number {
  const out = run(c, 7); // the same seeded inputs
  const fields = Float64Array.from(out.h);
  const couplings = Float64Array.from(out.j);
  const s = transferMatrixSampler.create({ bandwidth: window, precision: 'float32', threads: 1 });
  const t0 = performance.now();
  const ising = causalBatch(fields, couplings, { batch, length }, 1);
  const estimate = estimateBatch(s, ising);
  if (estimate instanceof Promise) throw new Error('the sampler answered asynchronously');
  const op = causalWeightsFromEstimate(ising, estimate);
  op.backward(Float64Array.from(out.gw));
  return performance.now() - t0;
}

const rows = new Map<number, { kernel: number[]; sampler: number[]; left: number }>();
for (let r = 1; r <= rounds; r++) {
  for (const s of scales) {
    const c = caseAt(s);
    const k = kernels(c);
    const ms = sampler(c);
    const row = rows.get(s) ?? { kernel: [], sampler: [], left: k.left };
    row.kernel.push(k.ms);
    row.sampler.push(ms);
    rows.set(s, row);
    console.log(
      `round ${r}, |h| ≤ ${s}: kernels ${k.ms.toFixed(1)} ms (${k.left} rows left), sampler ${ms.toFixed(1)} ms`,
    );
  }
}

console.log(
  '\nfields | rows the kernels leave | kernels ms | ising-core sampler ms (where rows past e^±16 went before) | sampler / kernels (range)',
);
console.log('---|---|---|---|---');
for (const [s, row] of rows) {
  const ratios = row.sampler.map((x, i) => x / row.kernel[i]!);
  const range = `${Math.min(...ratios).toFixed(1)}–${Math.max(...ratios).toFixed(1)}`;
  console.log(
    `uniform in ±${s} | ${row.left} of ${batch * length} | ${median(row.kernel).toFixed(1)} | ${median(row.sampler).toFixed(1)} | ${(median(row.sampler) / median(row.kernel)).toFixed(1)}× (${range})`,
  );
}
