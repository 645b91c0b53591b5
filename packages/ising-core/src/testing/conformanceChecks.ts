import { expect } from 'vitest';
import { createIsingBatch } from '../batch.js';
import { estimateBatch } from '../estimateBatch.js';
import { assertSamplerPlugin } from '../registry.js';
import type { AnySamplerPlugin, BatchEstimate, IsingBatch, Sampler } from '../types.js';
import { bruteForceEstimate } from './bruteForce.js';
import {
  conformanceBatch,
  RANDOM_SHAPE,
  twoSpinExact,
  upstreamGradient,
} from './conformanceBatch.js';
import { settingsOf } from './conformanceOptions.js';
import type {
  ConformanceCheck,
  SamplerConformanceOptions,
  Settings,
} from './conformanceOptions.js';

async function withSampler<T>(
  plugin: AnySamplerPlugin,
  s: Settings,
  use: (sampler: Sampler) => Promise<T>,
): Promise<T> {
  const sampler = plugin.create(s.createOptions);
  try {
    return await use(sampler);
  } finally {
    await sampler.dispose?.();
  }
}

const run = (plugin: AnySamplerPlugin, s: Settings, batch: IsingBatch): Promise<BatchEstimate> =>
  withSampler(plugin, s, async (sampler) => estimateBatch(sampler, batch));

function expectUsedClose(
  batch: IsingBatch,
  actual: Float64Array,
  expected: Float64Array,
  tolerance: number,
  what: string,
): void {
  for (let q = 0; q < batch.size; q++) {
    for (let j = 0; j < batch.spins[q]!; j++) {
      const i = q * batch.stride + j;
      expect(
        Math.abs(actual[i]! - expected[i]!),
        `${what} of problem ${q}, spin ${j}: got ${actual[i]}, exact ${expected[i]}`,
      ).toBeLessThanOrEqual(tolerance);
    }
  }
}

const largestSpins = (plugin: AnySamplerPlugin, s: Settings): Promise<number> =>
  withSampler(plugin, s, async (sampler) => sampler.capabilities.maxSpins);

/**
 * Runs one conformance check against a plugin with `expect` assertions; rejects on the first
 * violation. Checks that need more spins than the sampler allows, or an exact reference when
 * `exactReference` is false, pass without asserting.
 *
 * @param check the check to run.
 * @param plugin the plugin under test.
 * @param options the suite's options.
 * @returns a promise that settles when the check is done.
 * @throws the vitest assertion error of the first violation (as a rejection).
 * @example
 * await runConformanceCheck('two-spin', myPlugin, { createOptions: { seed: 1 } });
 */
export async function runConformanceCheck(
  check: ConformanceCheck,
  plugin: AnySamplerPlugin,
  options: SamplerConformanceOptions = {},
): Promise<void> {
  const s = settingsOf(options);
  const randomBatch = (): IsingBatch => conformanceBatch(s.seed, s.fieldScale, s.couplingScale);
  const fits = async (spins: number): Promise<boolean> => (await largestSpins(plugin, s)) >= spins;
  switch (check) {
    case 'plugin-shape': {
      expect(() => assertSamplerPlugin(plugin)).not.toThrow();
      const c = plugin.capabilities;
      for (const key of ['exact', 'async', 'deterministic'] as const)
        expect(typeof c[key], `capabilities.${key}`).toBe('boolean');
      expect(
        Number.isInteger(c.maxSpins) || c.maxSpins === Infinity,
        'capabilities.maxSpins is an integer',
      ).toBe(true);
      expect(c.maxSpins).toBeGreaterThanOrEqual(1);
      return;
    }
    case 'create': {
      const sampler = plugin.create(s.createOptions);
      expect(typeof sampler.name).toBe('string');
      expect(
        typeof sampler.estimate === 'function' || typeof sampler.sample === 'function',
        'estimate or sample',
      ).toBe(true);
      expect(sampler.capabilities.maxSpins).toBeGreaterThanOrEqual(1);
      await sampler.dispose?.();
      await sampler.dispose?.();
      return;
    }
    case 'single-spin': {
      const batch = createIsingBatch({
        fields: Float64Array.of(4, -4),
        couplings: new Float64Array(1),
        spins: [1, 1],
        stride: 1,
      });
      const { magnetization } = await run(plugin, s, batch);
      if (s.exactReference)
        expectUsedClose(
          batch,
          magnetization,
          Float64Array.of(Math.tanh(4), -Math.tanh(4)),
          s.magnetization,
          'magnetization',
        );
      else
        expect(
          [magnetization[0]! > 0, magnetization[1]! < 0],
          'each spin follows the sign of its field',
        ).toEqual([true, true]);
      return;
    }
    case 'two-spin': {
      if (!(await fits(2))) return;
      const batch = createIsingBatch({
        fields: Float64Array.of(0.3, -0.1),
        couplings: Float64Array.of(0, 0.8, 0, 0),
        spins: [2],
        stride: 2,
      });
      const { magnetization } = await run(plugin, s, batch);
      if (s.exactReference)
        expectUsedClose(
          batch,
          magnetization,
          Float64Array.from(twoSpinExact()),
          s.magnetization,
          'magnetization',
        );
      else
        for (const v of magnetization.subarray(0, 2))
          expect(Number.isFinite(v) && Math.abs(v) <= 1 + 1e-12, `magnetization ${v}`).toBe(true);
      return;
    }
    case 'random-batch': {
      if (!(await fits(RANDOM_SHAPE.length)) || !s.exactReference) return;
      const batch = randomBatch();
      const { magnetization } = await run(plugin, s, batch);
      expectUsedClose(
        batch,
        magnetization,
        bruteForceEstimate(batch).magnetization,
        s.magnetization,
        'magnetization',
      );
      return;
    }
    case 'range': {
      if (!(await fits(RANDOM_SHAPE.length))) return;
      const batch = randomBatch();
      const { magnetization } = await run(plugin, s, batch);
      expect(magnetization.length).toBe(batch.size * batch.stride);
      magnetization.forEach((v, i) => {
        const used = i % batch.stride < batch.spins[Math.floor(i / batch.stride)]!;
        if (!used) expect(v, `magnetization[${i}] beyond the problem`).toBe(0);
        else
          expect(
            Number.isFinite(v) && Math.abs(v) <= 1 + 1e-12,
            `magnetization[${i}] = ${v} in [-1, 1]`,
          ).toBe(true);
      });
      return;
    }
    case 'input-intact': {
      if (!(await fits(RANDOM_SHAPE.length))) return;
      const batch = randomBatch();
      const copy = {
        fields: Float64Array.from(batch.fields),
        couplings: Float64Array.from(batch.couplings),
        spins: Int32Array.from(batch.spins),
      };
      const grad = upstreamGradient(batch, s.seed);
      const gradCopy = Float64Array.from(grad);
      (await run(plugin, s, batch)).vjp(grad);
      expect(batch.fields, 'the batch fields are not modified').toEqual(copy.fields);
      expect(batch.couplings, 'the batch couplings are not modified').toEqual(copy.couplings);
      expect(batch.spins, 'the batch spin counts are not modified').toEqual(copy.spins);
      expect(grad, 'the upstream gradient is not modified').toEqual(gradCopy);
      return;
    }
    case 'vjp-shape':
    case 'vjp-accuracy': {
      if (!(await fits(RANDOM_SHAPE.length)) || (check === 'vjp-accuracy' && !s.exactReference))
        return;
      const batch = randomBatch();
      const grad = upstreamGradient(batch, s.seed);
      const { fields, couplings } = (await run(plugin, s, batch)).vjp(grad);
      const { stride } = batch;
      if (check === 'vjp-accuracy') {
        const want = bruteForceEstimate(batch).vjp(grad);
        expectUsedClose(batch, fields, want.fields, s.gradient, '∂L/∂h');
        for (let k = 0; k < stride; k++) {
          for (let l = k + 1; l < stride; l++) {
            const got = couplings[k * stride + l]!;
            const exact = want.couplings[k * stride + l]!;
            expect(
              Math.abs(got - exact),
              `∂L/∂J[${k},${l}]: got ${got}, exact ${exact}`,
            ).toBeLessThanOrEqual(s.gradient);
          }
        }
        return;
      }
      expect(fields).toBeInstanceOf(Float64Array);
      expect(couplings).toBeInstanceOf(Float64Array);
      expect(fields.length).toBe(batch.size * stride);
      expect(couplings.length).toBe(stride * stride);
      fields.forEach((v, i) => {
        const used = i % stride < batch.spins[Math.floor(i / stride)]!;
        if (used) expect(Number.isFinite(v), `∂L/∂h[${i}] finite`).toBe(true);
        else expect(v, `∂L/∂h[${i}] beyond the problem`).toBe(0);
      });
      couplings.forEach((v, i) => {
        if (Math.floor(i / stride) >= i % stride)
          expect(v, `∂L/∂J[${Math.floor(i / stride)},${i % stride}] on or below the diagonal`).toBe(
            0,
          );
        else expect(Number.isFinite(v), `∂L/∂J entry ${i} finite`).toBe(true);
      });
      return;
    }
    case 'determinism': {
      if (!plugin.capabilities.deterministic || !(await fits(RANDOM_SHAPE.length))) return;
      const batch = randomBatch();
      const grad = upstreamGradient(batch, s.seed);
      const first = await run(plugin, s, batch);
      const second = await run(plugin, s, batch);
      expect(second.magnetization).toEqual(first.magnetization);
      expect(second.vjp(grad)).toEqual(first.vjp(grad));
      return;
    }
    case 'sync-contract': {
      const batch = createIsingBatch({
        fields: Float64Array.of(0.5),
        couplings: new Float64Array(1),
        spins: [1],
        stride: 1,
      });
      await withSampler(plugin, s, async (sampler) => {
        const result = estimateBatch(sampler, batch);
        const isPromise = typeof (result as { then?: unknown }).then === 'function';
        if (!sampler.capabilities.async)
          expect(isPromise, 'a sampler with async: false answers synchronously').toBe(false);
        await result;
      });
      return;
    }
    case 'spin-limit': {
      const limit = await largestSpins(plugin, s);
      // A refused batch must still be well formed; beyond 8192 spins its couplings alone need 0.5 GiB.
      if (!(limit < 8192)) return;
      const stride = limit + 1;
      const batch: IsingBatch = {
        size: 1,
        stride,
        spins: Int32Array.of(stride),
        fields: new Float64Array(stride),
        couplings: new Float64Array(stride * stride),
        beta: 1,
      };
      await withSampler(plugin, s, async (sampler) => {
        await expect((async () => estimateBatch(sampler, batch))()).rejects.toMatchObject({
          code: 'ISING_TOO_MANY_SPINS',
        });
      });
      return;
    }
  }
}
