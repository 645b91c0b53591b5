// The conformance checks, one function each, and the one entry point that runs a check by name.
// The checks of the estimates' values are in conformanceEstimateChecks.ts; this file holds the
// checks of the plugin contract (shape, create/dispose, inputs untouched, determinism, sync, limit).
import { expect } from 'vitest';
import { createIsingBatch } from '../batch.js';
import { estimateBatch } from '../estimateBatch.js';
import { assertSamplerPlugin } from '../registry.js';
import type { AnySamplerPlugin, IsingBatch } from '../types.js';
import { RANDOM_SHAPE, upstreamGradient } from './conformanceBatch.js';
import {
  checkRandomBatch,
  checkRange,
  checkSingleSpin,
  checkTwoSpin,
  checkVjpAccuracy,
  checkVjpShape,
} from './conformanceEstimateChecks.js';
import { settingsOf } from './conformanceOptions.js';
import type {
  ConformanceCheck,
  SamplerConformanceOptions,
  Settings,
} from './conformanceOptions.js';
import { fits, largestSpins, randomBatch, run, withSampler } from './conformanceRun.js';

/** 'plugin-shape': the plugin passes `assertSamplerPlugin` and declares well-typed capabilities. */
async function checkPluginShape(plugin: AnySamplerPlugin): Promise<void> {
  expect(() => assertSamplerPlugin(plugin)).not.toThrow();
  const c = plugin.capabilities;
  for (const key of ['exact', 'async', 'deterministic'] as const)
    expect(typeof c[key], `capabilities.${key}`).toBe('boolean');
  expect(
    Number.isInteger(c.maxSpins) || c.maxSpins === Infinity,
    'capabilities.maxSpins is an integer',
  ).toBe(true);
  expect(c.maxSpins).toBeGreaterThanOrEqual(1);
}

/** 'create': a created sampler has a name, a way to answer and a limit, and disposes twice. */
async function checkCreate(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  const sampler = plugin.create(s.createOptions);
  expect(typeof sampler.name).toBe('string');
  expect(
    typeof sampler.estimate === 'function' || typeof sampler.sample === 'function',
    'estimate or sample',
  ).toBe(true);
  expect(sampler.capabilities.maxSpins).toBeGreaterThanOrEqual(1);
  await sampler.dispose?.();
  await sampler.dispose?.();
}

/** 'input-intact': an estimate and its VJP leave the batch and the upstream gradient as they were. */
async function checkInputIntact(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  if (!(await fits(plugin, s, RANDOM_SHAPE.length))) return;
  const batch = randomBatch(s);
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
}

/** 'determinism': a deterministic sampler answers the same batch twice the same. */
async function checkDeterminism(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  if (!plugin.capabilities.deterministic || !(await fits(plugin, s, RANDOM_SHAPE.length))) return;
  const batch = randomBatch(s);
  const grad = upstreamGradient(batch, s.seed);
  const first = await run(plugin, s, batch);
  const second = await run(plugin, s, batch);
  expect(second.magnetization).toEqual(first.magnetization);
  expect(second.vjp(grad)).toEqual(first.vjp(grad));
}

/** 'sync-contract': a sampler with `async: false` answers without a promise. */
async function checkSyncContract(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
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
}

/** 'spin-limit': a problem one spin over `maxSpins` is refused with ISING_TOO_MANY_SPINS. */
async function checkSpinLimit(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
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
}

/** Every check by its name. */
const CHECKS: Readonly<
  Record<ConformanceCheck, (plugin: AnySamplerPlugin, s: Settings) => Promise<void>>
> = {
  'plugin-shape': checkPluginShape,
  create: checkCreate,
  'single-spin': checkSingleSpin,
  'two-spin': checkTwoSpin,
  'random-batch': checkRandomBatch,
  range: checkRange,
  'input-intact': checkInputIntact,
  'vjp-shape': checkVjpShape,
  'vjp-accuracy': checkVjpAccuracy,
  determinism: checkDeterminism,
  'sync-contract': checkSyncContract,
  'spin-limit': checkSpinLimit,
};

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
  // An unknown name (from untyped code) runs nothing, as no check matches it.
  if (Object.hasOwn(CHECKS, check)) await CHECKS[check](plugin, s);
}
