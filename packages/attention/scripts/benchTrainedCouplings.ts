/**
 * The engine's transfer-matrix op on a trained model's couplings, before and after a change of the
 * native kernels (first the float64 pass, commit 31950b4; then the float32 pass's key bound of 12
 * from W = 8): one causal pass and its VJP of `--rows` problems of length T with the J of a `bench`
 * run record (its `couplings`, T × T, the first block's) or of any block in a checkpoint
 * (`--checkpoint FILE --tensor NAME`, e.g. `model/block1/attention/couplings`, 1 × T × T), fields
 * uniform in ±scale.
 * "After" is this checkout's kernels, every row they keep (float32 pass, then float64 for the rows
 * it leaves). "Before" is an addon built from an older commit (`--before-addon`, e.g. 935b38f's)
 * plus ising-core's float32 transfer-matrix sampler on the rows it left, as transferOp.ts ran
 * them (sampleRows: the sampler's own float32 kernel while the fields allow it, else float64,
 * else its log domain).
 *
 *   git worktree add --detach /tmp/ab-old 935b38f   # then build its addon (native/install.mjs)
 *   cd packages/attention && node --import tsx --conditions=@boltzmann/source scripts/benchTrainedCouplings.ts \
 *     (--record <results>/runs/<id>.json | --checkpoint <results>/checkpoints/<id>.safetensors --tensor NAME) \
 *     [--before-addon /tmp/ab-old/packages/attention/build/Release/boltzmann_engine.node] \
 *     [--window 8] [--rows 1024] [--scales 2,8] [--rounds 3]
 *
 * Each round times both on every scale, one after the other; the table gives medians and the
 * ratio's range over the rounds. One benchmark process: run it on an idle machine.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import {
  causalWeightsFromEstimate,
  createIsingBatch,
  estimateBatch,
  transferMatrixSampler,
} from '@boltzmann/ising-core';
import { formatLoad, median } from '../bench/peers/peerTable.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';
import { nativeKernels, rowBenchArgs, rowCase } from '../bench/transfer/rowBenchSetup.js';
import { decodeSafetensors } from '../src/core/safetensorsReader.js';
import type { NativeAddon } from '../src/engine/native/nativeAddon.js';
import { nativeTransferRunner } from '../src/testing/transferKernels.js';
import type { TransferCase, TransferRun } from '../src/testing/transferKernels.js';

parseScriptArgs(
  'benchTrainedCouplings.ts (--record FILE | --checkpoint FILE --tensor NAME) [--before-addon FILE] [--window VALUE] [--rows VALUE] [--scales VALUE] [--rounds VALUE]',
  {
    record: 'string',
    checkpoint: 'string',
    tensor: 'string',
    'before-addon': 'string',
    window: 'string',
    rows: 'string',
    scales: 'string',
    rounds: 'string',
  },
);

/** The trained J (T × T) and what it is: a run record's couplings, or a checkpoint's tensor. */
function trainedCouplings(): { source: string; values: ArrayLike<number> | undefined } {
  const recordPath = scriptArg('record');
  const checkpointPath = scriptArg('checkpoint');
  if (recordPath !== undefined) {
    const record = JSON.parse(readFileSync(recordPath, 'utf8')) as {
      id: string;
      couplings?: number[];
    };
    return { source: `J of ${record.id}`, values: record.couplings };
  }
  const tensor = scriptArg('tensor');
  if (checkpointPath === undefined || tensor === undefined)
    throw new Error(
      '--record <run record .json>, or --checkpoint <.safetensors> with --tensor <name>, is required',
    );
  const found = decodeSafetensors(readFileSync(checkpointPath)).tensors.get(tensor);
  return { source: `${tensor} of ${basename(checkpointPath)}`, values: found?.data };
}
const { source, values: trained } = trainedCouplings();
const length = Math.round(Math.sqrt(trained?.length ?? 0));
if (trained === undefined || length < 2 || length * length !== trained.length)
  throw new Error(`${source}: no T × T couplings`);
const { window, batch, scales, rounds } = rowBenchArgs(length, { rows: '1024', scales: '2,8' });
const { addon, isa } = nativeKernels();
const beforePath = scriptArg('before-addon');
const before =
  beforePath === undefined
    ? undefined
    : (createRequire(import.meta.url)(beforePath) as NativeAddon);

console.log(`load average at start: ${formatLoad(loadavg())} (${availableParallelism()} cores)`);
console.log(
  `native ${isa}, 1 thread; ${batch * length} rows of T = ${length}, banded:${window}, ${source}, β = 1; ${rounds} rounds`,
);

/** The case at field scale `s`: the trained J in its band (outside it the kernels take nothing). */
const caseAt = (s: number): TransferCase =>
  rowCase({ batch, length, window }, s, 0, ({ j }) => {
    for (let r = 0; r < length; r++)
      for (let k = r + 1; k <= Math.min(length - 1, r + window); k++)
        j[r * length + k] = trained[r * length + k]!;
  });

/** ms of ising-core's float32 sampler on the rows `out` left (sums = −1): weights, then their VJP. */
function samplerOnLeft(out: TransferRun): number {
  const rows: number[] = [];
  out.sums.forEach((s, p) => {
    if (s === -1) rows.push(p);
  });
  if (rows.length === 0) return 0;
  const fields = new Float64Array(rows.length * length);
  const spins = new Int32Array(rows.length);
  const gw = new Float64Array(rows.length * length);
  rows.forEach((p, q) => {
    spins[q] = (p % length) + 1;
    fields.set(out.h.subarray(p * length, p * length + spins[q]!), q * length);
    gw.set(out.gw.subarray(p * length, (p + 1) * length), q * length);
  });
  const couplings = Float64Array.from(out.j);
  const s = transferMatrixSampler.create({ bandwidth: window, precision: 'float32', threads: 1 });
  const t0 = performance.now();
  const ising = createIsingBatch({ fields, couplings, spins, stride: length, beta: 1 });
  const estimate = estimateBatch(s, ising);
  if (estimate instanceof Promise) throw new Error('the sampler answered asynchronously');
  causalWeightsFromEstimate(ising, estimate).backward(gw);
  return performance.now() - t0;
}

/** One timing of `kernels` on the case, and the sampler on what they left. */
function time(kernels: NativeAddon, c: TransferCase) {
  const run = nativeTransferRunner(kernels, isa);
  const t0 = performance.now();
  const out = run(c, 7);
  const ms = performance.now() - t0;
  const passes = { float32: 0, float64: 0, left: 0 };
  for (const s of out.sums) {
    if (s >= 0) passes.float32++;
    else if (s === -2) passes.float64++;
    else passes.left++;
  }
  return { ms, sampler: samplerOnLeft(out), passes };
}

// One untimed call of each first (the addons' and the sampler's first-call costs).
time(addon, caseAt(scales[0]!));
if (before !== undefined) time(before, caseAt(scales[0]!));

const table = new Map<number, { after: number[]; before: number[]; line: string }>();
for (let r = 1; r <= rounds; r++) {
  for (const s of scales) {
    const c = caseAt(s);
    const a = time(addon, c);
    const b = before === undefined ? undefined : time(before, c);
    const row = table.get(s) ?? { after: [], before: [], line: '' };
    row.after.push(a.ms + a.sampler);
    if (b !== undefined) row.before.push(b.ms + b.sampler);
    const p = a.passes;
    const bp = b?.passes;
    row.line = `after: ${p.float32} float32, ${p.float64} float64, ${p.left} sampler${bp === undefined ? '' : `; before: ${bp.float32} float32, ${bp.float64} float64, ${bp.left} sampler`}`;
    table.set(s, row);
    console.log(
      `round ${r}, |h| ≤ ${s}: after ${a.ms.toFixed(1)} + ${a.sampler.toFixed(1)} ms` +
        (b === undefined ? '' : `, before ${b.ms.toFixed(1)} + ${b.sampler.toFixed(1)} ms`) +
        ` (${row.line})`,
    );
  }
}

console.log('\nfields | rows by path | before ms | after ms | before / after (range)');
console.log('---|---|---|---|---');
for (const [s, row] of table) {
  const ratios = row.before.map((x, i) => x / row.after[i]!);
  const ratio =
    ratios.length === 0
      ? 'n/a (no --before-addon)'
      : `${(median(row.before) / median(row.after)).toFixed(1)}× (${Math.min(...ratios).toFixed(1)}–${Math.max(...ratios).toFixed(1)})`;
  const beforeMs = row.before.length === 0 ? 'n/a' : median(row.before).toFixed(1);
  console.log(
    `uniform in ±${s} | ${row.line} | ${beforeMs} | ${median(row.after).toFixed(1)} | ${ratio}`,
  );
}
