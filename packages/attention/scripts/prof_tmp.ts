import * as tf from '@tensorflow/tfjs';
import { createRng } from '@boltzmann/ising-core';
import { createTrainer, createTransformer, initBackend } from '../src/index.js';
const variant = (process.argv[2] ?? 'softmax') as 'softmax';
const sampler = process.argv[3];
await initBackend('wasm');
const rng = createRng(1);
const length = 64, batch = 12;
const tokens = () => Int32Array.from({ length: batch * length }, () => rng.nextInt(65));
const model = createTransformer({ vocabSize: 65, maxLength: length, variant, dModel: 128, layers: 4, heads: 4, bias: false, tieEmbeddings: true, ffn: true, ...(sampler ? { sampler, couplingForm: sampler === 'transfer-matrix' ? 'banded:8' : 'full' } : {}) } as never);
const trainer = createTrainer(model, { totalSteps: 100 });
const data = { inputs: tokens(), targets: tokens(), batchSize: batch };
await trainer.step(data);
const t1 = performance.now();
const profile = await tf.profile(async () => { await trainer.step(data); });
const wall = performance.now() - t1;
const byKernel = new Map<string, { ms: number; calls: number }>();
let total = 0;
for (const k of profile.kernels) {
  const e = byKernel.get(k.name) ?? { ms: 0, calls: 0 };
  e.ms += k.kernelTimeMs as number; e.calls++; byKernel.set(k.name, e); total += k.kernelTimeMs as number;
}
console.log(`${variant} ${profile.kernels.length} kernels, ${total.toFixed(1)} ms kernel time, profiled wall ${wall.toFixed(0)}`);
for (const [name, { ms, calls }] of [...byKernel.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 16)) console.log(`  ${name.padEnd(24)} ${ms.toFixed(1).padStart(8)} ms  ${calls} calls`);
const t0 = performance.now();
for (let i = 0; i < 5; i++) await trainer.step(data);
console.log(`wall per step: ${((performance.now() - t0) / 5).toFixed(1)} ms`);
