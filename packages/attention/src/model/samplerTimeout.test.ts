// An asynchronous (remote) sampler is awaited with a deadline, and its failures, whatever value
// it rejects with, become readable coded errors.
import type { Sampler } from '@boltzmann/ising-core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_SAMPLER_TIMEOUT_MS,
  createTrainer,
  createTransformer,
  evaluate,
  initBackend,
  isAttentionError,
  loadTransformer,
  prepareEstimates,
} from '../index.js';
import { createDelayedSampler, createReferenceSampler } from '../testing/referenceSampler.js';
import { batchOf, tiny } from '../testing/testUtils.js';

const reference = createReferenceSampler();
/** A remote sampler whose answer never comes. */
const silent: Sampler = {
  name: 'silent-remote',
  capabilities: { ...reference.capabilities, async: true },
  estimate: () => new Promise(() => undefined),
};
const rejecting = (value: unknown): Sampler => ({
  name: 'odd-remote',
  capabilities: { ...reference.capabilities, async: true },
  estimate: () => Promise.reject(value),
});

const shape = { batch: 1, heads: 1, length: 3 };
const fields = new Float32Array(9).fill(0.1);
const couplings = new Float32Array(9).fill(0.2);

/** What `promise` rejects with; `'hung'` when it has not settled within `ms` (the bug this file is about). */
async function outcome(promise: Promise<unknown>, ms = 5_000): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise((resolve) => {
    timer = setTimeout(() => resolve('hung'), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => 'resolved',
        (e: unknown) => e,
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function expectTimeout(error: unknown, ms: number): void {
  expect(isAttentionError(error, 'ATTENTION_SAMPLER_TIMEOUT'), String(error)).toBe(true);
  expect((error as Error).message).toContain('"silent-remote"');
  expect((error as Error).message).toContain(`${ms.toLocaleString('en-US')} ms`);
}

describe('samplerTimeoutMs: a remote sampler that never answers', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('prepareEstimates waits DEFAULT_SAMPLER_TIMEOUT_MS (30 min) by default, and clears its timer once a call settles', async () => {
    expect(DEFAULT_SAMPLER_TIMEOUT_MS).toBe(30 * 60 * 1000);
    vi.useFakeTimers();
    const pending = prepareEstimates(fields, couplings, shape, silent, 1);
    const settled = pending.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(DEFAULT_SAMPLER_TIMEOUT_MS - 1);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expectTimeout(await settled, DEFAULT_SAMPLER_TIMEOUT_MS);
    expect(vi.getTimerCount()).toBe(0);
    // A call that answers leaves no timer behind (nothing keeps the process alive)…
    const quick = createDelayedSampler(reference, 5);
    const answered = prepareEstimates(fields, couplings, shape, quick, 1, { timeoutMs: 60_000 });
    await vi.advanceTimersByTimeAsync(5);
    await answered;
    expect(vi.getTimerCount()).toBe(0);
    // …nor does one that fails; and 0 or Infinity sets no deadline at all.
    await expect(
      prepareEstimates(fields, couplings, shape, rejecting(new Error('x')), 1),
    ).rejects.toThrow();
    expect(vi.getTimerCount()).toBe(0);
    for (const timeoutMs of [0, Number.POSITIVE_INFINITY]) {
      void prepareEstimates(fields, couplings, shape, silent, 1, { timeoutMs });
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it("drops the other heads' deadlines when one head fails, so nothing keeps the process alive", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const halfBroken: Sampler = {
      name: 'half-broken',
      capabilities: { ...reference.capabilities, async: true },
      // Head 0 fails at once; head 1 never answers.
      estimate: () =>
        calls++ === 0 ? Promise.reject(new Error('head 0 down')) : new Promise(() => undefined),
    };
    const twoHeads = { batch: 1, heads: 2, length: 3 };
    const error = await prepareEstimates(
      new Float32Array(18).fill(0.1),
      new Float32Array(18).fill(0.2),
      twoHeads,
      halfBroken,
      1,
    ).catch((e: unknown) => e);
    expect((error as Error).message).toContain('head 0 down');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is an option of the model, so forward, attention, evaluate and every trainer step get it', async () => {
    const model = createTransformer({ ...tiny, sampler: silent, samplerTimeoutMs: 40 });
    expect(model.toJSON().config).not.toHaveProperty('samplerTimeoutMs');
    const batch = batchOf(2, 1);
    expectTimeout(await outcome(model.forward(batch.inputs, 2)), 40);
    expectTimeout(await outcome(model.attention(batch.inputs, 2)), 40);
    expectTimeout(await outcome(evaluate(model, batch)), 40);
    const trainer = createTrainer(model, { totalSteps: 2 });
    expectTimeout(await outcome(trainer.step(batch)), 40);
    expect(trainer.stepCount).toBe(0);
    const loaded = loadTransformer(model.toJSON(), { sampler: silent, samplerTimeoutMs: 40 });
    expectTimeout(await outcome(loaded.forward(batch.inputs, 2)), 40);
    for (const m of [model, loaded]) m.dispose();
  });

  it('refuses a malformed samplerTimeoutMs with ATTENTION_INVALID_CONFIG', () => {
    for (const samplerTimeoutMs of [-1, Number.NaN, '10', 2 ** 31]) {
      let error: unknown;
      try {
        createTransformer({ ...tiny, samplerTimeoutMs: samplerTimeoutMs as number });
      } catch (e) {
        error = e;
      }
      expect(isAttentionError(error, 'ATTENTION_INVALID_CONFIG'), String(error)).toBe(true);
      expect(String(error)).toContain('samplerTimeoutMs');
    }
  });
});

describe('a sampler that rejects with something other than an Error', () => {
  it('gives ISING_SAMPLER_FAILED with the value echoed, not [object Object]', async () => {
    for (const [value, shown] of [
      [{ foo: 1 }, '{"foo":1}'],
      ['device offline', '"device offline"'],
      [undefined, 'undefined'],
    ] as const) {
      const error = await outcome(prepareEstimates(fields, couplings, shape, rejecting(value), 1));
      expect(error, String(error)).toMatchObject({ code: 'ISING_SAMPLER_FAILED' });
      const { message } = error as Error;
      expect(message).toContain('"odd-remote"');
      expect(message).toContain(shown);
      expect(message).not.toContain('[object Object]');
    }
    const model = createTransformer({ ...tiny, sampler: rejecting({ code: 503 }) });
    const stepError = await outcome(createTrainer(model, { totalSteps: 1 }).step(batchOf(2, 1)));
    expect(stepError).toMatchObject({ code: 'ISING_SAMPLER_FAILED' });
    expect(String(stepError)).toContain('{"code":503}');
    model.dispose();
  });
});
