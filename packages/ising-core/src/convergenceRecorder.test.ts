import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  createRng,
  estimateBatch,
  exactSampler,
  meanFieldSampler,
  mergeConvergence,
  recordConvergence,
  tapSampler,
  transferMatrixSampler,
} from './index.js';
import { recordingOf } from './convergenceRecorder.js';
import { shardRecipeOf } from './internal/pool/shardRecipe.js';
import type { BatchEstimate } from './index.js';

function batchOf(seed: number, couplingScale: number) {
  const rng = createRng(seed);
  const T = 6;
  const fields = Float64Array.from({ length: 2 * T * T }, () => rng.normal());
  const couplings = Float64Array.from({ length: T * T }, () => rng.normal() * couplingScale);
  return causalBatch(fields, couplings, { batch: 2, length: T });
}

describe('recordConvergence', () => {
  it('keeps the recipe of every built-in sampler, so other threads may rebuild it; a plugin’s has none', () => {
    for (const inner of [
      exactSampler.create(),
      transferMatrixSampler.create({ bandwidth: 3 }),
      meanFieldSampler.create(),
      tapSampler.create(),
    ]) {
      expect(shardRecipeOf(inner)).toBeDefined();
      expect(shardRecipeOf(recordConvergence(inner))).toEqual(shardRecipeOf(inner));
    }
    expect(shardRecipeOf(recordConvergence({ ...tapSampler.create() }))).toBeUndefined();
  });

  it('absorbs the figures other threads recorded as if its own calls had made them', () => {
    const options = { onNonConvergence: 'return' as const, maxIterations: 40 };
    const whole = recordConvergence(tapSampler.create(options));
    const [here, there] = [0, 1].map(() => recordConvergence(tapSampler.create(options)));
    // Two calls here and one on another thread, against the same three calls in one recorder.
    for (const [sampler, seed] of [
      [here, 4],
      [there, 5],
      [here, 6],
    ] as const) {
      estimateBatch(sampler!, batchOf(seed, 0.9));
      estimateBatch(whole, batchOf(seed, 0.9));
    }
    const reference = whole.drain()!;
    here!.absorb(there!.drain());
    here!.absorb(undefined);
    const merged = here!.drain()!;
    expect({ ...merged, meanIterations: 0 }).toEqual({ ...reference, meanIterations: 0 });
    expect(merged.meanIterations).toBeCloseTo(reference.meanIterations, 12);
    expect(recordingOf(here)).toBe(here);
    expect(recordingOf(tapSampler.create())).toBeUndefined();
  });

  it('sums the diagnostics of every call until drained, and passes answers through', () => {
    const inner = meanFieldSampler.create({ onNonConvergence: 'return' });
    const sampler = recordConvergence(inner);
    expect(sampler.name).toBe('mean-field');
    const batch = batchOf(1, 0.2);
    const direct = estimateBatch(inner, batch) as BatchEstimate;
    const viaWrapper = estimateBatch(sampler, batch) as BatchEstimate;
    expect(viaWrapper.magnetization).toEqual(direct.magnetization);
    estimateBatch(sampler, batch);
    const summary = sampler.drain()!;
    const d = direct.diagnostics!;
    const its = Array.from(d.iterations);
    expect(summary).toEqual({
      calls: 2,
      problems: 2 * its.length,
      missed: 2 * d.missed,
      maxResidual: Math.max(...Array.from(d.residual)),
      meanIterations: its.reduce((a, b) => a + b, 0) / its.length,
      maxIterations: Math.max(...its),
    });
    expect(sampler.drain()).toBeUndefined();
  });

  it('counts problems that missed the tolerance, and reports nothing for samplers without diagnostics', () => {
    const hard = recordConvergence(
      meanFieldSampler.create({
        maxIterations: 2,
        tolerance: 1e-14,
        damping: 0.9,
        onNonConvergence: 'return',
      }),
    );
    estimateBatch(hard, batchOf(2, 1.5));
    expect(hard.drain()!.missed).toBeGreaterThan(0);
    const exact = recordConvergence(exactSampler.create());
    estimateBatch(exact, batchOf(3, 0.5));
    expect(exact.drain()).toBeUndefined();
  });
});

describe('mergeConvergence', () => {
  it('adds counts, keeps maxima and weights the mean iterations by problems', () => {
    const a = {
      calls: 1,
      problems: 10,
      missed: 1,
      maxResidual: 1e-9,
      meanIterations: 20,
      maxIterations: 40,
    };
    const b = {
      calls: 2,
      problems: 30,
      missed: 0,
      maxResidual: 1e-11,
      meanIterations: 10,
      maxIterations: 50,
    };
    expect(mergeConvergence(a, b)).toEqual({
      calls: 3,
      problems: 40,
      missed: 1,
      maxResidual: 1e-9,
      meanIterations: 12.5,
      maxIterations: 50,
    });
    expect(mergeConvergence(undefined, b)).toBe(b);
    expect(mergeConvergence(a, undefined)).toBe(a);
  });
});
