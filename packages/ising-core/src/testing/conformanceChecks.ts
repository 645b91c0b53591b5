// The conformance checks, one function each, and the one entry point that runs a check by name.
// The checks of the estimates' values are in conformanceEstimateChecks.ts; this file holds the
// checks of the plugin contract (shape, create/dispose, inputs untouched, determinism, sync, limit).
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
import { ensure, ensureRejectsWithCode, ensureSame, ensureSameArray } from './conformanceAssert.js';
import { settingsOf } from './conformanceOptions.js';
import type {
  ConformanceCheck,
  SamplerConformanceOptions,
  Settings,
} from './conformanceOptions.js';
import { fits, largestSpins, randomBatch, run, withSampler } from './conformanceRun.js';

/** 'plugin-shape': the plugin passes `assertSamplerPlugin` and declares well-typed capabilities. */
async function checkPluginShape(plugin: AnySamplerPlugin): Promise<void> {
  assertSamplerPlugin(plugin);
  const c = plugin.capabilities;
  for (const key of ['exact', 'async', 'deterministic'] as const)
    ensureSame(typeof c[key], 'boolean', `typeof capabilities.${key}`);
  ensure(
    Number.isInteger(c.maxSpins) || c.maxSpins === Infinity,
    `capabilities.maxSpins is an integer, got ${c.maxSpins}`,
  );
  ensure(c.maxSpins >= 1, `capabilities.maxSpins is at least 1, got ${c.maxSpins}`);
}

/** 'create': a created sampler has a name, a way to answer and a limit, and disposes twice. */
async function checkCreate(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  const sampler = plugin.create(s.createOptions);
  ensureSame(typeof sampler.name, 'string', 'typeof sampler.name');
  ensure(
    typeof sampler.estimate === 'function' || typeof sampler.sample === 'function',
    'the sampler has estimate or sample',
  );
  const { maxSpins } = sampler.capabilities;
  ensure(maxSpins >= 1, `the sampler's capabilities.maxSpins is at least 1, got ${maxSpins}`);
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
  ensureSameArray(batch.fields, copy.fields, 'the batch fields are not modified');
  ensureSameArray(batch.couplings, copy.couplings, 'the batch couplings are not modified');
  ensureSameArray(batch.spins, copy.spins, 'the batch spin counts are not modified');
  ensureSameArray(grad, gradCopy, 'the upstream gradient is not modified');
}

/** 'determinism': a deterministic sampler answers the same batch twice the same. */
async function checkDeterminism(plugin: AnySamplerPlugin, s: Settings): Promise<void> {
  if (!plugin.capabilities.deterministic || !(await fits(plugin, s, RANDOM_SHAPE.length))) return;
  const batch = randomBatch(s);
  const grad = upstreamGradient(batch, s.seed);
  const first = await run(plugin, s, batch);
  const second = await run(plugin, s, batch);
  ensureSameArray(second.magnetization, first.magnetization, 'the second magnetizations');
  const [again, once] = [second.vjp(grad), first.vjp(grad)];
  ensureSameArray(again.fields, once.fields, 'the second ∂L/∂h');
  ensureSameArray(again.couplings, once.couplings, 'the second ∂L/∂J');
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
      ensure(!isPromise, 'a sampler with async: false answers synchronously, not with a promise');
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
    const what = `a problem of ${stride} spins (maxSpins ${limit})`;
    await ensureRejectsWithCode(() => estimateBatch(sampler, batch), 'ISING_TOO_MANY_SPINS', what);
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
 * Runs one conformance check against a plugin; rejects on the first violation with a {@link
 * ConformanceError} saying what was expected and what came back.
 *
 * No test framework is needed: call it from vitest, `node:test`, Jest or a script. Checks that
 * need more spins than the sampler allows, or an exact reference when `exactReference` is false,
 * pass without asserting.
 *
 * @param check the check to run.
 * @param plugin the plugin under test.
 * @param options the suite's options.
 * @returns a promise that settles when the check is done.
 * @throws {ConformanceError} the first violation (as a rejection); the plugin's own errors
 *   (`assertSamplerPlugin`'s ISING_INVALID_PLUGIN for a malformed plugin).
 * @example
 * import { gibbsSampler } from '@boltzmann/ising-core';
 * import { runConformanceCheck } from '@boltzmann/ising-core/testing';
 *
 * await runConformanceCheck('two-spin', gibbsSampler, { createOptions: { seed: 1 } }); // throws if it fails
 * @category Conformance
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
