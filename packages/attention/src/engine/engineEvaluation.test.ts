import { beforeAll, describe, expect, it } from 'vitest';
import { createTransformer, engineModelOf, evaluate, initBackend } from '../index.js';
import type { AttentionVariant, TransformerConfig } from '../index.js';
import { createReferenceSampler } from '../testing/referenceSampler.js';
import { gpt, patternBatch } from '../testing/testUtils.js';
import { testEngineBackend } from '../testing/engineBackend.js';
import { createEngineTrainer } from './engineTrainer.js';

// EngineTrainer.evaluate (issue 40, the bench's evaluations off TF.js): the tfjs `evaluate` of
// the synced model, to float32 rounding, and no trace on the training that follows.

const variants: readonly AttentionVariant[] = ['softmax', 'sigmoid', 'boltzmann'];

function configOf(variant: AttentionVariant): TransformerConfig {
  return { ...gpt, variant, sampler: createReferenceSampler(), dropout: 0.1 };
}

/** An engine trainer of a fresh model, its weights handed back only when asked. */
function trainerOf(config: TransformerConfig) {
  const model = createTransformer(config);
  const trainer = createEngineTrainer(engineModelOf(model), {
    totalSteps: 6,
    lr: 1e-2,
    sync: 'manual',
    backend: testEngineBackend(),
  });
  return { model, trainer };
}

describe("the engine trainer's evaluation", () => {
  beforeAll(async () => {
    await initBackend('cpu', { log: () => {} });
  });

  for (const variant of variants)
    it(`${variant}: the tfjs evaluation of the synced model, chunk by chunk, without dropout`, async () => {
      const { model, trainer } = trainerOf(configOf(variant));
      for (let s = 0; s < 3; s++) await trainer.step(patternBatch(4, 10 + s));
      const batch = patternBatch(5, 99);
      const onEngine = await trainer.evaluate(batch, { chunkSize: 2 });
      const whole = await trainer.evaluate(batch);
      trainer.sync();
      const reference = await evaluate(model, batch);
      expect(onEngine.count).toBe(reference.count);
      expect(onEngine.weight).toBe(reference.weight);
      expect(onEngine.correct).toBe(reference.correct);
      expect(Math.abs(onEngine.loss - reference.loss) / reference.loss).toBeLessThan(2e-6);
      expect(whole.loss).toBeCloseTo(onEngine.loss, 12);
      trainer.dispose();
      model.dispose();
    });

  it('leaves no trace on training: the same losses with an evaluation between every two steps', async () => {
    const run = async (evaluating: boolean) => {
      const { model, trainer } = trainerOf(configOf('boltzmann'));
      const losses: number[] = [];
      for (let s = 0; s < 4; s++) {
        losses.push((await trainer.step(patternBatch(4, 20 + s))).loss);
        if (evaluating) await trainer.evaluate(patternBatch(3, 40 + s));
      }
      trainer.dispose();
      model.dispose();
      return losses;
    };
    expect(await run(true)).toEqual(await run(false));
  });

  it('an evaluation started during a step waits for it, and bad input is refused with a code', async () => {
    const { model, trainer } = trainerOf(configOf('softmax'));
    const step = trainer.step(patternBatch(4, 1));
    const during = trainer.evaluate(patternBatch(2, 2));
    await step;
    const after = await trainer.evaluate(patternBatch(2, 2));
    expect((await during).loss).toBe(after.loss);
    await expect(trainer.evaluate(patternBatch(2, 2), { chunkSize: 0 })).rejects.toMatchObject({
      code: 'ATTENTION_INVALID_ARGUMENT',
    });
    const bad = { ...patternBatch(2, 2), inputs: new Int32Array(12).fill(99) };
    await expect(trainer.evaluate(bad)).rejects.toMatchObject({ code: 'ATTENTION_INVALID_TOKEN' });
    trainer.dispose();
    model.dispose();
  });
});
