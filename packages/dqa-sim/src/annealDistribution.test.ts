import { describe, expect, it } from 'vitest';
import {
  annealDistribution,
  calibrationGains,
  effectiveTemperature,
  energyVector,
} from './index.js';
import type { IsingProblem } from './index.js';
import { problem3, termSums } from './internal/testing/annealFixtures.js';

describe('annealDistribution', () => {
  it('should be uniform for τ = 0 and tend to uniform as τ → 0', () => {
    const p0 = annealDistribution(problem3, { tau: 0 });
    for (const v of p0) expect(Math.abs(v - 1 / 8)).toBeLessThan(1e-15);
    const dev = (tau: number) =>
      Math.max(...Array.from(annealDistribution(problem3, { tau }), (v) => Math.abs(v - 1 / 8)));
    expect(dev(0.01)).toBeLessThan(3e-5); // ~ 4X·Σ|h| / 8 with X = τ²/24
    expect(dev(0.01)).toBeLessThan(dev(0.1) / 50);
  });

  it('should match P(s) ≈ 2^-n [1 + 4X Σhs + 8X ΣJss] with an O(X²) error for short anneals', () => {
    const n = 3;
    const h = problem3.fields;
    const J = problem3.couplings!;
    const errorAt = (tau: number) => {
      const x = effectiveTemperature(tau);
      const p = annealDistribution(problem3, { tau, steps: 64 });
      let err = 0;
      for (let s = 0; s < 8; s++) {
        const { hs, js } = termSums(h, J, n, s);
        err = Math.max(err, Math.abs(p[s]! - (1 + 4 * x * hs + 8 * x * js) / 8));
      }
      return { err, x };
    };
    const taus = [0.4, 0.2, 0.1];
    const rows = taus.map(errorAt);
    for (const { err, x } of rows) expect(err).toBeLessThan(30 * x * x);
    expect(rows[0]!.err / rows[1]!.err).toBeGreaterThan(10); // X² falls 16× when τ halves
    expect(rows[1]!.err / rows[2]!.err).toBeGreaterThan(10);
  });

  it('should end a slow anneal of a frustrated triangle in its ground state', () => {
    // Antiferromagnetic triangle (6-fold degenerate), fields (0.5, 0.2, 0) leave (+,+,−) unique.
    const triangle: IsingProblem = {
      fields: [0.5, 0.2, 0],
      couplings: [0, -1, -1, 0, 0, -1, 0, 0, 0],
    };
    const e = energyVector(triangle);
    const ground = e.indexOf(Math.min(...e));
    expect(ground).toBe(0b011);
    const pGround = [20, 40, 80].map(
      (tau) => annealDistribution(triangle, { tau, steps: 10 * tau })[ground]!,
    );
    expect(pGround[1]!).toBeGreaterThan(pGround[0]!);
    expect(pGround[2]!).toBeGreaterThan(pGround[1]!);
    expect(pGround[2]!).toBeGreaterThan(0.95);
  });

  it('should give independent spins the product of single-spin anneals', () => {
    const fields = [0.4, -0.9, 0.2];
    const joint = annealDistribution({ fields }, { tau: 3, steps: 24 });
    const single = fields.map((f) => annealDistribution({ fields: [f] }, { tau: 3, steps: 24 }));
    for (let s = 0; s < 8; s++) {
      const product = single.reduce((acc, p, j) => acc * p[(s >>> j) & 1]!, 1);
      expect(joint[s]!).toBeCloseTo(product, 14);
    }
  });
});

describe('calibrationGains', () => {
  it('should give the exact first-order response of the Trotter circuit at any τ (error O(ε²) for fields of size ε)', () => {
    const n = 3;
    for (const options of [
      { tau: 16, steps: 64, order: 2 as const },
      { tau: 5, steps: 20, order: 1 as const, schedule: 'dwave' as const },
    ]) {
      const g = calibrationGains(options).linearResponse;
      const residual = (eps: number) => {
        const h = Array.from(problem3.fields, (v) => v * eps);
        const J = Array.from(problem3.couplings!, (v) => v * eps);
        const p = annealDistribution({ fields: h, couplings: J }, options);
        let worst = 0;
        for (let s = 0; s < 8; s++) {
          const { hs, js } = termSums(h, J, n, s);
          worst = Math.max(worst, Math.abs(8 * p[s]! - 1 - g.field * hs - g.coupling * js));
        }
        return worst;
      };
      const [r1, r2] = [residual(1e-3), residual(5e-4)];
      expect(r1).toBeLessThan(1e-4); // first-order terms are ~1e-3; what is left is second order
      expect(r1 / r2).toBeGreaterThan(3.5); // halving ε quarters the residual
      expect(r1 / r2).toBeLessThan(4.5);
    }
  });

  it('should tend to the effective-temperature gains 4X and 8X for short anneals and fine steps', () => {
    // Two corrections separate them: sin(2Φ) ≠ 2Φ (relative O(τ²)) and the midpoint sum vs the integral (O(1/K²)).
    const {
      x,
      effectiveTemperature: et,
      linearResponse: lr,
    } = calibrationGains({ tau: 0.01, steps: 256 });
    expect(x).toBeCloseTo(0.0001 / 24, 15);
    expect(Math.abs(lr.field / et.field - 1)).toBeLessThan(1e-4);
    expect(Math.abs(lr.coupling / et.coupling - 1)).toBeLessThan(1e-4);
    const coarse = calibrationGains({ tau: 0.01, steps: 32 }).linearResponse;
    expect(Math.abs(coarse.field / et.field - 1)).toBeGreaterThan(
      10 * Math.abs(lr.field / et.field - 1),
    );
  });
});
