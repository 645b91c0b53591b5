import { createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import {
  bracketTask,
  bracketTrainingTask,
  charTrainingStream,
  charValidationSet,
  createCharCorpus,
} from './index.js';

const text = 'To be, or not to be, that is the question:\n'.repeat(40);

// The formulas the bench and the playground each wrote before sharing these tasks.
describe('training tasks', () => {
  it('should stream the train windows of createRng(seed + 0x5eed) and resume from a state', () => {
    const corpus = createCharCorpus(text);
    const stream = charTrainingStream(corpus, 8, 3);
    const rng = createRng(3 + 0x5eed);
    for (const batchSize of [4, 1, 7]) {
      const b = stream.next(batchSize);
      const expected = corpus.sampleBatch('train', batchSize, 8, rng);
      expect([b.inputs, b.targets, b.batchSize, b.mask]).toEqual([
        expected.inputs,
        expected.targets,
        batchSize,
        undefined,
      ]);
    }
    expect([stream.vocabSize, stream.outputSize]).toEqual([corpus.vocab.size, corpus.vocab.size]);
    const state = stream.saveState();
    const after = stream.next(5);
    stream.restoreState(state);
    expect(stream.next(5)).toEqual(after);
  });

  it('should evaluate on the validation windows of seed 1234', () => {
    const corpus = createCharCorpus(text);
    const expected = corpus.validationWindows(8, 20, 1234);
    expect(charValidationSet(corpus, 8, 20)).toEqual({
      inputs: expected.inputs,
      targets: expected.targets,
      batchSize: 20,
    });
  });

  it('should stream bracketTask(seed + 0x5eed) with its test set, T output classes', () => {
    const shared = bracketTrainingTask({ T: 10, mode: 'prefix', types: 2, seed: 4 });
    const task = bracketTask({ T: 10, mode: 'prefix', types: 2, seed: 4 + 0x5eed });
    expect(shared.test).toEqual({
      inputs: task.test.tokens,
      targets: task.test.targets,
      mask: task.test.mask,
      batchSize: task.test.batchSize,
    });
    for (const batchSize of [3, 8]) {
      const b = shared.next(batchSize);
      const expected = task.nextBatch(batchSize);
      expect([b.inputs, b.targets, b.mask, b.batchSize]).toEqual([
        expected.tokens,
        expected.targets,
        expected.mask,
        batchSize,
      ]);
    }
    expect([shared.vocabSize, shared.outputSize]).toEqual([4, 10]);
    expect(shared.saveState()).toEqual(task.saveState());
  });
});
