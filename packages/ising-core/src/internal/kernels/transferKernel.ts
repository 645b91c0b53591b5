import { readWindow, windowGradient } from './chainReadout.js';
import type { GradientScratch } from './chainReadout.js';
import { centeredDirection } from './centeredDirection.js';
import type { Direction } from './centeredDirection.js';
import { linearEngine, logEngine } from './transferSteps.js';
import type { ChainProblem, StepEngine } from './transferSteps.js';

export type { ChainProblem } from './transferSteps.js';

/** What {@link runChain} returns: magnetizations and `log Z`; with a gradient also the VJP. */
export interface ChainOutput {
  /** `⟨s_t⟩`, `n` entries. */
  readonly magnetization: Float64Array;
  /** `P(s_t = +1)`, `n` entries, without the cancellation of `(1 + m)/2` where it is tiny. */
  readonly probabilityUp: Float64Array;
  /** `log Z` of the chain. */
  readonly logPartition: number;
  /** With `grad`: `β Cov(G, s_t)`, `n` entries. */
  readonly fieldGrad?: Float64Array;
  /** With `grad`: `β Cov(G, s_{t−W+b} s_t)` at `t·W + b` (the layout of `band`). */
  readonly bandGrad?: Float64Array;
}

/** Which number representation {@link runChain} uses: `'auto'` picks by the dynamic-range bound. */
export type ChainDomain = 'auto' | 'log' | 'linear';

/** {@link runChain}'s options (see its parameters). */
export interface ChainOptions {
  readonly center?: Float64Array;
  readonly domain?: ChainDomain;
  readonly messageBudget?: number;
}

/** Above this many stored message entries (`n · 2^W`) the backward messages are checkpointed. */
export const MESSAGE_BUDGET = 1 << 20;

/**
 * Largest dynamic-range bound `R` (below) for the linear-domain engine. With `R ≤ 250` every
 * factor lies in `[e^{−125}, e^{125}]`, every rescaled message entry in `[e^{−250}, 1]` and every
 * window weight in `[e^{−625}, e^{125}]`: all normal float64 numbers (≥ 2.2e−308 ≈ e^{−708}), so the
 * linear pass loses nothing to underflow and is as exact as the log-domain one.
 */
export const LINEAR_RANGE = 250;

/**
 * Largest step bound `β · max_t (|h_t| + Σ_k |J_tk|)` for the float32 kernel (transfer.wat in four lanes).
 * Every factor of a step then lies in `[e^{−16}, e^{16}]`, so each rescaled message keeps its
 * largest entry above `e^{−16}/2^W` of its sum, and the kernel's flush of entries below `2^{−60}`
 * drops only entries below `1e−9` of the largest (float32 rounding is 6e−8); no product of two
 * kept entries is subnormal. In a trained 4-layer GPT (docs/results/gpt-baby, transfer-matrix,
 * seed 0; 12 windows of the corpus) 99.9 % of the attention problems were within this bound.
 */
export const FLOAT32_STEP_RANGE = 16;

/**
 * `R = 2β · max over windows of W + 1 consecutive spins of Σ_j (|h_j| + Σ_k |J_jk|)`. Flipping any
 * spins of a window changes `−βE` by at most `R`, so within one message (or one window marginal)
 * no two entries differ by more than a factor `e^R`.
 */
export function dynamicRange(problem: ChainProblem): number {
  const { n, window: W, beta, fields, band } = problem;
  const row = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    row[t]! += Math.abs(fields[t]!);
    for (let b = Math.max(0, W - t); b < W; b++) {
      const v = Math.abs(band[t * W + b]!);
      row[t]! += v;
      row[t - W + b]! += v;
    }
  }
  let sum = 0;
  let largest = 0;
  for (let t = 0; t < n; t++) {
    sum += row[t]!;
    if (t > W) sum -= row[t - W - 1]!;
    largest = Math.max(largest, sum);
  }
  return 2 * beta * largest;
}

/** The backward step of spin `t`: β_{t−1} from β_t (and their tangents when `grad` is given). */
function backStep(
  engine: StepEngine,
  dir: Direction,
  tangent: boolean,
  t: number,
  inL: Float64Array,
  inT: Float64Array,
  inAt: number,
  outL: Float64Array,
  outT: Float64Array,
  outAt: number,
): void {
  engine.prepare(t);
  engine.back(inL, inT, inAt, outL, outT, outAt, dir.up[t]!, dir.down[t]!, tangent);
}

/**
 * The checkpoints of the backward pass: `β_{end−1}` of every segment `[jK, min((j+1)K, n))`, the
 * last one `β_{n−1} = 1` (values at `j·S` of `ckL`, tangents of `ckT`).
 */
function backwardCheckpoints(
  engine: StepEngine,
  problem: ChainProblem,
  dir: Direction,
  tangent: boolean,
  K: number,
  segments: number,
): { readonly ckL: Float64Array; readonly ckT: Float64Array } {
  const { n, window: W } = problem;
  const S = 1 << W;
  const ckL = new Float64Array(segments * S).fill(engine.one);
  const ckT = new Float64Array(tangent ? segments * S : 0);
  if (segments > 1) {
    let curL = new Float64Array(S).fill(engine.one);
    let curT = new Float64Array(tangent ? S : 0);
    let nextL = new Float64Array(S);
    let nextT = new Float64Array(tangent ? S : 0);
    for (let t = n - 1; t >= K; t--) {
      backStep(engine, dir, tangent, t, curL, curT, 0, nextL, nextT, 0);
      [curL, nextL] = [nextL, curL];
      [curT, nextT] = [nextT, curT];
      if (t % K === 0) {
        ckL.set(curL, (t / K - 1) * S);
        if (tangent) ckT.set(curT, (t / K - 1) * S);
      }
    }
  }
  return { ckL, ckT };
}

/**
 * Exact marginals of a banded chain (every `J_jk` with `k − j > W` zero) by a forward–backward
 * pass over the `2^W` states of the last `W` spins (bit `b` ⇔ spin `t − W + b` is +1, the oldest
 * at bit 0). Before spin 0 the window holds `W` virtual spins with no field or coupling: they are
 * independent and uniform, so they change `Z` by the factor `2^W` and nothing else, and the first
 * steps need no special case. Messages are rescaled at every step; they are kept in the linear
 * domain when the dynamic-range bound proves no weight can underflow, else as logarithms.
 *
 * The VJP is a forward-mode derivative. With `G = Σ_j g_j s_j`, `L = Σ_j g_j m_j` is
 * `(1/β) d/dε log Z(h + εg)` at ε = 0, so `∂L/∂h_k = d m_k(h + εg)/dε = β Cov(G, s_k)` and
 * `∂L/∂J_kl = d ⟨s_k s_l⟩(h + εg)/dε = β Cov(G, s_k s_l)` (the Hessian of `log Z` is symmetric).
 * Every message therefore carries, beside its value, its tangent `τ = d log(message)/dε` (the
 * first-order expectation semiring of METHOD.md §6): products add tangents and sums average them
 * with the summands' weights. The window marginal `p(y) ∝ α·ψ·β` has tangent `τ(y) − τ̄`, so the
 * derivative of any window moment `⟨f⟩` is `Σ_y p(y)(τ(y) − τ̄) f(y)`: exact, no differencing. A
 * constant added to every tangent of one message cancels in `τ(y) − τ̄`, so each message's
 * tangents are shifted to keep them small.
 *
 * Cost `O(n · 2^W)` per pass (plus `O(n · W)`), with or without `grad`. Memory: all `n` backward
 * messages when `n · 2^W ≤ 2^20`; otherwise checkpoints every `⌈√n⌉` positions and the backward
 * pass run twice.
 *
 * @param problem the chain.
 * @param grad `g = ∂L/∂m` (`n` entries) or `undefined` for the forward pass only.
 * @param options `center`: the forward's `probabilityUp` (`n` entries) to center the VJP's
 *   direction on (see {@link centeredDirection}; absent, uncentered); `domain`: `'auto'`
 *   (default), tests force `'log'` or `'linear'`; `messageBudget`: stored backward-message
 *   entries above which to checkpoint (tests lower it).
 * @returns the outputs and `log Z`.
 */
export function runChain(
  problem: ChainProblem,
  grad: Float64Array | undefined,
  options: ChainOptions = {},
): ChainOutput {
  const { domain = 'auto', messageBudget = MESSAGE_BUDGET, center } = options;
  const { n, window: W, beta } = problem;
  const S = 1 << W;
  const tangent = grad !== undefined;
  const linear =
    domain === 'linear' || (domain === 'auto' && dynamicRange(problem) <= LINEAR_RANGE);
  const engine: StepEngine = linear ? linearEngine(problem) : logEngine(problem);
  const K = n * S <= messageBudget ? n : Math.ceil(Math.sqrt(n));
  const segments = Math.ceil(n / K);
  const dir = tangent
    ? centeredDirection(beta, grad, 0, n, center, 0)
    : { up: new Float64Array(n), down: new Float64Array(n) };
  const { ckL, ckT } = backwardCheckpoints(engine, problem, dir, tangent, K, segments);

  const magnetization = new Float64Array(n);
  const probabilityUp = new Float64Array(n);
  const fieldGrad = tangent ? new Float64Array(n) : undefined;
  const bandGrad = tangent ? new Float64Array(n * W) : undefined;
  const segL = new Float64Array(K * S);
  const segT = new Float64Array(tangent ? K * S : 0);
  let la = new Float64Array(S).fill(engine.one); // α_{t−1}, rescaled; α_{−1} = 1 over the virtual spins
  let ta = new Float64Array(S);
  let laNext = new Float64Array(S);
  let taNext = new Float64Array(S);
  let logScale = 0;
  const minus = new Float64Array(S);
  const plus = new Float64Array(S);
  const scratch: GradientScratch = {
    r: new Float64Array(S),
    tauMinus: new Float64Array(tangent ? S : 0),
    tauPlus: new Float64Array(tangent ? S : 0),
    bitSums: new Float64Array(Math.max(W, 1)),
  };

  for (let j = 0; j < segments; j++) {
    const start = j * K;
    const end = Math.min(start + K, n);
    segL.set(ckL.subarray(j * S, (j + 1) * S), (end - 1 - start) * S);
    if (tangent) segT.set(ckT.subarray(j * S, (j + 1) * S), (end - 1 - start) * S);
    for (let t = end - 1; t > start; t--)
      backStep(
        engine,
        dir,
        tangent,
        t,
        segL,
        segT,
        (t - start) * S,
        segL,
        segT,
        (t - 1 - start) * S,
      );

    for (let t = start; t < end; t++) {
      engine.prepare(t);
      const at = (t - start) * S;
      // Window marginal at t: p(x, s_t) ∝ α_{t−1}(x) ψ_t(x, s_t) β_t(next state).
      engine.window(la, segL, at, minus, plus);
      const z = readWindow(S, minus, plus, t, magnetization, probabilityUp);
      const gu = dir.up[t]!;
      const gd = dir.down[t]!;
      if (tangent)
        windowGradient(t, W, gu, gd, ta, segT, at, minus, plus, z, scratch, fieldGrad!, bandGrad!);

      logScale += engine.forward(la, ta, laNext, taNext, gu, gd, tangent);
      const lSwap = la;
      la = laNext;
      laNext = lSwap;
      const tSwap = ta;
      ta = taNext;
      taNext = tSwap;
    }
  }

  const logPartition = logScale + engine.logTotal(la) - W * Math.LN2;
  return tangent
    ? { magnetization, probabilityUp, logPartition, fieldGrad: fieldGrad!, bandGrad: bandGrad! }
    : { magnetization, probabilityUp, logPartition };
}
