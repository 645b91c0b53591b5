import { describe, expect, it } from 'vitest';
import { estimateFromSamples } from '../index.js';
import type {
  BatchEstimate,
  IsingBatch,
  Sampler,
  SamplerCapabilities,
  SamplerPlugin,
} from '../index.js';
import {
  ConformanceError,
  bruteForceEstimate,
  bruteForceMoments,
  conformanceBatch,
  runConformanceCheck,
} from './index.js';
import type { ConformanceCheck } from './index.js';

/** Builds a plugin around an estimate function, so each test can break one thing. */
function pluginOf(
  estimate: (batch: IsingBatch) => BatchEstimate | Promise<BatchEstimate>,
  extra: Partial<SamplerCapabilities> = {},
): SamplerPlugin {
  const capabilities = { exact: true, maxSpins: 12, async: false, deterministic: true, ...extra };
  return {
    name: 'under-test',
    version: '0.0.0',
    capabilities,
    create: (): Sampler => ({ name: 'under-test', capabilities, estimate }),
  };
}

const exact = pluginOf(bruteForceEstimate);
const passes = (check: ConformanceCheck, plugin: SamplerPlugin): Promise<void> =>
  runConformanceCheck(check, plugin, { tolerance: { magnetization: 1e-9, gradient: 1e-9 } });
/** The check rejects with a ConformanceError (no test framework's own assertion error). */
const fails = async (check: ConformanceCheck, plugin: SamplerPlugin): Promise<void> => {
  await expect(passes(check, plugin)).rejects.toBeInstanceOf(ConformanceError);
};

describe('the conformance checks', () => {
  it('should pass an exact reference sampler on every check', async () => {
    for (const check of [
      'plugin-shape',
      'create',
      'single-spin',
      'two-spin',
      'random-batch',
      'range',
      'input-intact',
      'vjp-shape',
      'vjp-accuracy',
      'determinism',
      'sync-contract',
      'spin-limit',
    ] as const) {
      await passes(check, exact);
    }
  });

  it('should catch wrong magnetizations', async () => {
    const flipped = pluginOf((batch) => {
      const e = bruteForceEstimate(batch);
      return { magnetization: e.magnetization.map((v) => -v), vjp: e.vjp };
    });
    await fails('single-spin', flipped);
    await fails('two-spin', flipped);
    await fails('random-batch', flipped);
    await expect(
      runConformanceCheck('single-spin', flipped, { exactReference: false }),
    ).rejects.toThrow();
    await runConformanceCheck(
      'single-spin',
      pluginOf((batch) => ({
        ...bruteForceEstimate(batch),
        magnetization: Float64Array.of(0.2, -0.3),
      })),
      { exactReference: false },
    );
    // Reading the lower triangle of J (which the random batch fills with noise) is caught too.
    const lower = pluginOf((batch) => {
      const transposed = Float64Array.from(
        batch.couplings,
        (_, i) =>
          batch.couplings[(i % batch.stride) * batch.stride + Math.floor(i / batch.stride)]!,
      );
      return bruteForceEstimate({ ...batch, couplings: transposed });
    });
    await fails('random-batch', lower);
  });

  it('should catch VJPs that are inaccurate or break the layout', async () => {
    const scaled = pluginOf((batch) => {
      const e = bruteForceEstimate(batch);
      return {
        magnetization: e.magnetization,
        vjp: (g) => {
          const r = e.vjp(g);
          return { fields: r.fields.map((v) => 1.01 * v), couplings: r.couplings };
        },
      };
    });
    await fails('vjp-accuracy', scaled);
    const symmetric = pluginOf((batch) => {
      const e = bruteForceEstimate(batch);
      return {
        magnetization: e.magnetization,
        vjp: (g) => {
          const r = e.vjp(g);
          const s = batch.stride;
          return {
            fields: r.fields,
            couplings: r.couplings.map((v, i) => v + r.couplings[(i % s) * s + Math.floor(i / s)]!),
          };
        },
      };
    });
    await passes('vjp-accuracy', symmetric);
    await fails('vjp-shape', symmetric);
  });

  it('should catch nonsense outside the problems, non-determinism and a broken sync contract', async () => {
    const leaky = pluginOf((batch) => ({
      ...bruteForceEstimate(batch),
      magnetization: bruteForceEstimate(batch).magnetization.map((v) => v || 0.5),
    }));
    await fails('range', leaky);
    const scribbler = pluginOf((batch) => {
      const e = bruteForceEstimate(batch);
      return {
        magnetization: e.magnetization,
        vjp: (g) => {
          const r = e.vjp(g);
          g.fill(0);
          return r;
        },
      };
    });
    await fails('input-intact', scribbler);
    await fails(
      'input-intact',
      pluginOf((batch) => {
        const e = bruteForceEstimate(batch);
        batch.couplings[1] = 0;
        return e;
      }),
    );
    let calls = 0;
    const drifting = pluginOf((batch) => {
      const e = bruteForceEstimate(batch);
      calls++;
      return { magnetization: e.magnetization.map((v) => v * (1 - calls * 1e-15)), vjp: e.vjp };
    });
    await fails('determinism', drifting);
    await passes('determinism', pluginOf(drifting.create().estimate!, { deterministic: false }));
    const secretlyAsync = pluginOf(async (batch) => bruteForceEstimate(batch));
    await fails('sync-contract', secretlyAsync);
    await passes(
      'sync-contract',
      pluginOf(async (batch) => bruteForceEstimate(batch), { async: true }),
    );
  });

  it('should use a batch whose sample-set estimate is exact (a check on the reference itself)', () => {
    const batch = conformanceBatch(1, 1, 0.5);
    const sets = Array.from({ length: batch.size }, (_, q) => {
      const n = batch.spins[q]!;
      const { probabilities } = bruteForceMoments(
        batch.fields.subarray(q * batch.stride),
        batch.couplings,
        n,
        batch.beta,
      );
      const states = Int8Array.from({ length: probabilities.length * n }, (_, i) =>
        (Math.floor(i / n) >>> (i % n)) & 1 ? 1 : -1,
      );
      return { spins: n, states, weights: probabilities };
    });
    const a = estimateFromSamples(batch, sets).magnetization;
    const b = bruteForceEstimate(batch).magnetization;
    a.forEach((v, i) => expect(Math.abs(v - b[i]!)).toBeLessThan(1e-12));
    expect(batch.size).toBe(8);
    expect(Array.from(batch.spins)).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
  });
});
