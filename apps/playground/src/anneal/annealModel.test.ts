import { annealDistribution } from '@boltzmann/dqa-sim';
import { boltzmannDistribution } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { computeAnneal, klDivergence, randomProblem } from './annealModel.js';
import type { AnnealSettings } from './annealModel.js';

const settings: AnnealSettings = {
  spins: 3,
  seed: 4,
  beta: 1,
  tau: 6,
  steps: 12,
  schedule: 'linear',
  calibrate: 'linear-response',
};

/** A plain statevector simulation of the order-2 Trotter anneal, independent of dqa-sim. */
function referenceFrame(
  fields: ArrayLike<number>,
  couplings: ArrayLike<number>,
  n: number,
  tau: number,
  K: number,
  k: number,
): Float64Array {
  const size = 1 << n;
  const re = new Float64Array(size).fill(2 ** (-n / 2));
  const im = new Float64Array(size);
  const energy = (s: number): number => {
    let e = 0;
    for (let j = 0; j < n; j++) {
      const sj = (s >> j) & 1 ? 1 : -1;
      e -= fields[j]! * sj;
      for (let l = j + 1; l < n; l++) e -= couplings[j * n + l]! * sj * ((s >> l) & 1 ? 1 : -1);
    }
    return e;
  };
  const phase = (theta: number): void => {
    for (let s = 0; s < size; s++) {
      const a = -theta * energy(s);
      const [c, d] = [Math.cos(a), Math.sin(a)];
      [re[s], im[s]] = [re[s]! * c - im[s]! * d, re[s]! * d + im[s]! * c];
    }
  };
  const dt = tau / K;
  for (let step = 0; step < k; step++) {
    const u = (step + 0.5) / K;
    phase((dt * u) / 2);
    const phi = dt * (1 - u); // exp(+iφX) on every qubit
    for (let j = 0; j < n; j++) {
      for (let s = 0; s < size; s++) {
        if ((s >> j) & 1) continue;
        const t = s | (1 << j);
        const [ar, ai, br, bi] = [re[s]!, im[s]!, re[t]!, im[t]!];
        const [c, d] = [Math.cos(phi), Math.sin(phi)];
        [re[s], im[s]] = [c * ar - d * bi, c * ai + d * br];
        [re[t], im[t]] = [c * br - d * ai, c * bi + d * ar];
      }
    }
    phase((dt * u) / 2);
  }
  return Float64Array.from(re, (r, s) => r * r + im[s]! ** 2);
}

describe('computeAnneal', () => {
  const result = computeAnneal(settings);

  it('starts uniform and ends at dqa-sim’s own calibrated anneal', () => {
    expect(result.frames).toHaveLength(settings.steps + 1);
    for (const p of result.frames[0]!) expect(p).toBe(1 / 8);
    const final = annealDistribution(result.problem, {
      tau: settings.tau,
      steps: settings.steps,
      calibrate: 'linear-response',
    });
    result.frames.at(-1)!.forEach((p, i) => expect(p).toBeCloseTo(final[i]!, 12));
  });

  it('gives the state after k of K Trotter steps at every intermediate time', () => {
    const raw = computeAnneal({ ...settings, calibrate: 'none' });
    const { fields, couplings } = randomProblem(3, settings.seed);
    for (const k of [1, 5, 11]) {
      const expected = referenceFrame(fields, couplings, 3, settings.tau, settings.steps, k);
      raw.frames[k]!.forEach((p, i) => expect(p).toBeCloseTo(expected[i]!, 12));
    }
  });

  it('has the Boltzmann target, energy order and a KL curve that the calibrated anneal brings down', () => {
    const target = boltzmannDistribution(result.problem.fields, result.problem.couplings);
    result.target.forEach((p, i) => expect(p).toBeCloseTo(target[i]!, 14));
    for (let r = 1; r < result.order.length; r++)
      expect(result.energies[result.order[r]!]!).toBeGreaterThanOrEqual(
        result.energies[result.order[r - 1]!]!,
      );
    const kl = new Map(result.klByTau.map((row) => [row.tau, row.kl]));
    expect(kl.get(8)!).toBeLessThan(kl.get(0.25)!);
    expect(klDivergence(result.target, result.frames.at(-1)!)).toBeLessThan(
      klDivergence(result.target, result.frames[0]!),
    );
  });
});
