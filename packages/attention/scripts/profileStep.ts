/**
 * Prints where one training step spends its kernel time (TensorFlow.js profiler), per kernel name.
 * Run: cd packages/attention && npx tsx --conditions=@boltzmann/source scripts/profileStep.ts [variant] [T] [batch]
 */
import * as tf from '@tensorflow/tfjs';
import { createRng, floorScaledInt } from '@boltzmann/ising-core';
import {
  assertAttentionVariant,
  createTrainer,
  createTransformer,
  initBackend,
} from '../src/index.js';

const variant = process.argv[2] ?? 'softmax';
assertAttentionVariant(variant);
const [length = 12, batch = 64] = process.argv.slice(3, 5).map(Number);
await initBackend('wasm');
const rng = createRng(1);
const tokens = () => Int32Array.from({ length: batch * length }, () => floorScaledInt(rng, 65));
const model = createTransformer({ vocabSize: 65, maxLength: length, variant });
const trainer = createTrainer(model, { totalSteps: 100 });
const data = { inputs: tokens(), targets: tokens(), batchSize: batch };
await trainer.step(data);
const profile = await tf.profile(async () => {
  await trainer.step(data);
});
const byKernel = new Map<string, { ms: number; calls: number }>();
let total = 0;
for (const k of profile.kernels) {
  const entry = byKernel.get(k.name) ?? { ms: 0, calls: 0 };
  entry.ms += k.kernelTimeMs as number;
  entry.calls++;
  byKernel.set(k.name, entry);
  total += k.kernelTimeMs as number;
}
console.log(
  `${variant} T=${length} B=${batch}: ${profile.kernels.length} kernels, ${total.toFixed(1)} ms kernel time`,
);
for (const [name, { ms, calls }] of [...byKernel.entries()]
  .sort((a, b) => b[1].ms - a[1].ms)
  .slice(0, 12)) {
  console.log(`  ${name.padEnd(24)} ${ms.toFixed(1).padStart(8)} ms  ${calls} calls`);
}
const t0 = performance.now();
for (let i = 0; i < 5; i++) await trainer.step(data);
console.log(`wall time per step (unprofiled): ${((performance.now() - t0) / 5).toFixed(1)} ms`);
trainer.dispose();
model.dispose();
