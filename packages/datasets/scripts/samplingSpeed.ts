// Prints how long the data pipeline takes per training batch, so the bench can see it is negligible.
// Run: cd packages/datasets && BOLTZMANN_DATA_DIR=../../../shared/data npx tsx --conditions=@boltzmann/source scripts/samplingSpeed.ts
import { createRng } from '@boltzmann/ising-core';
import { bracketTask, loadTinyShakespeare } from '../src/index.js';

function time(label: string, repeats: number, fn: () => void): void {
  fn();
  const start = performance.now();
  for (let i = 0; i < repeats; i++) fn();
  const ms = (performance.now() - start) / repeats;
  console.log(`${label.padEnd(52)} ${ms.toFixed(3)} ms`);
}

const loadStart = performance.now();
const shakespeare = await loadTinyShakespeare({ download: false });
console.log(
  `${'loadTinyShakespeare (read, sha256, encode)'.padEnd(52)} ${(performance.now() - loadStart).toFixed(1)} ms`,
);
const rng = createRng(0);
time('shakespeare sampleBatch(train, 64, 12)', 2000, () =>
  shakespeare.sampleBatch('train', 64, 12, rng),
);
for (const [T, mode, types] of [
  [16, 'balanced', 1],
  [16, 'prefix', 1],
  [16, 'prefix', 3],
  [12, 'balanced', 3],
] as const) {
  const built = performance.now();
  const task = bracketTask({ T, mode, types, seed: 1 });
  const label = `T=${T} ${mode} ${types} type(s)`;
  console.log(
    `${`bracketTask(${label}) build, test = ${task.test.batchSize}`.padEnd(52)} ${(performance.now() - built).toFixed(1)} ms`,
  );
  time(`  nextBatch(64)`, 500, () => task.nextBatch(64));
}
