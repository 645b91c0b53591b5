/**
 * The README example, runnable: trains the four variants for a few steps on a toy
 * copy-the-previous-token task and prints their losses.
 * Run: cd packages/attention && npx tsx --conditions=@boltzmann/source scripts/example.ts
 */
import { createRng } from '@boltzmann/ising-core';
import {
  ATTENTION_VARIANTS,
  createTrainer,
  createTransformer,
  evaluate,
  initBackend,
  perplexity,
} from '../src/index.js';

await initBackend(); // 'wasm', falling back to 'cpu'

const [vocabSize, length, batchSize, steps] = [16, 8, 32, 150];
const rng = createRng(7);
function makeBatch() {
  const inputs = Int32Array.from({ length: batchSize * length }, () => rng.nextInt(vocabSize));
  // Target at position i is the token at position i − 1 (position 0 is masked out).
  const targets = Int32Array.from(inputs, (_, k) => (k % length === 0 ? 0 : inputs[k - 1]!));
  const mask = Float32Array.from(inputs, (_, k) => (k % length === 0 ? 0 : 1));
  return { inputs, targets, mask, batchSize };
}
const validation = makeBatch();

for (const variant of ATTENTION_VARIANTS) {
  const model = createTransformer({ vocabSize, maxLength: length, dModel: 32, variant, seed: 1 });
  const trainer = createTrainer(model, { totalSteps: steps, lr: 1e-2 });
  for (let s = 0; s < steps; s++) await trainer.step(makeBatch());
  const { loss, correct, count } = await evaluate(model, validation);
  console.log(
    `${variant.padEnd(9)} loss ${loss.toFixed(3)}  perplexity ${perplexity(loss).toFixed(2)}  accuracy ${((100 * correct) / count).toFixed(1)} %`,
  );
  if (variant === 'boltzmann')
    console.log(
      '  J[0][1..4] =',
      Array.from(model.couplings()[0]!.subarray(1, 5), (x) => x.toFixed(3)).join(' '),
    );
  trainer.dispose();
  model.dispose();
}
