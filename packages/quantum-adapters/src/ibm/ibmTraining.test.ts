import { createTrainer, createTransformer, initBackend } from '@boltzmann/attention';
import { createRng } from '@boltzmann/ising-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoLeaks,
  fake,
  samplerOptions,
  simulatedAnswer,
  useFakeRuntime,
} from './testing/runtimeHarness.js';
import { createIbmSampler } from '../index.js';

useFakeRuntime();

describe('a training step through the ibm plugin', () => {
  beforeAll(async () => {
    await initBackend('cpu');
  });

  it('trains a boltzmann model one step on the (fake) device: the loss, J and every call through Runtime', async () => {
    fake.answerPub = simulatedAnswer;
    const [vocabSize, length, batchSize] = [6, 4, 3];
    const sampler = createIbmSampler(samplerOptions({ shots: 400, anneal: { tau: 2, steps: 3 } }));
    const model = createTransformer({
      vocabSize,
      maxLength: length,
      dModel: 8,
      variant: 'boltzmann',
      sampler,
      seed: 1,
    });
    try {
      const rng = createRng(5);
      const inputs = Int32Array.from({ length: batchSize * length }, () => rng.nextInt(vocabSize));
      const targets = Int32Array.from(inputs, (_, k) => (k % length === 0 ? 0 : inputs[k - 1]!));
      const mask = Float32Array.from(inputs, (_, k) => (k % length === 0 ? 0 : 1));
      const before = Float64Array.from(model.couplings()[0]!);
      const trainer = createTrainer(model, { totalSteps: 1, lr: 1e-2 });
      const step = await trainer.step({ inputs, targets, mask, batchSize });
      expect(Number.isFinite(step.loss)).toBe(true);
      expect(step.gradNorm).toBeGreaterThan(0);
      const after = model.couplings()[0]!;
      expect(after.some((j, k) => j !== before[k])).toBe(true);
      // One call of batch × length problems (one head, one layer), all in this step's jobs.
      const pubs = [...fake.jobs.values()].reduce((n, job) => n + job.shots, 0);
      expect(fake.jobs.size).toBeGreaterThanOrEqual(1);
      expect(pubs).toBe(batchSize * length * 400);
      expect(sampler.lastRunInfo()!.layouts[4]).toHaveLength(4);
      expectNoLeaks();
    } finally {
      model.dispose();
    }
  });
});
