import * as tf from '@tensorflow/tfjs';
import { createRng } from '@boltzmann/ising-core';
import { createTrainer, createTransformer, initBackend } from '../src/index.js';
await initBackend('wasm', { log: () => {} });
const rng = createRng(1);
const B = 64, T = 12;
const tokens = () => Int32Array.from({ length: B * T }, () => rng.nextInt(65));
const model = createTransformer({ vocabSize: 65, maxLength: T, variant: (process.argv[2] ?? 'softmax') as 'softmax' });
const trainer = createTrainer(model, { totalSteps: 100 });
const data = { inputs: tokens(), targets: tokens(), batchSize: B };
await trainer.step(data);
const prof = await tf.profile(async () => { await trainer.step(data); });
const agg = new Map<string, [number, number]>();
let total = 0;
for (const k of prof.kernels) { const a = agg.get(k.name) ?? [0, 0]; a[0] += k.kernelTimeMs as number; a[1]++; agg.set(k.name, a); total += k.kernelTimeMs as number; }
console.log('kernels', prof.kernels.length, 'kernel ms', total.toFixed(1));
console.log([...agg.entries()].sort((a, b) => b[1][0] - a[1][0]).slice(0, 15).map(([k, v]) => `${k}:${v[0].toFixed(1)}/${v[1]}`).join(' '));
const t0 = performance.now(); for (let i = 0; i < 5; i++) await trainer.step(data); console.log('step', ((performance.now() - t0) / 5).toFixed(1));
