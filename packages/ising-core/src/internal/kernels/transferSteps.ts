import { linearTable } from './tables.js';

/** A banded chain (see `runChain`): `band[t·W + b] = J_{t−W+b, t}`, zero where `t − W + b < 0`. */
export interface ChainProblem {
  readonly n: number;
  readonly window: number;
  readonly beta: number;
  /** `h_t` at `fields[t]`, `t < n`. */
  readonly fields: Float64Array;
  readonly band: Float64Array;
}

/**
 * The message arithmetic of one position of the forward–backward pass, in one of two number
 * representations (the driver, `runChain`, is the same for both). Window states have `W` bits, bit
 * `b` ⇔ spin `t − W + b` is +1; the factor of spin `t` is `ψ_t(x, ±) = exp(±a_t(x))` with
 * `a_t(x) = β(h_t + Σ_b J_{t−W+b,t} s_b(x))`. Tangents are `d log(message)/dε` in both engines,
 * with `gu` the tangent of `log ψ_t(x, +)` and `−gd` that of `log ψ_t(x, −)`: the direction
 * `G = Σ_t g_t (s_t − m̂_t)` of `runChain`, `gu = β g_t (1 − m̂_t)`, `gd = β g_t (1 + m̂_t)`.
 */
export interface StepEngine {
  /** The value of a message entry equal to 1 (0 in the log domain, 1 in the linear one). */
  readonly one: number;
  /** Builds the factor tables of spin `t`; `back`, `forward` and `window` use the last one built. */
  prepare(t: number): void;
  /** β_{t−1} from β_t, rescaled (its largest entry becomes `one`); tangents when `tangent`. */
  back(
    inL: Float64Array,
    inT: Float64Array,
    inAt: number,
    outL: Float64Array,
    outT: Float64Array,
    outAt: number,
    gu: number,
    gd: number,
    tangent: boolean,
  ): void;
  /** α_t from α_{t−1}, rescaled; returns the log of the factor divided out. */
  forward(
    inL: Float64Array,
    inT: Float64Array,
    outL: Float64Array,
    outT: Float64Array,
    gu: number,
    gd: number,
    tangent: boolean,
  ): number;
  /** Window weights `α_{t−1}(x) ψ_t(x, ±) β_t(next)` up to one common factor, into `minus`/`plus`. */
  window(
    la: Float64Array,
    bL: Float64Array,
    bAt: number,
    minus: Float64Array,
    plus: Float64Array,
  ): void;
  /** `log Σ_x α(x)` of a message. */
  logTotal(la: Float64Array): number;
}

/**
 * Log-domain engine: messages are logarithms shifted so their largest entry is 0. Nothing
 * underflows however strong the fields and couplings (past and future evidence may disagree by
 * thousands of nats, which a linear-domain pass would turn into 0 · ∞). About two
 * transcendental functions per state and step.
 */
export function logEngine(problem: ChainProblem): StepEngine {
  const { window: W, beta, fields, band } = problem;
  const S = 1 << W;
  const mask = S - 1;
  const a = new Float64Array(S);
  return {
    one: 0,
    prepare: (t) => linearTable(a, band, t * W, W, beta, beta * fields[t]!),
    back(inL, inT, inAt, outL, outT, outAt, gu, gd, tangent) {
      let best = -Infinity;
      let bestAt = 0;
      for (let x = 0; x < S; x++) {
        const x0 = inAt + (x >> 1);
        const x1 = inAt + ((x | S) >> 1);
        const l0 = inL[x0]! - a[x]!;
        const l1 = inL[x1]! + a[x]!;
        const e = Math.exp(-Math.abs(l0 - l1));
        const v = Math.max(l0, l1) + Math.log1p(e);
        outL[outAt + x] = v;
        if (v > best) {
          best = v;
          bestAt = x;
        }
        if (tangent) {
          const w0 = l0 > l1 ? 1 / (1 + e) : e / (1 + e);
          outT[outAt + x] = w0 * (inT[x0]! - gd) + (1 - w0) * (inT[x1]! + gu);
        }
      }
      const shift = tangent ? outT[outAt + bestAt]! : 0;
      for (let x = 0; x < S; x++) {
        outL[outAt + x]! -= best;
        if (tangent) outT[outAt + x]! -= shift;
      }
    },
    forward(inL, inT, outL, outT, gu, gd, tangent) {
      let best = -Infinity;
      let bestAt = 0;
      for (let xp = 0; xp < S; xp++) {
        const y0 = 2 * xp;
        const x0 = y0 & mask;
        const x1 = (y0 + 1) & mask;
        const s0 = (y0 >> W) & 1 ? 1 : -1;
        const s1 = ((y0 + 1) >> W) & 1 ? 1 : -1;
        const l0 = inL[x0]! + s0 * a[x0]!;
        const l1 = inL[x1]! + s1 * a[x1]!;
        const e = Math.exp(-Math.abs(l0 - l1));
        const v = Math.max(l0, l1) + Math.log1p(e);
        outL[xp] = v;
        if (v > best) {
          best = v;
          bestAt = xp;
        }
        if (tangent) {
          const w0 = l0 > l1 ? 1 / (1 + e) : e / (1 + e);
          outT[xp] =
            w0 * (inT[x0]! + (s0 > 0 ? gu : -gd)) + (1 - w0) * (inT[x1]! + (s1 > 0 ? gu : -gd));
        }
      }
      const shift = tangent ? outT[bestAt]! : 0;
      for (let x = 0; x < S; x++) {
        outL[x]! -= best;
        if (tangent) outT[x]! -= shift;
      }
      return best;
    },
    window(la, bL, bAt, minus, plus) {
      let top = -Infinity;
      for (let x = 0; x < S; x++) {
        const lm = la[x]! - a[x]! + bL[bAt + (x >> 1)]!;
        const lp = la[x]! + a[x]! + bL[bAt + ((x | S) >> 1)]!;
        minus[x] = lm;
        plus[x] = lp;
        top = Math.max(top, lm, lp);
      }
      for (let x = 0; x < S; x++) {
        minus[x] = Math.exp(minus[x]! - top);
        plus[x] = Math.exp(plus[x]! - top);
      }
    },
    logTotal(la) {
      let top = -Infinity;
      for (let x = 0; x < S; x++) top = Math.max(top, la[x]!);
      let total = 0;
      for (let x = 0; x < S; x++) total += Math.exp(la[x]! - top);
      return top + Math.log(total);
    },
  };
}

/**
 * Linear-domain engine: messages are plain weights rescaled so their largest entry is 1, and the
 * factor tables `exp(±a_t)` come from a multiplicative doubling DP (`W + 1` exponentials per
 * step instead of `2^{W+1}`), so a step is multiply–adds only. Exact only while no weight leaves
 * the normal float64 range: `runChain` uses it when the dynamic-range bound allows (see there).
 */
export function linearEngine(problem: ChainProblem): StepEngine {
  const { window: W, beta, fields, band } = problem;
  const S = 1 << W;
  const mask = S - 1;
  const up = new Float64Array(S); // exp(a_t(x))
  const down = new Float64Array(S); // exp(−a_t(x))
  return {
    one: 1,
    prepare(t) {
      let a0 = fields[t]!;
      for (let b = 0; b < W; b++) a0 -= band[t * W + b]!;
      up[0] = Math.exp(beta * a0);
      down[0] = Math.exp(-beta * a0);
      for (let b = 0; b < W; b++) {
        const half = 1 << b;
        const f = Math.exp(2 * beta * band[t * W + b]!);
        const g = 1 / f;
        for (let x = 0; x < half; x++) {
          up[x + half] = up[x]! * f;
          down[x + half] = down[x]! * g;
        }
      }
    },
    back(inL, inT, inAt, outL, outT, outAt, gu, gd, tangent) {
      let best = 0;
      let bestAt = 0;
      for (let x = 0; x < S; x++) {
        const x0 = inAt + (x >> 1);
        const x1 = inAt + ((x | S) >> 1);
        const v0 = inL[x0]! * down[x]!;
        const v1 = inL[x1]! * up[x]!;
        const v = v0 + v1;
        outL[outAt + x] = v;
        if (v > best) {
          best = v;
          bestAt = x;
        }
        if (tangent) outT[outAt + x] = (v0 * (inT[x0]! - gd) + v1 * (inT[x1]! + gu)) / v;
      }
      const scale = 1 / best;
      const shift = tangent ? outT[outAt + bestAt]! : 0;
      for (let x = 0; x < S; x++) {
        outL[outAt + x]! *= scale;
        if (tangent) outT[outAt + x]! -= shift;
      }
    },
    forward(inL, inT, outL, outT, gu, gd, tangent) {
      let best = 0;
      let bestAt = 0;
      for (let xp = 0; xp < S; xp++) {
        const y0 = 2 * xp;
        const x0 = y0 & mask;
        const x1 = (y0 + 1) & mask;
        const plus0 = (y0 >> W) & 1;
        const plus1 = ((y0 + 1) >> W) & 1;
        const v0 = inL[x0]! * (plus0 ? up[x0]! : down[x0]!);
        const v1 = inL[x1]! * (plus1 ? up[x1]! : down[x1]!);
        const v = v0 + v1;
        outL[xp] = v;
        if (v > best) {
          best = v;
          bestAt = xp;
        }
        if (tangent)
          outT[xp] =
            (v0 * (inT[x0]! + (plus0 ? gu : -gd)) + v1 * (inT[x1]! + (plus1 ? gu : -gd))) / v;
      }
      const scale = 1 / best;
      const shift = tangent ? outT[bestAt]! : 0;
      for (let x = 0; x < S; x++) {
        outL[x]! *= scale;
        if (tangent) outT[x]! -= shift;
      }
      return Math.log(best);
    },
    window(la, bL, bAt, minus, plus) {
      for (let x = 0; x < S; x++) {
        minus[x] = la[x]! * down[x]! * bL[bAt + (x >> 1)]!;
        plus[x] = la[x]! * up[x]! * bL[bAt + ((x | S) >> 1)]!;
      }
    },
    logTotal(la) {
      let total = 0;
      for (let x = 0; x < S; x++) total += la[x]!;
      return Math.log(total);
    },
  };
}
