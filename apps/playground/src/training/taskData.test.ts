import { bracketTask, createCharCorpus } from '@boltzmann/datasets';
import { createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { createBracketTask, createShakespeareTask } from './taskData.js';

const text = 'To be, or not to be, that is the question:\n'.repeat(80);

// The data the playground built itself before it used @boltzmann/datasets' training tasks.
describe('playground task data', () => {
  it('should train on createRng(seed + 0x5eed) windows and score 256 windows of seed 1234', () => {
    const task = createShakespeareTask(text, 8, 2);
    const corpus = createCharCorpus(text);
    const rng = createRng(2 + 0x5eed);
    const b = corpus.sampleBatch('train', 6, 8, rng);
    expect(task.next(6)).toEqual({ inputs: b.inputs, targets: b.targets, batchSize: 6 });
    const evalSet = corpus.validationWindows(8, 256, 1234);
    expect(task.evalBatch).toEqual({
      inputs: evalSet.inputs,
      targets: evalSet.targets,
      batchSize: evalSet.batchSize,
    });
    expect([task.vocabSize, task.outputSize]).toEqual([corpus.vocab.size, corpus.vocab.size]);
  });

  it('should train brackets on prefix strings of two types from seed + 0x5eed', () => {
    const task = createBracketTask(12, 5);
    const reference = bracketTask({ T: 12, mode: 'prefix', types: 2, seed: 5 + 0x5eed });
    const b = reference.nextBatch(4);
    expect(task.next(4)).toEqual({
      inputs: b.tokens,
      targets: b.targets,
      mask: b.mask,
      batchSize: 4,
    });
    expect(task.evalBatch).toEqual({
      inputs: reference.test.tokens,
      targets: reference.test.targets,
      mask: reference.test.mask,
      batchSize: reference.test.batchSize,
    });
    expect([task.vocabSize, task.outputSize, task.alphabet]).toEqual([4, 12, '()[]']);
  });
});
