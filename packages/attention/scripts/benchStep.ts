/**
 * Prints the wall and CPU time of one training step of the METHOD.md §5 model per variant.
 * Run: cd packages/attention && npx tsx --conditions=@boltzmann/source scripts/benchStep.ts [T] [batch] [steps] [backend]
 */
import { createRng } from '@boltzmann/ising-core';
import { ATTENTION_VARIANTS, createTrainer, createTransformer, initBackend } from '../src/index.js';

const [length = 12, batch = 64, steps = 10] = process.argv.slice(2, 5).map(Number);
const backend = (process.argv[5] ?? 'wasm') as 'wasm' | 'cpu';
await initBackend(backend);
const rng = createRng(1);
const tokens = () => Int32Array.from({ length: batch * length }, () => rng.nextInt(65));
for (const variant of ATTENTION_VARIANTS) {
  const model = createTransformer({ vocabSize: 65, maxLength: length, variant });
  const trainer = createTrainer(model, { totalSteps: steps + 1 });
  const data = { inputs: tokens(), targets: tokens(), batchSize: batch };
  await trainer.step(data);
  let prepare = 0;
  // CPU time as well as wall time: on a shared machine the wall time mostly measures the load.
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let s = 0; s < steps; s++) {
    const p0 = performance.now();
    await model.prepare(data.inputs, batch);
    prepare += performance.now() - p0;
    await trainer.step(data);
  }
  const total = performance.now() - t0 - prepare;
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(
    `${variant.padEnd(9)} T=${length} B=${batch} ${backend}: ${(total / steps).toFixed(1)} ms/step ` +
      `(of which fields + sampler ${(prepare / steps).toFixed(1)} ms); CPU ${(cpuMs / steps).toFixed(1)} ms/step incl. one extra prepare`,
  );
  trainer.dispose();
  model.dispose();
}
