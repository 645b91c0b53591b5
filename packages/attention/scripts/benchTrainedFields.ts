/**
 * The transfer-matrix sampler on the attention problems of a trained model, float64 against
 * float32: how many problems the float32 kernel may take (its step bound), how far its
 * magnetizations are from float64's, and the time of forward + VJP of every head's batch.
 *
 *   cd packages/attention && npx tsx --conditions=@boltzmann/source scripts/benchTrainedFields.ts \
 *     --model <results>/models/<id>.json [--windows 12]
 *
 * `--model` is a `bench gpt … --save-models` file of a transfer-matrix (banded) run. The fields are
 * those of `--windows` windows of Tiny Shakespeare ($BOLTZMANN_DATA_DIR, default ../../../shared/data).
 */
import { readFileSync } from 'node:fs';
import { estimateTransferMatrix, transferMatrixSampler } from '@boltzmann/ising-core';
import type { IsingBatch, Sampler } from '@boltzmann/ising-core';
import { initBackend, loadTransformer } from '../src/index.js';
import { parseScriptArgs, scriptArg } from '../bench/scriptArgs.js';

parseScriptArgs('benchTrainedFields.ts --model FILE [--windows N]', {
  model: 'string',
  windows: 'string',
});

const arg = (name: string, fallback?: string): string => {
  const v = scriptArg(name) ?? fallback;
  if (v === undefined) throw new Error(`--${name} is required`);
  return v;
};
await initBackend();
const saved = JSON.parse(readFileSync(arg('model'), 'utf8')) as { model: unknown };
const bandwidth = 8;
const inner = transferMatrixSampler.create({ bandwidth });
const recorded: IsingBatch[] = [];
const spy: Sampler = {
  ...inner,
  estimate(batch: IsingBatch) {
    recorded.push(batch);
    return inner.estimate!(batch);
  },
};
const model = loadTransformer(saved.model as Parameters<typeof loadTransformer>[0], {
  sampler: spy,
});
const data = process.env.BOLTZMANN_DATA_DIR ?? '../../../shared/data';
const text = readFileSync(`${data}/tinyshakespeare/input.txt`, 'utf8');
const chars = [...new Set(text)].sort();
const T = model.config.maxLength;
const windows = Number(arg('windows', '12'));
const ids = new Int32Array(windows * T);
for (let b = 0; b < windows; b++)
  for (let t = 0; t < T; t++) ids[b * T + t] = chars.indexOf(text[1_000_000 + b * 7919 + t]!);
(await model.forward(ids, windows)).dispose();

// The float32 step bound per problem: β · max_t (|h_t| + Σ_k |J_tk|), as transferFastPath.ts.
let within = 0;
let problems = 0;
for (const { stride, couplings, beta, size, fields, spins } of recorded) {
  const row = new Float64Array(stride);
  for (let j = 0; j < stride; j++)
    for (let k = j + 1; k <= Math.min(j + bandwidth, stride - 1); k++) {
      row[j]! += Math.abs(couplings[j * stride + k]!);
      row[k]! += Math.abs(couplings[j * stride + k]!);
    }
  for (let q = 0; q < size; q++, problems++) {
    let step = 0;
    for (let t = 0; t < spins[q]!; t++)
      step = Math.max(step, beta * (Math.abs(fields[q * stride + t]!) + row[t]!));
    if (step <= 16) within++;
  }
}
let gap = 0;
for (const b of recorded) {
  const x = estimateTransferMatrix(b, { bandwidth }).magnetization;
  const y = estimateTransferMatrix(b, { bandwidth, precision: 'float32' }).magnetization;
  for (let i = 0; i < x.length; i++) gap = Math.max(gap, Math.abs(x[i]! - y[i]!));
}
const grads = recorded.map((b) => Float64Array.from(b.fields, (_, i) => Math.sin(i)));
const time = (precision: 'float64' | 'float32'): number => {
  const t0 = performance.now();
  recorded.forEach((b, i) => estimateTransferMatrix(b, { bandwidth, precision }).vjp(grads[i]!));
  return performance.now() - t0;
};
console.log(
  `${recorded.length} head batches, ${problems} problems; within the float32 step bound: ${((100 * within) / problems).toFixed(1)} %; max |m32 − m64| = ${gap.toExponential(2)}`,
);
for (let r = 0; r < 3; r++) {
  const f64 = time('float64');
  const f32 = time('float32');
  console.log(
    `forward + VJP, one thread: float64 ${f64.toFixed(0)} ms, float32 ${f32.toFixed(0)} ms (${(f64 / f32).toFixed(2)}×)`,
  );
}
