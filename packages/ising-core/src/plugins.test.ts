import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  createRng,
  createSamplerRegistry,
  defineSamplerPlugin,
  estimateBatch,
  gibbsSampler,
  meanFieldSampler,
} from './index.js';
import type { IsingBatch, SampleResult, SampleSet, SamplerPlugin } from './index.js';
import { bruteForceEstimate } from './testing/index.js';
import { describeSamplerConformance } from './testing/vitest.js';

/**
 * A third-party plugin written against the public contract only: it implements `sample()` and
 * returns every state once, weighted by its unnormalized Boltzmann weight (enumerated here, with
 * nothing from the package's kernels), so the package's shared code must reproduce exact moments.
 */
function enumerate(batch: IsingBatch): SampleSet[] {
  const sets: SampleSet[] = [];
  for (let q = 0; q < batch.size; q++) {
    const n = batch.spins[q]!;
    const states = new Int8Array(2 ** n * n);
    const weights = new Float64Array(2 ** n);
    for (let s = 0; s < 2 ** n; s++) {
      let e = 0;
      for (let j = 0; j < n; j++) {
        const sj = (s >> j) & 1 ? 1 : -1;
        states[s * n + j] = sj;
        e += batch.fields[q * batch.stride + j]! * sj;
        for (let k = j + 1; k < n; k++)
          e += batch.couplings[j * batch.stride + k]! * sj * ((s >> k) & 1 ? 1 : -1);
      }
      weights[s] = Math.exp(batch.beta * e);
    }
    sets.push({ spins: n, states, weights });
  }
  return sets;
}

const capabilities = { exact: true, maxSpins: 10, async: false, deterministic: true };
const enumeratingPlugin = defineSamplerPlugin<{ label?: string }>({
  name: 'test-local:enumerate',
  version: '1.0.0',
  description: 'Sample-only plugin defined outside the package (test fixture).',
  capabilities,
  create: () => ({
    name: 'test-local:enumerate',
    capabilities,
    sample: (batch): SampleResult => ({ kind: 'samples', sets: enumerate(batch) }),
  }),
});

const asyncCapabilities = { ...capabilities, async: true };
const asyncPlugin: SamplerPlugin = {
  name: 'test-local:enumerate-async',
  version: '1.0.0',
  capabilities: asyncCapabilities,
  create: () => ({
    name: 'test-local:enumerate-async',
    capabilities: asyncCapabilities,
    // A remote service answers later: resolve on a timer, not synchronously.
    sample: (batch) =>
      new Promise<SampleResult>((resolve) =>
        setTimeout(() => resolve({ kind: 'samples', sets: enumerate(batch) }), 1),
      ),
    dispose: async () => undefined,
  }),
};

describe('a plugin defined outside the package', () => {
  it('should work through the registry and the dispatcher, giving exact moments and VJPs', async () => {
    const registry = createSamplerRegistry()
      .register(gibbsSampler)
      .register(meanFieldSampler)
      .register(enumeratingPlugin)
      .register(asyncPlugin)
      .freeze();
    expect(registry.list().map((p) => p.name)).toEqual([
      'gibbs',
      'mean-field',
      'test-local:enumerate',
      'test-local:enumerate-async',
    ]);
    const rng = createRng(9);
    const fields = Float64Array.from({ length: 3 * 36 }, () => rng.normal());
    const couplings = Float64Array.from({ length: 36 }, () => rng.normal() * 0.7);
    const batch = causalBatch(fields, couplings, { batch: 3, length: 6 }, 0.9);
    const reference = bruteForceEstimate(batch);
    const grad = Float64Array.from({ length: 3 * 36 }, () => rng.normal());
    const want = reference.vjp(grad);
    for (const name of ['test-local:enumerate', 'test-local:enumerate-async']) {
      const sampler = registry.require(name).create({ label: 'x' });
      const pending = estimateBatch(sampler, batch);
      expect(pending instanceof Promise, name).toBe(name.endsWith('async'));
      const estimate = await pending;
      estimate.magnetization.forEach((v, i) =>
        expect(Math.abs(v - reference.magnetization[i]!)).toBeLessThan(1e-12),
      );
      const got = estimate.vjp(grad);
      got.fields.forEach((v, i) => expect(Math.abs(v - want.fields[i]!)).toBeLessThan(1e-12));
      got.couplings.forEach((v, i) => expect(Math.abs(v - want.couplings[i]!)).toBeLessThan(1e-12));
      await sampler.dispose?.();
    }
  });

  it('should be refused by the dispatcher above its own spin limit', () => {
    const sampler = enumeratingPlugin.create();
    const batch = causalBatch(new Float64Array(11 * 11), new Float64Array(11 * 11), {
      batch: 1,
      length: 11,
    });
    expect(() => estimateBatch(sampler, batch)).toThrowError(
      expect.objectContaining({ code: 'ISING_TOO_MANY_SPINS' }),
    );
    expect(() => estimateBatch(sampler, batch)).toThrow(/test-local:enumerate.*11 spins.*limit 10/);
  });
});

describeSamplerConformance(enumeratingPlugin, {
  tolerance: { magnetization: 1e-12, gradient: 1e-12 },
});
describeSamplerConformance(asyncPlugin, { tolerance: { magnetization: 1e-12, gradient: 1e-12 } });

describe('plugin options', () => {
  it('the built-in plugins reject unknown and misspelt option keys with a coded error', async () => {
    const { exactSampler, assertPluginOptions } = await import('./index.js');
    for (const [plugin, bad] of [
      [exactSampler, { maxSpin: 20 }],
      [gibbsSampler, { chain: 4 }],
      [meanFieldSampler, { dampning: 0.3 }],
    ] as const) {
      const create = () => (plugin as SamplerPlugin<Record<string, unknown>>).create(bad);
      expect(create).toThrow(
        expect.objectContaining({ name: 'IsingError', code: 'ISING_INVALID_ARGUMENT' }),
      );
      expect(create).toThrow(new RegExp(`unknown option "${Object.keys(bad)[0]}"`));
      expect(() => (plugin as SamplerPlugin<unknown>).create([])).toThrow(/must be an object/);
    }
    expect(() => gibbsSampler.create({ chains: 2, seed: 1 })).not.toThrow();
    expect(() => assertPluginOptions('mine', { a: 1, b: 2, c: 3 }, ['a'])).toThrow(
      'mine: unknown options "b", "c"; known options: a',
    );
    expect(() => assertPluginOptions('mine', undefined, [])).not.toThrow();
  });

  it('optionKeys lists the keys of an options interface, and the type checker rejects a missing or extra key', async () => {
    const { optionKeys } = await import('./index.js');
    interface Mine {
      readonly shots?: number;
      readonly seed?: number;
    }
    expect(optionKeys<Mine>({ shots: true, seed: true })).toEqual(['shots', 'seed']);
    // @ts-expect-error `seed` is missing: the list would fall out of step with the interface.
    expect(optionKeys<Mine>({ shots: true })).toEqual(['shots']);
    // @ts-expect-error `shot` is not a key of Mine.
    expect(optionKeys<Mine>({ shots: true, seed: true, shot: true })).toHaveLength(3);
  });
});
