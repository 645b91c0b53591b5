import { foldBitSums } from './fold.js';
import { linearTable } from './tables.js';

/**
 * One banded Ising problem as the transfer-matrix kernel sees it: spins `0 .. n−1`, a window of
 * `window = W` earlier spins (every `J_jk` with `k − j > W` is zero), and
 * `band[t·W + b] = J_{t−W+b, t}` (0 where `t − W + b < 0`).
 */
export interface ChainProblem {
  readonly n: number;
  readonly window: number;
  readonly beta: number;
  /** `h_t` at `fields[t]`, `t < n`. */
  readonly fields: Float64Array;
  readonly band: Float64Array;
}

/** What {@link runChain} writes: magnetizations and `log Z`; with a gradient also the VJP. */
export interface ChainOutput {
  /** `⟨s_t⟩`, `n` entries. */
  readonly magnetization: Float64Array;
  /** With `grad`: `β Cov(G, s_t)`, `n` entries. */
  readonly fieldGrad?: Float64Array;
  /** With `grad`: `β Cov(G, s_{t−W+b} s_t)` at `t·W + b` (the layout of `band`). */
  readonly bandGrad?: Float64Array;
}

/** Above this many stored message entries (`n · 2^W`) the backward messages are checkpointed. */
const MESSAGE_BUDGET = 1 << 20;

/**
 * Exact marginals of a banded chain by a log-domain forward–backward pass over the `2^W` states of
 * the last `W` spins (bit `b` of a state ⇔ spin `t − W + b` is +1, the oldest at bit 0). Before
 * spin 0 the window holds `W` virtual spins with no field or coupling: they are independent and
 * uniform, so they change `Z` by the factor `2^W` and nothing else, and the first steps need no
 * special case. Messages are kept as logarithms shifted so their largest entry is 0, so no
 * evidence is lost however strong fields and couplings are (past and future may disagree by
 * thousands of nats, which a rescaled linear-domain pass would turn into 0 · ∞).
 *
 * The VJP is a forward-mode derivative. With `G = Σ_j g_j s_j`, `L = Σ_j g_j m_j` is
 * `(1/β) d/dε log Z(h + εg)` at ε = 0, so `∂L/∂h_k = d m_k(h + εg)/dε = β Cov(G, s_k)` and
 * `∂L/∂J_kl = d ⟨s_k s_l⟩(h + εg)/dε = β Cov(G, s_k s_l)` (the Hessian of `log Z` is symmetric).
 * Every message therefore carries, beside its log value, its tangent `τ = d log(message)/dε`
 * (the first-order expectation semiring of METHOD.md §6): products add tangents and sums average
 * them with the softmax weights. The window marginal `p(y) ∝ α·ψ·β` has tangent `τ(y) − τ̄`, so
 * the derivative of any window moment `⟨f⟩` is `Σ_y p(y)(τ(y) − τ̄) f(y)`: exact, no differencing.
 * A constant added to every tangent of one message cancels in `τ(y) − τ̄`, so each message's
 * tangents are shifted to keep them small.
 *
 * Cost `O(n · 2^W)` exponentials (plus `O(n · W)` for the couplings table), both with and without
 * `grad`. Memory: all `n` backward messages when `n · 2^W ≤ 2^20`; otherwise checkpoints every
 * `⌈√n⌉` positions and the backward pass run twice.
 *
 * @param problem the chain.
 * @param grad `g = ∂L/∂m` (`n` entries) or `undefined` for the forward pass only.
 * @param messageBudget stored backward-message entries above which to checkpoint (tests lower it).
 * @returns the outputs and `log Z`.
 */
export function runChain(
  problem: ChainProblem,
  grad: Float64Array | undefined,
  messageBudget = MESSAGE_BUDGET,
): ChainOutput & { readonly logPartition: number } {
  const { n, window: W, beta, fields, band } = problem;
  const S = 1 << W;
  const mask = S - 1;
  const tangent = grad !== undefined;
  const K = n * S <= messageBudget ? n : Math.ceil(Math.sqrt(n));
  const segments = Math.ceil(n / K);

  const a = new Float64Array(S); // a_t(x) = β(h_t + Σ_b J_{t−W+b,t} s_b(x)): log ψ_t = ±a_t for s_t = ±1
  const fieldTable = (t: number): void => linearTable(a, band, t * W, W, beta, beta * fields[t]!);
  const gOf = (t: number): number => (tangent ? beta * grad[t]! : 0);

  // β_{t−1} from β_t: sum over s_t of ψ_t(x, s_t) β_t(next state).
  const backStep = (t: number, inL: Float64Array, inT: Float64Array, inAt: number, outL: Float64Array, outT: Float64Array, outAt: number): void => {
    fieldTable(t);
    const gt = gOf(t);
    let best = -Infinity;
    let bestAt = 0;
    for (let x = 0; x < S; x++) {
      const x0 = inAt + (x >> 1);
      const x1 = inAt + ((x | S) >> 1);
      const l0 = inL[x0]! - a[x]!;
      const l1 = inL[x1]! + a[x]!;
      const hi = l0 > l1 ? l0 : l1;
      const e = Math.exp(-Math.abs(l0 - l1));
      const v = hi + Math.log1p(e);
      outL[outAt + x] = v;
      if (v > best) {
        best = v;
        bestAt = x;
      }
      if (tangent) {
        const wHi = 1 / (1 + e);
        const w0 = l0 > l1 ? wHi : e * wHi;
        outT[outAt + x] = w0 * (inT[x0]! - gt) + (1 - w0) * (inT[x1]! + gt);
      }
    }
    const shift = tangent ? outT[outAt + bestAt]! : 0;
    for (let x = 0; x < S; x++) {
      outL[outAt + x]! -= best;
      if (tangent) outT[outAt + x]! -= shift;
    }
  };

  // Checkpoints: β_{end−1} of every segment [jK, min((j+1)K, n)); the last one is β_{n−1} = 1 (log 0).
  const ckL = new Float64Array(segments * S);
  const ckT = new Float64Array(tangent ? segments * S : 0);
  if (segments > 1) {
    let curL = new Float64Array(S);
    let curT = new Float64Array(tangent ? S : 0);
    let nextL = new Float64Array(S);
    let nextT = new Float64Array(tangent ? S : 0);
    for (let t = n - 1; t >= K; t--) {
      backStep(t, curL, curT, 0, nextL, nextT, 0);
      [curL, nextL] = [nextL, curL];
      [curT, nextT] = [nextT, curT];
      if (t % K === 0) {
        ckL.set(curL, (t / K - 1) * S);
        if (tangent) ckT.set(curT, (t / K - 1) * S);
      }
    }
  }

  const magnetization = new Float64Array(n);
  const fieldGrad = tangent ? new Float64Array(n) : undefined;
  const bandGrad = tangent ? new Float64Array(n * W) : undefined;
  const segL = new Float64Array(K * S);
  const segT = new Float64Array(tangent ? K * S : 0);
  let la = new Float64Array(S); // log α_{t−1}, shifted; α_{−1} = 1 over the virtual spins
  let ta = new Float64Array(S);
  let laNext = new Float64Array(S);
  let taNext = new Float64Array(S);
  let logScale = 0;
  const pMinus = new Float64Array(S);
  const pPlus = new Float64Array(S);
  const r = new Float64Array(S);
  const bitSums = new Float64Array(Math.max(W, 1));

  for (let j = 0; j < segments; j++) {
    const start = j * K;
    const end = Math.min(start + K, n);
    segL.set(ckL.subarray(j * S, (j + 1) * S), (end - 1 - start) * S);
    if (tangent) segT.set(ckT.subarray(j * S, (j + 1) * S), (end - 1 - start) * S);
    for (let t = end - 1; t > start; t--) backStep(t, segL, segT, (t - start) * S, segL, segT, (t - 1 - start) * S);

    for (let t = start; t < end; t++) {
      fieldTable(t);
      const gt = gOf(t);
      const at = (t - start) * S;
      // Window marginal at t: p(x, s_t) ∝ α_{t−1}(x) ψ_t(x, s_t) β_t(next state).
      let top = -Infinity;
      for (let x = 0; x < S; x++) {
        const lm = la[x]! - a[x]! + segL[at + (x >> 1)]!;
        const lp = la[x]! + a[x]! + segL[at + ((x | S) >> 1)]!;
        pMinus[x] = lm;
        pPlus[x] = lp;
        top = Math.max(top, lm, lp);
      }
      let z = 0;
      for (let x = 0; x < S; x++) {
        pMinus[x] = Math.exp(pMinus[x]! - top);
        pPlus[x] = Math.exp(pPlus[x]! - top);
        z += pMinus[x]! + pPlus[x]!;
      }
      let m = 0;
      for (let x = 0; x < S; x++) m += pPlus[x]! - pMinus[x]!;
      magnetization[t] = m / z;

      if (tangent) {
        let mean = 0;
        for (let x = 0; x < S; x++) {
          mean += pMinus[x]! * (ta[x]! - gt + segT[at + (x >> 1)]!) + pPlus[x]! * (ta[x]! + gt + segT[at + ((x | S) >> 1)]!);
        }
        mean /= z;
        let total = 0;
        for (let x = 0; x < S; x++) {
          const tm = ta[x]! - gt + segT[at + (x >> 1)]! - mean;
          const tp = ta[x]! + gt + segT[at + ((x | S) >> 1)]! - mean;
          r[x] = (pPlus[x]! * tp - pMinus[x]! * tm) / z;
          total += r[x]!;
        }
        fieldGrad![t] = total;
        if (W > 0) {
          foldBitSums(r, W, bitSums, 0);
          // Σ_x r(x) s_b(x) = 2 Σ_{bit b set} r − Σ r; bits of virtual spins (t − W + b < 0) stay 0.
          for (let b = Math.max(0, W - t); b < W; b++) bandGrad![t * W + b] = 2 * bitSums[b]! - total;
        }
      }

      // α_t from α_{t−1}: the new state x' drops the oldest spin (bit 0 of x).
      let best = -Infinity;
      let bestAt = 0;
      for (let xp = 0; xp < S; xp++) {
        const y0 = 2 * xp;
        const y1 = y0 + 1;
        const x0 = y0 & mask;
        const x1 = y1 & mask;
        const s0 = (y0 >> W) & 1 ? 1 : -1;
        const s1 = (y1 >> W) & 1 ? 1 : -1;
        const l0 = la[x0]! + s0 * a[x0]!;
        const l1 = la[x1]! + s1 * a[x1]!;
        const hi = l0 > l1 ? l0 : l1;
        const e = Math.exp(-Math.abs(l0 - l1));
        const v = hi + Math.log1p(e);
        laNext[xp] = v;
        if (v > best) {
          best = v;
          bestAt = xp;
        }
        if (tangent) {
          const wHi = 1 / (1 + e);
          const w0 = l0 > l1 ? wHi : e * wHi;
          taNext[xp] = w0 * (ta[x0]! + s0 * gt) + (1 - w0) * (ta[x1]! + s1 * gt);
        }
      }
      const shift = tangent ? taNext[bestAt]! : 0;
      for (let x = 0; x < S; x++) {
        laNext[x]! -= best;
        taNext[x]! -= shift;
      }
      logScale += best;
      [la, laNext] = [laNext, la];
      [ta, taNext] = [taNext, ta];
    }
  }

  let rest = 0;
  for (let x = 0; x < S; x++) rest += Math.exp(la[x]!);
  const logPartition = logScale + Math.log(rest) - W * Math.LN2;
  return tangent ? { magnetization, fieldGrad: fieldGrad!, bandGrad: bandGrad!, logPartition } : { magnetization, logPartition };
}
