/**
 * Masked mean cross-entropy over the logits rows with its gradient in one pass, as the tfjs
 * model's `maskedCrossEntropy`: `L = Σ_n w_n (lse(z_n) − z_n[t_n]) / Σ w`, and the logits are
 * overwritten by `∂L/∂z = (softmax(z_n) − onehot(t_n)) w_n / Σ w`. Sums in float64.
 */

/** Loss of `rows` logit rows of width `classes` at `logits`; the rows become their gradient. */
export function crossEntropyWithGradient(
  f: Float32Array,
  logits: number,
  rows: number,
  classes: number,
  targets: Int32Array,
  mask: Float32Array,
): number {
  let total = 0;
  for (let n = 0; n < rows; n++) total += mask[n]!;
  let loss = 0;
  for (let n = 0; n < rows; n++) {
    const z = logits + n * classes;
    let max = -Infinity;
    for (let c = 0; c < classes; c++) max = Math.max(max, f[z + c]!);
    let sum = 0;
    for (let c = 0; c < classes; c++) sum += Math.exp(f[z + c]! - max);
    const lse = max + Math.log(sum);
    const weight = mask[n]! / total;
    loss += mask[n]! * (lse - f[z + targets[n]!]!);
    for (let c = 0; c < classes; c++) f[z + c] = Math.exp(f[z + c]! - lse) * weight;
    f[z + targets[n]!] = f[z + targets[n]!]! - weight;
  }
  return loss / total;
}
