import { createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import {
  bracketTask,
  bracketTrainingTask,
  charTrainingStream,
  charValidationSet,
  createCharCorpus,
  mqar,
  mqarBatch,
  mqarTrainingTask,
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

  it('should stream mqar(seed + 0x5eed) in shuffled epochs, tested on the stream of seed 1234', () => {
    const options = {
      vocabSize: 64,
      length: 16,
      numKvPairs: 2,
      trainExamples: 10,
      testExamples: 6,
    };
    const shared = mqarTrainingTask({ ...options, seed: 2 });
    const task = mqar({ ...options, seed: 2 + 0x5eed, testSeed: 1234 });
    expect(shared.task).toEqual(task);
    expect(shared.test).toEqual(mqarBatch(task.test));
    expect([shared.vocabSize, shared.outputSize]).toEqual([64, 64]);
    // Three epochs of 10 in batches of 4: every training row once an epoch, in a new order.
    const rowOf = new Map<string, number>();
    for (let r = 0; r < 10; r++)
      rowOf.set(task.train.inputs.subarray(r * 16, (r + 1) * 16).join(), r);
    const seen: number[] = [];
    let resumeAt: readonly number[] = [];
    const after: Int32Array[] = [];
    for (let i = 0; i < 7; i++) {
      if (i === 3) resumeAt = shared.saveState(); // mid-epoch (row 12 of 30)
      const b = shared.next(4);
      if (i >= 3) after.push(b.inputs);
      expect(b).toEqual(
        mqarBatch(
          task.train,
          Array.from(
            { length: 4 },
            (_, k) => rowOf.get(b.inputs.subarray(k * 16, (k + 1) * 16).join())!,
          ),
        ),
      );
      for (let k = 0; k < 4; k++)
        seen.push(rowOf.get(b.inputs.subarray(k * 16, (k + 1) * 16).join())!);
    }
    for (const epoch of [seen.slice(0, 10), seen.slice(10, 20)])
      expect([...epoch].sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
    expect(seen.slice(0, 10)).not.toEqual(seen.slice(10, 20));
    const resumed = mqarTrainingTask({ ...options, seed: 2 });
    resumed.restoreState(resumeAt);
    for (const inputs of after) expect(resumed.next(4).inputs).toEqual(inputs);
  });
});
