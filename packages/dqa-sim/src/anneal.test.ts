import { add, complex, expm, matrix, multiply, subtract } from 'mathjs';
import type { Complex, Matrix } from 'mathjs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annealDistribution, annealStatevector, compileSchedule } from './index.js';
import type { IsingProblem, ScheduleSpec } from './index.js';
import { problem3, spin } from './internal/testing/annealFixtures.js';

// annealDistribution and calibrationGains: annealDistribution.test.ts.

// Dense references built independently of the simulator's kernels: H_D and H_P as explicit
// 2^n × 2^n matrices, propagators from mathjs.expm.

function energyOf(problem: IsingProblem, s: number): number {
  const n = problem.fields.length;
  let e = 0;
  for (let j = 0; j < n; j++) {
    e -= problem.fields[j]! * spin(s, j);
    for (let k = j + 1; k < n; k++)
      e -= (problem.couplings?.[j * n + k] ?? 0) * spin(s, j) * spin(s, k);
  }
  return e;
}

function hamiltonians(problem: IsingProblem): { hd: number[][]; hp: number[][] } {
  const n = problem.fields.length;
  const dim = 1 << n;
  const hd = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
  const hp = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
  for (let s = 0; s < dim; s++) {
    for (let j = 0; j < n; j++) hd[s]![s ^ (1 << j)] = -1; // H_D = −Σ X_j
    hp[s]![s] = energyOf(problem, s);
  }
  return { hd, hp };
}

const expmOf = (h: number[][], t: number): Matrix =>
  expm(multiply(complex(0, -t), matrix(h)) as Matrix);

function plusState(n: number): Matrix {
  const dim = 1 << n;
  return matrix(new Array(dim).fill(complex(1 / Math.sqrt(dim), 0)));
}

function toArrays(v: Matrix): { re: number[]; im: number[] } {
  const arr = v.toArray() as unknown as (Complex | number)[];
  return {
    re: arr.map((z) => (typeof z === 'number' ? z : z.re)),
    im: arr.map((z) => (typeof z === 'number' ? 0 : z.im)),
  };
}

function distance(
  a: { re: ArrayLike<number>; im: ArrayLike<number> },
  b: { re: ArrayLike<number>; im: ArrayLike<number> },
): number {
  let sum = 0;
  for (let i = 0; i < a.re.length; i++)
    sum += (a.re[i]! - b.re[i]!) ** 2 + (a.im[i]! - b.im[i]!) ** 2;
  return Math.sqrt(sum);
}

/** The Trotter product written with dense matrix exponentials, factor by factor (no merging). */
function denseTrotter(
  problem: IsingProblem,
  tau: number,
  steps: number,
  order: 1 | 2,
  spec: ScheduleSpec,
): Matrix {
  const { A, B } = compileSchedule(spec);
  const { hd, hp } = hamiltonians(problem);
  const dt = tau / steps;
  let psi = plusState(problem.fields.length);
  for (let k = 0; k < steps; k++) {
    const u = (k + 0.5) / steps;
    if (order === 1) {
      psi = multiply(expmOf(hp, dt * B(u)), psi);
      psi = multiply(expmOf(hd, dt * A(u)), psi);
    } else {
      psi = multiply(expmOf(hp, (dt * B(u)) / 2), psi);
      psi = multiply(expmOf(hd, dt * A(u)), psi);
      psi = multiply(expmOf(hp, (dt * B(u)) / 2), psi);
    }
  }
  return psi;
}

/** The exact time-ordered propagator, by 4th-order Magnus slices (two Gauss points each), applied to |+⟩^n. */
function exactEvolution(
  problem: IsingProblem,
  tau: number,
  slices: number,
  spec: ScheduleSpec,
): Matrix {
  const { A, B } = compileSchedule(spec);
  const { hd, hp } = hamiltonians(problem);
  const HD = matrix(hd);
  const HP = matrix(hp);
  const delta = tau / slices;
  const c = Math.sqrt(3) / 6;
  let psi = plusState(problem.fields.length);
  for (let m = 0; m < slices; m++) {
    const h = (t: number) => add(multiply(A(t / tau), HD), multiply(B(t / tau), HP)) as Matrix;
    const h1 = h((m + 0.5 - c) * delta);
    const h2 = h((m + 0.5 + c) * delta);
    const comm = subtract(multiply(h2, h1), multiply(h1, h2)) as Matrix;
    // Ω = −iδ(H1 + H2)/2 − (√3 δ²/12)[H2, H1]
    const omega = subtract(
      multiply(complex(0, -delta / 2), add(h1, h2)),
      multiply((Math.sqrt(3) * delta * delta) / 12, comm),
    ) as Matrix;
    psi = multiply(expm(omega), psi);
  }
  return psi;
}

describe('annealStatevector', () => {
  it('should equal the dense product of expm factors, step by step, for both orders and schedules', () => {
    for (const order of [1, 2] as const) {
      for (const schedule of ['linear', 'dwave'] as const) {
        const ref = toArrays(denseTrotter(problem3, 1.7, 5, order, schedule));
        const psi = annealStatevector(problem3, { tau: 1.7, steps: 5, order, schedule });
        expect(distance(psi, ref)).toBeLessThan(1e-12);
      }
    }
  });

  it('should converge to the exact propagator at first order (~1/K) and second order (~1/K²)', () => {
    const tau = 2;
    const ref = toArrays(exactEvolution(problem3, tau, 120, 'linear'));
    const check = toArrays(exactEvolution(problem3, tau, 60, 'linear'));
    expect(distance(ref, check)).toBeLessThan(1e-7); // the reference itself has converged
    const err = (order: 1 | 2, steps: number) =>
      distance(annealStatevector(problem3, { tau, steps, order }), ref);
    const e1 = [err(1, 16), err(1, 32)];
    const e2 = [err(2, 16), err(2, 32)];
    expect(e1[0]! / e1[1]!).toBeGreaterThan(1.8);
    expect(e1[0]! / e1[1]!).toBeLessThan(2.2);
    expect(e2[0]! / e2[1]!).toBeGreaterThan(3.6);
    expect(e2[0]! / e2[1]!).toBeLessThan(4.4);
    expect(e2[1]!).toBeLessThan(e1[1]!);
  });

  it('should preserve the norm to 1e-12', () => {
    const n = 10;
    const fields = Array.from({ length: n }, (_, j) => Math.sin(3 * j + 1));
    const couplings = Array.from({ length: n * n }, (_, i) => Math.cos(7 * i) * 0.5);
    for (const order of [1, 2] as const) {
      const { re, im } = annealStatevector({ fields, couplings }, { tau: 6, steps: 40, order });
      let norm = 0;
      for (let s = 0; s < re.length; s++) norm += re[s]! ** 2 + im[s]! ** 2;
      expect(Math.abs(norm - 1)).toBeLessThan(1e-12);
    }
  });
});

describe('anneal symmetries (random problems)', () => {
  const problemArb = fc.integer({ min: 1, max: 6 }).chain((n) =>
    fc.record({
      fields: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n, maxLength: n }),
      couplings: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), {
        minLength: n * n,
        maxLength: n * n,
      }),
      tau: fc.double({ min: 0, max: 10, noNaN: true }),
      steps: fc.integer({ min: 1, max: 40 }),
      order: fc.constantFrom(1 as const, 2 as const),
    }),
  );

  it('should keep the norm and map h → −h to the globally flipped distribution', () => {
    fc.assert(
      fc.property(problemArb, ({ fields, couplings, tau, steps, order }) => {
        const p = annealDistribution({ fields, couplings }, { tau, steps, order });
        const flipped = annealDistribution(
          { fields: fields.map((v) => -v), couplings },
          { tau, steps, order },
        );
        const all = p.length - 1;
        let total = 0;
        p.forEach((v, s) => {
          total += v;
          expect(Math.abs(v - flipped[s ^ all]!)).toBeLessThan(1e-12);
        });
        expect(Math.abs(total - 1)).toBeLessThan(1e-12);
      }),
      { numRuns: 80 },
    );
  });
});
