/** Hyper-parameters of one AdamW update. */
export interface AdamWHyper {
  readonly lr: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;
  /** Decoupled decay rate for this parameter (0 for J, biases, LayerNorm). */
  readonly weightDecay: number;
  /** 1-based step number, for the bias corrections. */
  readonly step: number;
  /** Factor applied to the gradient first (global-norm clipping); default 1. */
  readonly gradScale?: number;
}

/**
 * One decoupled-weight-decay Adam update (Loshchilov & Hutter; PyTorch's `AdamW`), in place,
 * in float64 arithmetic on typed arrays:
 * `g ← s·g`, `m ← β1 m + (1-β1) g`, `v ← β2 v + (1-β2) g²`,
 * `p ← p (1 - lr λ) - lr m̂ / (√v̂ + ε)` with `m̂ = m/(1-β1^t)`, `v̂ = v/(1-β2^t)`.
 * A plain loop is much cheaper than ~17 TensorFlow.js ops per parameter tensor, and it makes
 * the optimizer independent of the backend.
 */
export function adamWUpdate(
  param: Float32Array,
  grad: ArrayLike<number>,
  m: Float64Array,
  v: Float64Array,
  hyper: AdamWHyper,
): void {
  const { lr, beta1, beta2, epsilon, weightDecay, step } = hyper;
  const scale = hyper.gradScale ?? 1;
  const c1 = 1 - beta1 ** step;
  const c2 = 1 - beta2 ** step;
  const keep = 1 - lr * weightDecay;
  for (let i = 0; i < param.length; i++) {
    const g = scale * grad[i]!;
    const mi = beta1 * m[i]! + (1 - beta1) * g;
    const vi = beta2 * v[i]! + (1 - beta2) * g * g;
    m[i] = mi;
    v[i] = vi;
    param[i] = param[i]! * keep - (lr * (mi / c1)) / (Math.sqrt(vi / c2) + epsilon);
  }
}

/** `√Σ‖g‖²` over every gradient, in float64. */
export function globalNorm(grads: readonly ArrayLike<number>[]): number {
  let sum = 0;
  for (const g of grads) for (let i = 0; i < g.length; i++) sum += g[i]! * g[i]!;
  return Math.sqrt(sum);
}

/**
 * The factor PyTorch's `clip_grad_norm_` multiplies every gradient by: `clip/(norm + 1e-6)`
 * when that is below 1, else 1. A clip of 0 or `Infinity` disables clipping.
 */
export function clipScale(norm: number, clipNorm: number): number {
  if (!(clipNorm > 0 && Number.isFinite(clipNorm))) return 1;
  return Math.min(1, clipNorm / (norm + 1e-6));
}
