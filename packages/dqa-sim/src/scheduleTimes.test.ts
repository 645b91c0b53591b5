import { createIsingBatch } from '@boltzmann/ising-core';
import { thrownBy } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import {
  annealDistribution,
  annealStatevector,
  calibrationGains,
  compileSchedule,
  dqaSampler,
  effectiveTemperature,
  toQasm3,
} from './index.js';

// With the default 64 steps the anneal evaluates the schedule at the Trotter midpoints
// u_k = (k + ½)/64. The first is 0.0078125, which no point i/1000 of the 1001-point grid hits.
const FIRST_MIDPOINT = 0.5 / 64;

/** Singular at the first midpoint, finite at every grid point. */
const singular = { A: `1/(u - ${FIRST_MIDPOINT})`, B: 'u' };

/** NaN exactly at the midpoints of a 64-step anneal (u · 128 odd) and nowhere else. */
const nanAtMidpoints = {
  A: (u: number) => ((u * 128) % 2 === 1 ? Number.NaN : 1 - u),
  B: (u: number) => u,
};

describe('schedules are checked at the exact times the anneal evaluates', () => {
  it('refuses a schedule singular at a Trotter midpoint with DQA_BAD_SCHEDULE naming u and t', () => {
    // The 1001-point grid check alone cannot see these schedules.
    expect(() => compileSchedule(singular)).not.toThrow();
    expect(() => compileSchedule(nanAtMidpoints)).not.toThrow();
    const problem = { fields: [0.3, -0.2], couplings: [0, 0.4, 0, 0] };
    const runs = [
      () => annealDistribution(problem, { schedule: singular }),
      () => annealDistribution(problem, { schedule: nanAtMidpoints }),
      () => annealStatevector(problem, { schedule: nanAtMidpoints, order: 1 }),
      () => toQasm3(problem, { schedule: nanAtMidpoints }),
      () => dqaSampler.create({ schedule: nanAtMidpoints, calibrate: false }),
    ];
    for (const run of runs) {
      const { code, message } = thrownBy(run);
      expect(code, message).toBe('DQA_BAD_SCHEDULE');
      expect(message).toMatch(
        /at u = 0\.0078125 \(t = 0\.125 of tau = 16\), the midpoint of Trotter step 1 of 64/,
      );
    }
    // 32 steps never evaluate at odd multiples of 1/128: that anneal is fine.
    const p = annealDistribution(problem, { schedule: nanAtMidpoints, steps: 32 });
    expect(p.every(Number.isFinite)).toBe(true);
  });

  it('refuses a schedule that is NaN at a quadrature node of the effective-temperature integral', () => {
    // The first node of the first of 512 Gauss–Legendre panels, computed as the integral does.
    const node = 1 / 1024 + (1 / 1024) * -0.906179845938664;
    const atNode = { A: (u: number) => (u === node ? Number.NaN : 1 - u), B: (u: number) => u };
    for (const run of [
      () => effectiveTemperature(2, atNode),
      () => calibrationGains({ schedule: atNode }),
    ]) {
      const { code, message } = thrownBy(run);
      expect(code, message).toBe('DQA_BAD_SCHEDULE');
      expect(message).toMatch(/is NaN at u = 0\.0000916/);
    }
  });

  it('a sampler with such a schedule never returns NaN distributions', () => {
    const batch = createIsingBatch({
      fields: Float64Array.of(0.3, -0.2),
      couplings: Float64Array.of(0, 0.4, 0, 0),
      spins: [2],
      stride: 2,
    });
    const { code } = thrownBy(() =>
      dqaSampler.create({ schedule: singular, calibrate: false }).sample!(batch),
    );
    expect(code).toBe('DQA_BAD_SCHEDULE');
  });

  it('refuses phase angles times energies that overflow float64 instead of returning NaN', () => {
    const { code, message } = thrownBy(() =>
      annealDistribution({ fields: [1e305, 0.5] }, { tau: 1e10, steps: 64 }),
    );
    expect(code, message).toBe('DQA_NOT_FINITE');
    expect(message).toMatch(/overflow/);
  });
});
