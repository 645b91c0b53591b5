// Each experiment module declares the metric of its runs (by the dataset they train on), read
// through the registry by the training session.
import { describe, expect, it } from 'vitest';
import type { DatasetName, Experiment, RunConfig } from '../types.js';
import { EXPERIMENTS } from './registry.js';

const config = (experiment: Experiment, dataset: DatasetName) =>
  ({ experiment, dataset }) as RunConfig;

describe('experiment metrics', () => {
  it('shakespeare and gpt report perplexity, brackets accuracy, dqa by its run’s dataset', () => {
    const name = (experiment: Experiment, dataset: DatasetName) =>
      EXPERIMENTS[experiment].metric(config(experiment, dataset)).name;
    expect(name('shakespeare', 'shakespeare')).toBe('perplexity');
    expect(name('gpt', 'shakespeare')).toBe('perplexity');
    expect(name('brackets', 'brackets')).toBe('accuracy');
    expect(name('dqa', 'shakespeare')).toBe('perplexity');
    expect(name('dqa', 'brackets')).toBe('accuracy');
  });

  it('perplexity is exp of the loss; accuracy the share right, NaN with nothing counted', () => {
    const e = { loss: Math.log(12), correct: 3, count: 4 };
    expect(EXPERIMENTS.shakespeare.metric(config('shakespeare', 'shakespeare')).of(e)).toBeCloseTo(
      12,
    );
    expect(EXPERIMENTS.brackets.metric(config('brackets', 'brackets')).of(e)).toBe(0.75);
    const none = { ...e, count: 0 };
    expect(EXPERIMENTS.brackets.metric(config('brackets', 'brackets')).of(none)).toBeNaN();
  });
});
