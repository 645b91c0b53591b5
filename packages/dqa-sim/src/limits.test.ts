import { readFileSync } from 'node:fs';
import { createIsingBatch, createRng } from '@boltzmann/ising-core';
import { codeOf, thrownBy } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import {
  DQA_MAX_SHOTS,
  DQA_MAX_STEPS,
  annealDistribution,
  dqaSampler,
  effectiveTemperature,
  sampleShots,
  toQasm3,
} from './index.js';

const messageOf = (run: () => unknown): string => thrownBy(run).message;

const huge = 'x'.repeat(200_000);

describe('shot limits', () => {
  it('refuses shots: 1e12 with DQA_INVALID_ARGUMENT naming the maximum, in create and in sampleShots', () => {
    expect(codeOf(() => dqaSampler.create({ shots: 1e12 }))).toBe('DQA_INVALID_ARGUMENT');
    expect(messageOf(() => dqaSampler.create({ shots: 1e12 }))).toMatch(
      /shots must be an integer in \[0, 16,777,216\].*got 1000000000000$/,
    );
    expect(codeOf(() => sampleShots(Float64Array.of(0.5, 0.5), 1, 1e12, createRng(1)))).toBe(
      'DQA_INVALID_ARGUMENT',
    );
    expect(
      messageOf(() => sampleShots(Float64Array.of(0.5, 0.5), 1, 2 ** 24 + 1, createRng(1))),
    ).toMatch(/\[1, 16,777,216\]/);
    const batch = createIsingBatch({
      fields: Float64Array.of(0.3),
      couplings: new Float64Array(1),
      spins: [1],
      stride: 1,
    });
    const result = dqaSampler.create({ shots: 1000, tau: 1, steps: 8 }).sample!(batch);
    expect(result).toMatchObject({ kind: 'samples' });
  });
});

describe('dqa-sim errors echo user values in bounded form', () => {
  it('keeps messages short for 200,000-character option values and inputs', () => {
    const messages = [
      messageOf(() => dqaSampler.create({ seed: huge as unknown as number })),
      messageOf(() => dqaSampler.create({ shots: huge as unknown as number })),
      messageOf(() => dqaSampler.create({ tau: huge as unknown as number })),
      messageOf(() => dqaSampler.create({ calibrate: huge as 'linear-response' })),
      messageOf(() => dqaSampler.create({ schedule: huge as 'linear' })),
      messageOf(() => dqaSampler.create({ schedule: { A: huge, B: 'u' } })),
      messageOf(() => dqaSampler.create({ [huge]: 1 } as never)),
      messageOf(() => effectiveTemperature(huge as unknown as number)),
      messageOf(() => toQasm3({ fields: [0.1] }, { dialect: huge as 'braket' })),
      messageOf(() => annealDistribution({ fields: [huge as unknown as number] })),
    ];
    for (const message of messages) {
      expect(message).not.toBe('no error');
      expect(message.length, message.slice(0, 80)).toBeLessThan(500);
    }
  });

  it('refuses absurdly nested options (60,000 deep) with DQA_INVALID_ARGUMENT instead of a stack overflow', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 60_000; i++) deep = { A: deep };
    expect(codeOf(() => dqaSampler.create({ schedule: deep as never }))).toBe(
      'DQA_INVALID_ARGUMENT',
    );
  });
});

describe('step limits', () => {
  it('refuses steps above DQA_MAX_STEPS before allocating, in every entry point', () => {
    expect(DQA_MAX_STEPS).toBe(1_048_576);
    expect(DQA_MAX_SHOTS).toBe(16_777_216);
    const runs = [
      () => dqaSampler.create({ steps: DQA_MAX_STEPS + 1 }),
      () => dqaSampler.create({ steps: 2 ** 40 }),
      () => annealDistribution({ fields: [0.1] }, { steps: 1e9 }),
      () => toQasm3({ fields: [0.1] }, { steps: 2 ** 40 }),
    ];
    for (const run of runs) {
      expect(codeOf(run)).toBe('DQA_INVALID_ARGUMENT');
      expect(messageOf(run)).toMatch(/steps must be an integer in \[1, 1,048,576\]/);
    }
    expect(codeOf(() => dqaSampler.create({ steps: 1024 }))).toBe('no error');
  });

  it('the README states the maxima', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const value of [DQA_MAX_STEPS, DQA_MAX_SHOTS])
      expect(readme).toContain(value.toLocaleString('en-US'));
  });
});
