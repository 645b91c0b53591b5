import { describe, expect, it } from 'vitest';
import { FixedPointWorkspace, solveFixedPoint } from './fixedPoint.js';
import type { FixedPointMap } from './fixedPoint.js';

/** The affine map `F(x) = A x + c` (dense `n × n`). */
const affine = (a: Float64Array, c: Float64Array): FixedPointMap => ({
  apply(x, out, n) {
    for (let j = 0; j < n; j++) {
      let s = c[j]!;
      for (let k = 0; k < n; k++) s += a[j * n + k]! * x[k]!;
      out[j] = s;
    }
  },
});

describe('solveFixedPoint', () => {
  it('takes the textbook number of damped steps on a scalar contraction, and Anderson solves it in 3', () => {
    // x = 0.9 x + 1: the damped step contracts the error by d + (1 − d)·0.9 = 0.95 (d = 0.5).
    const map = affine(Float64Array.of(0.9), Float64Array.of(1));
    const ws = new FixedPointWorkspace(1, 5);
    const x = Float64Array.of(0);
    solveFixedPoint(
      map,
      1,
      x,
      1,
      { damping: 0.5, tolerance: 1e-10, maxIterations: 10_000, memory: 0 },
      ws,
    );
    // residual_k = 0.1·|x_k − 10| = 0.95^(k−1) (floor 1 until |x| > 1, then relative to |x|).
    expect(ws.iterations).toBeGreaterThan(400);
    expect(ws.iterations).toBeLessThan(460);
    expect(x[0]).toBeCloseTo(10, 7); // error = residual / (1 − 0.9)
    const y = Float64Array.of(0);
    solveFixedPoint(
      map,
      1,
      y,
      1,
      { damping: 0.5, tolerance: 1e-10, maxIterations: 10_000, memory: 5 },
      ws,
    );
    expect(ws.iterations).toBeLessThanOrEqual(3);
    expect(y[0]).toBeCloseTo(10, 10);
  });

  it('solves a linear system in at most n + 2 evaluations with enough memory (it is GMRES in disguise)', () => {
    const n = 6;
    const a = Float64Array.from({ length: n * n }, (_, i) => 0.12 * Math.sin(3 * i + 1));
    const c = Float64Array.from({ length: n }, (_, j) => Math.cos(j));
    const ws = new FixedPointWorkspace(n, n);
    const x = new Float64Array(n);
    solveFixedPoint(
      affine(a, c),
      n,
      x,
      1,
      { damping: 0, tolerance: 1e-12, maxIterations: 100, memory: n },
      ws,
    );
    expect(ws.residual).toBeLessThanOrEqual(1e-12);
    expect(ws.iterations).toBeLessThanOrEqual(n + 2);
    const fx = new Float64Array(n);
    affine(a, c).apply(x, fx, n);
    for (let j = 0; j < n; j++) expect(Math.abs(fx[j]! - x[j]!)).toBeLessThan(1e-11);
  });

  it('measures the residual relative to max(floor, max|x|), and stops at once from the solution (warm start)', () => {
    const map = affine(Float64Array.of(0.5), Float64Array.of(5e5)); // fixed point 1e6
    const ws = new FixedPointWorkspace(1, 2);
    const x = Float64Array.of(1e6 + 1e-5); // absolute residual 5e-6, relative 5e-12
    solveFixedPoint(
      map,
      1,
      x,
      1,
      { damping: 0.5, tolerance: 1e-10, maxIterations: 10, memory: 2 },
      ws,
    );
    expect(ws.iterations).toBe(1);
    expect(ws.residual).toBeCloseTo(5e-12, 15);
  });

  it('undoes Anderson steps that raise the residual and still converges (safeguard)', () => {
    // A strongly nonlinear scalar map (one fixed point, 0.3788) whose secant extrapolations overshoot from the
    // left. (From below −0.45 the damped iteration wanders near x ≈ −0.85, where |F(x) − x| has a non-zero
    // local minimum; no accelerator helps there.)
    const map: FixedPointMap = {
      apply: (x, out) => {
        out[0] = Math.cos(3 * x[0]!) * 0.9;
      },
    };
    const ws = new FixedPointWorkspace(1, 3);
    let rejected = 0;
    for (let s = 0; s < 14; s++) {
      const x = Float64Array.of(-0.4 + s * 0.1);
      solveFixedPoint(
        map,
        1,
        x,
        1,
        { damping: 0.5, tolerance: 1e-12, maxIterations: 500, memory: 3 },
        ws,
      );
      expect(ws.residual).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(Math.cos(3 * x[0]!) * 0.9 - x[0]!)).toBeLessThan(1e-11);
      rejected += ws.rejected;
    }
    expect(rejected).toBeGreaterThan(0);
  });

  it('returns F of the last accepted iterate when the budget runs out, and stops on a non-finite residual', () => {
    const ws = new FixedPointWorkspace(1, 0);
    const x = Float64Array.of(0);
    solveFixedPoint(
      {
        apply: (v, out) => {
          out[0] = Math.tanh(3 * v[0]!) + 0.01;
        },
      },
      1,
      x,
      1,
      { damping: 0, tolerance: 1e-14, maxIterations: 3, memory: 0 },
      ws,
    );
    expect(ws.iterations).toBe(3);
    expect(ws.residual).toBeGreaterThan(1e-14);
    expect(Math.abs(x[0]!)).toBeLessThanOrEqual(1.01);
    const y = Float64Array.of(0);
    solveFixedPoint(
      {
        apply: (_, out) => {
          out[0] = Number.NaN;
        },
      },
      1,
      y,
      1,
      { damping: 0, tolerance: 1e-14, maxIterations: 3, memory: 0 },
      ws,
    );
    expect(ws.iterations).toBe(1);
    expect(ws.residual).toBeNaN();
  });
});
