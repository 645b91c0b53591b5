import { add, complex, expm, matrix, multiply, subtract } from 'mathjs';
import type { Complex, Matrix } from 'mathjs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  annealDistribution,
  annealStatevector,
  calibrationGains,
  compileSchedule,
  effectiveTemperature,
  energyVector,
} from './index.js';
import type { IsingProblem, ScheduleSpec } from './index.js';

// Dense references built independently of the simulator's kernels: H_D and H_P as explicit
// 2^n × 2^n matrices, propagators from mathjs.expm.

const spin = (s: number, j: number) => ((s >>> j) & 1 ? 1 : -1);
/** Σ_j h_j s_j and Σ_{j<k} J_jk s_j s_k of state `s` (bit j set ⇔ s_j = +1). */
const termSums = (h: ArrayLike<number>, J: ArrayLike<number>, n: number, s: number) => {
  let hs = 0;
  let js = 0;
  for (let j = 0; j < n; j++) {
    hs += h[j]! * spin(s, j);
    for (let k = j + 1; k < n; k++) js += J[j * n + k]! * spin(s, j) * spin(s, k);
  }
  return { hs, js };
};

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

const problem3: IsingProblem = {
  fields: [0.7, -0.4, 0.3],
  couplings: [0, 0.5, -0.6, 0, 0, 0.8, 0, 0, 0],
};

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
