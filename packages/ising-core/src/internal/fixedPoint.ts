/**
 * The one fixed-point engine of the iterative samplers (mean-field, tap) and of their adjoint
 * fallback: solves `x = F(x)` for one problem by damped iteration with Anderson acceleration.
 *
 * Residual (our definition, used everywhere the engine runs): at an iterate `x`,
 * `r(x) = max_j |F(x)_j − x_j| / max(floor, max_j |x_j|)`, where `floor` is given by the caller
 * (1 for magnetizations, which lie in [−1, 1], so there the residual is the absolute one; the
 * right-hand side's max-norm for an adjoint, so there it is relative to the gradient's scale).
 * A problem has converged when `r(x) ≤ tolerance`; the engine then returns `F(x)` (one more map
 * application, never worse near a contraction).
 */

/** A map `F` on the first `n` entries of a vector. */
export interface FixedPointMap {
  /** Writes `F(x)` into `out` (first `n` entries); must not modify `x`. */
  apply(x: Float64Array, out: Float64Array, n: number): void;
}

/** Settings of one solve. */
export interface FixedPointSettings {
  /** Weight of the previous iterate in a plain step, in [0, 1): `x ← d·x + (1 − d)·F(x)`. */
  readonly damping: number;
  /** Converged when the relative residual (module doc) is at most this. */
  readonly tolerance: number;
  /** Map evaluations allowed (rejected Anderson steps count too). */
  readonly maxIterations: number;
  /** Anderson memory (number of stored differences); 0 = damped iteration only. */
  readonly memory: number;
}

/**
 * Scratch of the engine, sized once per batch (capacity = the largest problem), reused by every
 * problem, so a solve allocates nothing. After `solveFixedPoint` it holds the figures of that solve.
 */
export class FixedPointWorkspace {
  readonly capacity: number;
  readonly memory: number;
  /** Map evaluations of the last solve. */
  iterations = 0;
  /** Relative residual of the last solve's final iterate. */
  residual = Infinity;
  /** Anderson steps of the last solve that did not lower the residual and were replaced by damped steps. */
  rejected = 0;
  readonly fx: Float64Array;
  readonly prevX: Float64Array;
  readonly prevF: Float64Array;
  /**
   * Circular histories: row `i` of `dF` is one stored difference of residuals `Δf`, the same row of
   * `dG` the matching `Δx + μ Δf` (all the update needs).
   */
  readonly dG: Float64Array;
  readonly dF: Float64Array;
  /** `ΔFᵀΔF` over the stored rows (physical indices), kept up to date one row at a time. */
  readonly gramFull: Float64Array;
  readonly gram: Float64Array;
  readonly rhs: Float64Array;
  readonly gamma: Float64Array;

  constructor(capacity: number, memory: number) {
    this.capacity = capacity;
    this.memory = memory;
    this.fx = new Float64Array(capacity);
    this.prevX = new Float64Array(capacity);
    this.prevF = new Float64Array(capacity);
    this.dG = new Float64Array(Math.max(1, memory) * capacity);
    this.dF = new Float64Array(Math.max(1, memory) * capacity);
    this.gramFull = new Float64Array(memory * memory);
    this.gram = new Float64Array(memory * memory);
    this.rhs = new Float64Array(memory);
    this.gamma = new Float64Array(memory);
  }
}

/**
 * Solves `x = F(x)` in place: `x` holds the initial guess (warm start) on entry and the answer
 * on return, `F` of the last accepted iterate (the converged one, or the last one when the budget
 * runs out); `ws.iterations`, `ws.residual` (of that iterate), `ws.rejected` are set.
 * Non-convergence is not an error here: the caller reads `ws.residual`. A non-finite residual
 * stops the solve at once (the caller reports it).
 *
 * Anderson (type II, Walker & Ni 2011): with residuals `f_k = F(x_k) − x_k` and the last `m`
 * differences `ΔX`, `ΔF`, take `γ = argmin ‖f_k − ΔF γ‖₂` (normal equations, a tiny ridge) and
 * `x_{k+1} = x_k + μ f_k − (ΔX + μ ΔF) γ` with `μ = 1 − damping` (the history stores `ΔF` and `ΔX + μ ΔF`). Safeguard: an Anderson step
 * whose new residual is not below the previous one is undone; the damped step
 * `x_k + μ f_k` is taken instead and the history is cleared.
 */
export function solveFixedPoint(
  map: FixedPointMap,
  n: number,
  x: Float64Array,
  floor: number,
  settings: FixedPointSettings,
  ws: FixedPointWorkspace,
): void {
  const { fx, prevX, prevF, dG, dF } = ws;
  const mix = 1 - settings.damping;
  const memory = Math.min(settings.memory, ws.memory);
  let stored = 0; // differences in the history
  let head = 0; // next row to overwrite
  let hasPrev = false;
  let lastWasAnderson = false;
  let prevResidual = Infinity;
  ws.rejected = 0;
  ws.residual = Infinity;
  for (let it = 1; it <= settings.maxIterations; it++) {
    map.apply(x, fx, n);
    let fmax = 0;
    let xmax = floor;
    for (let j = 0; j < n; j++) {
      const f = fx[j]! - x[j]!;
      fx[j] = f; // fx now holds the residual vector f = F(x) − x
      const af = Math.abs(f);
      if (af > fmax || Number.isNaN(af)) fmax = Number.isNaN(af) ? NaN : af;
      const ax = Math.abs(x[j]!);
      if (ax > xmax) xmax = ax;
    }
    const residual = fmax / xmax;
    ws.iterations = it;
    if (!Number.isFinite(residual)) {
      ws.residual = NaN;
      return;
    }
    if (residual <= settings.tolerance) {
      for (let j = 0; j < n; j++) x[j]! += fx[j]!;
      ws.residual = residual;
      return;
    }
    if (lastWasAnderson && !(residual < prevResidual)) {
      // Undo the Anderson step: back to the previous iterate, take the damped step from there.
      ws.rejected += 1;
      for (let j = 0; j < n; j++) x[j] = prevX[j]! + mix * prevF[j]!;
      stored = 0;
      head = 0;
      hasPrev = false;
      lastWasAnderson = false;
      ws.residual = prevResidual;
      continue;
    }
    ws.residual = residual;
    if (memory > 0 && hasPrev) {
      const row = head * n;
      for (let j = 0; j < n; j++) {
        const df = fx[j]! - prevF[j]!;
        dF[row + j] = df;
        dG[row + j] = x[j]! - prevX[j]! + mix * df;
      }
      if (stored < memory) stored += 1;
      gramRowAndRhs(ws, n, head, stored);
      head = (head + 1) % memory;
    }
    prevX.set(x.subarray(0, n));
    prevF.set(fx.subarray(0, n));
    hasPrev = true;
    prevResidual = residual;
    lastWasAnderson = stored > 0 && andersonCoefficients(ws, stored);
    for (let j = 0; j < n; j++) x[j]! += mix * fx[j]!;
    if (lastWasAnderson) {
      const { gamma } = ws;
      for (let i = 0; i < stored; i++) {
        const g = gamma[i]!;
        const row = i * n;
        for (let j = 0; j < n; j++) x[j]! -= g * dG[row + j]!;
      }
    }
  }
  // Out of budget: return F of the last accepted iterate (for tanh maps it stays in [−1, 1], which
  // an extrapolated Anderson iterate need not), with that iterate's residual.
  for (let j = 0; j < n; j++) x[j] = prevX[j]! + prevF[j]!;
  ws.residual = prevResidual;
}

/**
 * After row `row` of `ΔF` was (re)written: that row of `ΔFᵀΔF` against the `stored` rows, and the
 * right-hand side `ΔFᵀ f` (`f` in `ws.fx`), in one pass over the history.
 */
function gramRowAndRhs(ws: FixedPointWorkspace, n: number, row: number, stored: number): void {
  const { dF, fx, gramFull, rhs } = ws;
  const M = ws.memory;
  const h = row * n;
  for (let b = 0; b < stored; b++) {
    const o = b * n;
    let s = 0;
    let r = 0;
    for (let j = 0; j < n; j++) {
      const v = dF[o + j]!;
      s += dF[h + j]! * v;
      r += v * fx[j]!;
    }
    gramFull[row * M + b] = s;
    gramFull[b * M + row] = s;
    rhs[b] = r;
  }
}

/**
 * `γ = argmin ‖f − ΔF γ‖₂` over the `stored` history rows into `ws.gamma` (`ws.rhs` = `ΔFᵀ f`), by Cholesky on the
 * normal equations with a ridge of 1e-12 × the largest diagonal. False when the system is
 * degenerate (then the caller takes the plain damped step).
 */
function andersonCoefficients(ws: FixedPointWorkspace, stored: number): boolean {
  const { gram, gramFull, rhs, gamma } = ws;
  const m = stored;
  const M = ws.memory;
  let diagMax = 0;
  for (let a = 0; a < m; a++) {
    for (let b = 0; b <= a; b++) gram[a * m + b] = gramFull[a * M + b]!;
    diagMax = Math.max(diagMax, gram[a * m + a]!);
  }
  if (!(diagMax > 0 && Number.isFinite(diagMax))) return false;
  const ridge = 1e-12 * diagMax;
  // In-place Cholesky of the lower triangle: gram = L Lᵀ.
  for (let a = 0; a < m; a++) {
    for (let b = 0; b <= a; b++) {
      let s = gram[a * m + b]! + (a === b ? ridge : 0);
      for (let c = 0; c < b; c++) s -= gram[a * m + c]! * gram[b * m + c]!;
      if (a === b) {
        if (!(s > 0)) return false;
        gram[a * m + a] = Math.sqrt(s);
      } else {
        gram[a * m + b] = s / gram[b * m + b]!;
      }
    }
  }
  for (let a = 0; a < m; a++) {
    let s = rhs[a]!;
    for (let c = 0; c < a; c++) s -= gram[a * m + c]! * gamma[c]!;
    gamma[a] = s / gram[a * m + a]!;
  }
  for (let a = m - 1; a >= 0; a--) {
    let s = gamma[a]!;
    for (let c = a + 1; c < m; c++) s -= gram[c * m + a]! * gamma[c]!;
    gamma[a] = s / gram[a * m + a]!;
  }
  for (let a = 0; a < m; a++) if (!Number.isFinite(gamma[a]!)) return false;
  return true;
}
