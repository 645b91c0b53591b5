import type { FixedPointSettings } from './fixedPoint.js';
import type { IsingMap } from './isingMaps.js';

/**
 * The adjoint of a fixed point `m = tanh(u(m))` with `∂F/∂m = D K` (`D = diag(d)`, `K`
 * symmetric, see `isingMaps.ts`): `λ = g + (∂F/∂m)ᵀ λ = g + K D λ`. The VJP needs only
 * `w = D λ = ∂L/∂u`. With `z = D^{1/2} λ` the system is symmetric,
 *
 *     z = b + P z,   b = D^{1/2} g,   P = D^{1/2} K D^{1/2},   w = D^{1/2} z,
 *
 * and `I − P = D^{1/2} H D^{1/2}` with `H = D^{-1} − K` the Hessian of the (mean-field or TAP)
 * free energy: positive definite exactly when the fixed point is a stable minimum. So it is
 * solved by conjugate gradients, `O(n²)` per iteration (one `K v`), no factorization. When CG
 * meets non-positive curvature (a saddle, reached e.g. by heavy damping of an antiferromagnet) it
 * goes on with CG on the normal equations `(I − P)² z = (I − P) b` (two `K v` per iteration),
 * which needs only a nonsingular system. (The Anderson fixed point of `z = b + P z` would diverge
 * there, and on stable problems it took 1.3–2× more iterations than CG: bench/fixedPoint.bench.ts.)
 * The residual has the engine's form: `max|b + P z − z| / max(max|b|, max|z|)`.
 */
export class AdjointWorkspace {
  readonly sd: Float64Array;
  readonly b: Float64Array;
  readonly z: Float64Array;
  readonly r: Float64Array;
  readonly p: Float64Array;
  readonly q: Float64Array;
  readonly tmp: Float64Array;
  readonly tmp2: Float64Array;
  readonly rn: Float64Array;
  iterations = 0;
  residual = Infinity;
  /** True when the last solve met non-positive curvature and finished on the normal equations. */
  fellBack = false;
  private map: IsingMap | undefined;

  constructor(capacity: number) {
    this.sd = new Float64Array(capacity);
    this.b = new Float64Array(capacity);
    this.z = new Float64Array(capacity);
    this.r = new Float64Array(capacity);
    this.p = new Float64Array(capacity);
    this.q = new Float64Array(capacity);
    this.tmp = new Float64Array(capacity);
    this.tmp2 = new Float64Array(capacity);
    this.rn = new Float64Array(capacity);
  }

  /** `out = P v = D^{1/2} K D^{1/2} v`. */
  applyP(v: Float64Array, out: Float64Array, n: number): void {
    const { sd, tmp } = this;
    for (let j = 0; j < n; j++) tmp[j] = sd[j]! * v[j]!;
    this.map!.core(tmp, out, n);
    for (let j = 0; j < n; j++) out[j]! *= sd[j]!;
  }

  /** Engine-style relative residual of `z` (uses `q` as scratch). */
  residualOf(z: Float64Array, n: number): number {
    const { q, b } = this;
    this.applyP(z, q, n);
    let rmax = 0;
    let scale = 0;
    for (let j = 0; j < n; j++) {
      rmax = Math.max(rmax, Math.abs(b[j]! + q[j]! - z[j]!));
      scale = Math.max(scale, Math.abs(b[j]!), Math.abs(z[j]!));
    }
    return scale === 0 ? 0 : rmax / scale;
  }

  /**
   * Solves the adjoint of the linearized `map` (call `map.linearize` first, with `d = 1 − m²`)
   * for the upstream gradient `g`; writes `w = ∂L/∂u` into `w` and sets `iterations`,
   * `residual`, `fellBack`.
   */
  solve(
    map: IsingMap,
    d: Float64Array,
    g: Float64Array,
    n: number,
    settings: FixedPointSettings,
    w: Float64Array,
  ): void {
    this.map = map;
    const { sd, b, z } = this;
    let bmax = 0;
    for (let j = 0; j < n; j++) {
      sd[j] = Math.sqrt(d[j]!);
      b[j] = sd[j]! * g[j]!;
      bmax = Math.max(bmax, Math.abs(b[j]!));
      z[j] = 0;
    }
    this.fellBack = false;
    this.iterations = 0;
    this.residual = 0;
    if (bmax > 0) {
      let outcome = this.conjugateGradients(
        n,
        bmax,
        false,
        settings.tolerance,
        settings.maxIterations,
      );
      if (outcome === 'breakdown') {
        this.fellBack = true;
        outcome = this.conjugateGradients(
          n,
          bmax,
          true,
          settings.tolerance,
          settings.maxIterations - this.iterations,
        );
      }
      this.residual = this.residualOf(z, n);
    }
    for (let j = 0; j < n; j++) w[j] = sd[j]! * z[j]!;
  }

  /**
   * CG on `A z = b` (`A = I − P`) from `z = 0`, or with `squared` from the current `z` on the normal equations
   * `A² z = A b` (CGNR: any nonsingular `A`, the condition number squared). `r` tracks the true
   * residual `b − A z` in both modes; convergence is confirmed on a recomputed residual.
   */
  private conjugateGradients(
    n: number,
    bmax: number,
    squared: boolean,
    tolerance: number,
    budget: number,
  ): 'converged' | 'breakdown' | 'budget' {
    const { b, z, r, p, q, tmp2: t, rn } = this;
    if (squared) {
      this.applyA(z, q, n);
      for (let j = 0; j < n; j++) r[j] = b[j]! - q[j]!;
      this.iterations += 1;
    } else {
      r.set(b.subarray(0, n)); // the plain pass starts from z = 0
    }
    const search = squared ? rn : r;
    if (squared) this.applyA(r, rn, n);
    let rho = 0;
    for (let j = 0; j < n; j++) {
      p[j] = search[j]!;
      rho += search[j]! * search[j]!;
    }
    for (let it = 0; it < budget; it++) {
      this.iterations += 1;
      this.applyA(p, t, n); // t = A p
      let curvature = 0;
      if (squared) {
        this.applyA(t, q, n); // q = A² p
        for (let j = 0; j < n; j++) curvature += t[j]! * t[j]!;
      } else {
        for (let j = 0; j < n; j++) curvature += p[j]! * t[j]!;
      }
      if (!(curvature > 0)) return squared ? 'budget' : 'breakdown';
      const alpha = rho / curvature;
      let rho2 = 0;
      let rmax = 0;
      let zmax = bmax;
      for (let j = 0; j < n; j++) {
        z[j]! += alpha * p[j]!;
        r[j]! -= alpha * t[j]!;
        if (squared) rn[j]! -= alpha * q[j]!;
        rho2 += search[j]! * search[j]!;
        rmax = Math.max(rmax, Math.abs(r[j]!));
        zmax = Math.max(zmax, Math.abs(z[j]!));
      }
      if (!Number.isFinite(rho2)) return 'budget';
      if (rmax / zmax <= tolerance) {
        // The recurrences drift: confirm on the recomputed residual and go on from it if needed.
        this.iterations += 1;
        if (this.residualOf(z, n) <= tolerance) return 'converged';
        this.applyA(z, q, n);
        for (let j = 0; j < n; j++) r[j] = b[j]! - q[j]!;
        if (squared) this.applyA(r, rn, n);
        rho2 = 0;
        for (let j = 0; j < n; j++) {
          p[j] = search[j]!;
          rho2 += search[j]! * search[j]!;
        }
        rho = rho2;
        continue;
      }
      const beta = rho2 / rho;
      rho = rho2;
      for (let j = 0; j < n; j++) p[j] = search[j]! + beta * p[j]!;
    }
    return 'budget';
  }

  /** `out = A v = v − P v`. */
  private applyA(v: Float64Array, out: Float64Array, n: number): void {
    this.applyP(v, out, n);
    for (let j = 0; j < n; j++) out[j] = v[j]! - out[j]!;
  }
}
