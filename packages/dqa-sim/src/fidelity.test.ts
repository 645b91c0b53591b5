import { magnetizations as exactMagnetizations } from '@boltzmann/ising-core';
import { bruteForceMoments, codeOf } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { annealDistribution, fidelity, fidelitySweep } from './index.js';

const problem = {
  fields: [0.6, -0.35, 0.15, 0.4],
  couplings: [0, 0.3, -0.2, 0.1, 0, 0, 0.25, -0.4, 0, 0, 0, 0.2, 0, 0, 0, 0],
};

function klOf(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let s = 0; s < a.length; s++) sum += a[s]! > 0 ? a[s]! * Math.log(a[s]! / b[s]!) : 0;
  return sum;
}

describe('fidelity', () => {
  it('should compare the calibrated DQA output with the brute-force Boltzmann distribution at β', () => {
    const options = { tau: 6, steps: 24, beta: 0.7 };
    const report = fidelity(problem, options);
    const exact = bruteForceMoments(problem.fields, problem.couplings, 4, 0.7);
    const p = annealDistribution(problem, { ...options, calibrate: 'linear-response' });
    report.exactMagnetization.forEach((m, j) => expect(m).toBeCloseTo(exact.magnetization[j]!, 13));
    const viaCore = exactMagnetizations(
      Float64Array.from(problem.fields),
      Float64Array.from(problem.couplings),
      { beta: 0.7 },
    );
    report.exactMagnetization.forEach((m, j) => expect(m).toBeCloseTo(viaCore[j]!, 13));
    expect(report.klTargetDqa).toBeCloseTo(klOf(exact.probabilities, p), 13);
    expect(report.klDqaTarget).toBeCloseTo(klOf(p, exact.probabilities), 13);
    const dqaM = [0, 1, 2, 3].map((j) =>
      p.reduce((acc, v, s) => acc + v * ((s >>> j) & 1 ? 1 : -1), 0),
    );
    report.magnetization.forEach((m, j) => expect(m).toBeCloseTo(dqaM[j]!, 13));
    const errors = dqaM.map((m, j) => Math.abs(m - exact.magnetization[j]!));
    expect(report.maxMagnetizationError).toBeCloseTo(Math.max(...errors), 13);
    expect(report.meanMagnetizationError).toBeCloseTo(errors.reduce((a, b) => a + b, 0) / 4, 13);
    expect(report.x).toBeCloseTo(36 / 24, 13);
  });

  it('should give a zero distance for a fieldless problem, whose DQA output and Boltzmann target are both uniform', () => {
    const r = fidelity({ fields: [0, 0, 0] }, { tau: 3, steps: 8 });
    expect(r.klTargetDqa).toBeLessThan(1e-14);
    expect(r.klDqaTarget).toBeLessThan(1e-14);
    expect(r.maxMagnetizationError).toBeLessThan(1e-13);
  });
});

describe('fidelitySweep', () => {
  it('should return one row per (τ, K), each equal to fidelity at that setting', () => {
    const rows = fidelitySweep({ ...problem, taus: [1, 4], steps: [8, 16], schedule: 'dwave' });
    expect(rows.map((r) => [r.tau, r.steps])).toEqual([
      [1, 8],
      [1, 16],
      [4, 8],
      [4, 16],
    ]);
    for (const row of rows) {
      const single = fidelity(problem, { tau: row.tau, steps: row.steps, schedule: 'dwave' });
      expect(row.klTargetDqa).toBe(single.klTargetDqa);
      expect(row.maxMagnetizationError).toBe(single.maxMagnetizationError);
      expect(row.x).toBeCloseTo((row.tau * row.tau) / 420, 13);
    }
  });

  it('should show the linear-response calibrated anneal approaching Boltzmann as τ grows (this problem)', () => {
    const rows = fidelitySweep({ ...problem, taus: [2, 8, 32], steps: 64 });
    expect(rows[1]!.klTargetDqa).toBeLessThan(rows[0]!.klTargetDqa);
    expect(rows[2]!.klTargetDqa).toBeLessThan(rows[1]!.klTargetDqa);
    expect(rows[2]!.maxMagnetizationError).toBeLessThan(0.05);
  });

  it('should refuse an empty grid', () => {
    expect(codeOf(() => fidelitySweep({ ...problem, taus: [], steps: 8 }))).toBe(
      'DQA_INVALID_ARGUMENT',
    );
    expect(codeOf(() => fidelitySweep({ ...problem, taus: [1], steps: [] }))).toBe(
      'DQA_INVALID_ARGUMENT',
    );
  });
});
