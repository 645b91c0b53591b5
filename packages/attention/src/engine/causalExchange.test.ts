// When a block's independent work runs around the causal op: while an asynchronous sampler is
// pending (after it was called, before its answer), or after a synchronous one, exactly once.
import type { BatchEstimate, Sampler } from '@boltzmann/ising-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransformer, initBackend } from '../index.js';
import { createReferenceSampler } from '../testing/referenceSampler.js';
import { gpt } from '../testing/testUtils.js';
import { forwardAround } from './causalExchange.js';
import type { CausalBuffers, CausalSource } from './causalExchange.js';

let model: ReturnType<typeof createTransformer>;
beforeAll(async () => {
  await initBackend('cpu', { log: () => {} });
  model = createTransformer({ ...gpt, variant: 'boltzmann' });
});
afterAll(() => model.dispose());

/** A sampler that logs its calls and answers; asynchronous ones answer on a later timer tick. */
function loggingSampler(async: boolean, log: string[]): Sampler {
  const inner = createReferenceSampler();
  return {
    name: 'logging',
    capabilities: { ...inner.capabilities, async },
    estimate(batch) {
      log.push('called');
      const answer = () => {
        log.push('answered');
        return inner.estimate!(batch) as BatchEstimate;
      };
      return async ? new Promise((resolve) => setTimeout(() => resolve(answer()), 5)) : answer();
    },
  };
}

/** One block's buffers for 2 sequences of the model's length, with small random fields. */
function buffers(): CausalBuffers {
  const { heads, maxLength: t } = model.config;
  const size = 2 * heads * t * t;
  const h = Float32Array.from({ length: size }, (_, i) => Math.sin(i) * 0.3);
  const zeros = () => new Float32Array(size);
  const j = new Float32Array(heads * t * t);
  return { batch: 2, length: t, h, w: zeros(), gw: zeros(), gh: zeros(), j, gj: j.slice() };
}

async function order(async: boolean, fail = false): Promise<string[]> {
  const log: string[] = [];
  const src: CausalSource = {
    k: undefined as never, // the op reads only the buffers
    config: model.config,
    sampler: loggingSampler(async, log),
    samplerTimeoutMs: 10_000,
  };
  const independent = () => {
    log.push('independent');
    if (fail) throw new Error('independent work failed');
  };
  await forwardAround(src, buffers(), independent, () => log.push('after'));
  return log;
}

describe('the independent work around the causal op', () => {
  it('runs while an asynchronous sampler is pending: after every head was called, before any answer', async () => {
    const log = await order(true);
    const heads = model.config.heads;
    expect(log).toEqual([
      ...Array<string>(heads).fill('called'),
      'independent',
      ...Array<string>(heads).fill('answered'),
      'after',
    ]);
  });

  it('runs once after a synchronous sampler has answered and the weights are out', async () => {
    const log = await order(false);
    expect(log.filter((x) => x === 'independent')).toHaveLength(1);
    expect(log.at(-2)).toBe('after');
    expect(log.at(-1)).toBe('independent');
  });

  it('a failure in the work fails the pass with its error, never as an unhandled rejection', async () => {
    await expect(order(true, true)).rejects.toThrow('independent work failed');
    await new Promise((resolve) => setTimeout(resolve, 20)); // the sampler's timers run out
  });
});
