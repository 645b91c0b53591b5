import { DenseProducts } from './kernels/wasmMatvec.js';
import type { FixedPointMap } from './fixedPoint.js';

/**
 * The two self-consistency maps over one problem (fields `h`, the symmetric couplings `J` of its
 * prefix), and what their implicit VJP needs. With `u` the pre-activation and `m = tanh(u)`:
 *
 * - mean field: `u = β(h + J m)`;
 * - TAP (second-order Plefka): `u = β(h + J m) − β² m ⊙ (W a)`, `W = J ∘ J`, `a = 1 − m ⊙ m`.
 *
 * Both have `∂F/∂m = D K` with `D = diag(1 − m²)` and a symmetric `K`:
 * mean field `K = βJ`; TAP `K = βJ − β² diag(W a) + 2β² diag(m) W diag(m)`.
 * The VJP needs `K v` and, from `w = ∂L/∂u`, the parameter gradients (see `addGradients`).
 */
export type IsingMapKind = 'mean-field' | 'tap';

/**
 * One of the maps bound to a batch's couplings; `bind` points it at a problem (no copy).
 * Scratch is sized once (the batch's largest problem), so no method allocates.
 */
export class IsingMap implements FixedPointMap {
  readonly kind: IsingMapKind;
  private readonly sym: Float64Array;
  private readonly stride: number;
  private readonly products: DenseProducts;
  private readonly beta: number;
  private h: Float64Array;
  /** `1 − x²` of the argument (forward) or of the fixed point (linearization). */
  private readonly a: Float64Array;
  /** TAP: `W a` (of the argument in `apply`, of the fixed point after `linearize`). */
  private readonly wa: Float64Array;
  /** TAP: `m ⊙ v` inside `K v`, and `W (m ⊙ v)`. */
  private readonly mv: Float64Array;
  private readonly wmv: Float64Array;
  /** `J x` of the last product. */
  private readonly jv: Float64Array;
  private m: Float64Array;

  constructor(
    kind: IsingMapKind,
    sym: Float64Array,
    stride: number,
    beta: number,
    capacity: number,
  ) {
    this.kind = kind;
    this.sym = sym;
    this.stride = stride;
    this.products = new DenseProducts(sym, stride, capacity);
    this.beta = beta;
    this.h = new Float64Array(0);
    this.m = new Float64Array(0);
    this.a = new Float64Array(capacity);
    this.wa = new Float64Array(capacity);
    this.mv = new Float64Array(capacity);
    this.wmv = new Float64Array(capacity);
    this.jv = new Float64Array(capacity);
  }

  /** Points the map at a problem's fields (its first `n` entries are used). */
  bind(h: Float64Array): void {
    this.h = h;
  }

  /** `F(x) = tanh(u(x))` into `out`. */
  apply(x: Float64Array, out: Float64Array, n: number): void {
    const { beta, h, jv } = this;
    if (this.kind === 'mean-field') {
      this.products.matvec(n, x, jv);
      for (let j = 0; j < n; j++) out[j] = Math.tanh(beta * (h[j]! + jv[j]!));
      return;
    }
    const { a, wa } = this;
    for (let k = 0; k < n; k++) a[k] = 1 - x[k]! * x[k]!;
    this.products.matvecAndSquares(n, x, a, jv, wa);
    const beta2 = beta * beta;
    for (let j = 0; j < n; j++)
      out[j] = Math.tanh(beta * (h[j]! + jv[j]!) - beta2 * x[j]! * wa[j]!);
  }

  /** Fixes the linearization point (the fixed point `m`, first `n` entries) and fills `d = 1 − m²`. */
  linearize(m: Float64Array, n: number, d: Float64Array): void {
    this.m = m;
    const { a } = this;
    for (let k = 0; k < n; k++) {
      a[k] = 1 - m[k]! * m[k]!;
      d[k] = a[k]!;
    }
    if (this.kind === 'tap') this.products.matvecAndSquares(n, m, a, this.jv, this.wa);
  }

  /** `out = K v` at the linearization point. */
  core(v: Float64Array, out: Float64Array, n: number): void {
    const { beta, jv } = this;
    if (this.kind === 'mean-field') {
      this.products.matvec(n, v, jv);
      for (let j = 0; j < n; j++) out[j] = beta * jv[j]!;
      return;
    }
    const { m, mv, wa, wmv } = this;
    const beta2 = beta * beta;
    for (let k = 0; k < n; k++) mv[k] = m[k]! * v[k]!;
    this.products.matvecAndSquares(n, v, mv, jv, wmv);
    for (let j = 0; j < n; j++)
      out[j] = beta * jv[j]! - beta2 * wa[j]! * v[j]! + 2 * beta2 * m[j]! * wmv[j]!;
  }

  /**
   * From `w = ∂L/∂u` of the bound problem: `∂L/∂h = β w` into `dh`, and, for `k < l`,
   * `∂L/∂J_kl += ∂L/∂J_kl` into `dJ` (row-major, `stride`): mean field `β(w_k m_l + w_l m_k)`;
   * TAP adds `−2β² J_kl (w_k m_k a_l + w_l m_l a_k)` (the Onsager term's `J_kl²` appears in
   * both `u_k` and `u_l`).
   */
  addGradients(w: Float64Array, n: number, dh: Float64Array, dJ: Float64Array): void {
    const { beta, m, a, sym, stride } = this;
    for (let k = 0; k < n; k++) dh[k] = beta * w[k]!;
    if (this.kind === 'mean-field') {
      for (let k = 0; k < n; k++) {
        const wk = w[k]!;
        const mk = m[k]!;
        const row = k * stride;
        for (let l = k + 1; l < n; l++) dJ[row + l]! += beta * (wk * m[l]! + w[l]! * mk);
      }
      return;
    }
    const beta2x2 = 2 * beta * beta;
    for (let k = 0; k < n; k++) {
      const wk = w[k]!;
      const mk = m[k]!;
      const ak = a[k]!;
      const wmk = wk * mk;
      const row = k * stride;
      for (let l = k + 1; l < n; l++) {
        const wl = w[l]!;
        dJ[row + l]! +=
          beta * (wk * m[l]! + wl * mk) - beta2x2 * sym[row + l]! * (wmk * a[l]! + wl * m[l]! * ak);
      }
    }
  }
}
