/**
 * A block's effective couplings `J` (`H × T × T`) from its coupling parameter, and the
 * parameter's gradient back from `∂L/∂J`, as the tfjs model's coupling builder
 * (core/couplingForm.ts): `full` is the leading `T × T` block of each head's `L × L` matrix;
 * `banded:w` the same masked to `0 < k − j ≤ w`; `relative` `J_jk = f(k − j)` above the
 * diagonal. Only the strict upper triangle is ever read.
 */
import type { ParsedCouplingForm } from '../core/couplingForm.js';

/** Sizes: heads, the pass's length `t` and the model's `maxLength`. */
export interface CouplingShape {
  readonly heads: number;
  readonly length: number;
  readonly maxLength: number;
}

function inBand(form: ParsedCouplingForm, j: number, k: number): boolean {
  return k > j && (form.kind !== 'banded' || k - j <= form.bandwidth);
}

/** Writes J (`H × t × t`) at `out` from the parameter at `param`. */
export function couplingsForward(
  f: Float32Array,
  form: ParsedCouplingForm,
  s: CouplingShape,
  at: { param: number; out: number },
): void {
  const { heads, length: t, maxLength: l } = s;
  for (let hd = 0; hd < heads; hd++)
    for (let j = 0; j < t; j++)
      for (let k = 0; k < t; k++) {
        const value =
          form.kind === 'relative'
            ? f[at.param + hd * l + (k - j)]!
            : f[at.param + hd * l * l + j * l + k]!;
        f[at.out + (hd * t + j) * t + k] = inBand(form, j, k) ? value : 0;
      }
}

/** Adds ∂L/∂param from ∂L/∂J (`H × t × t` at `gj`) into the parameter's gradient at `grad`. */
export function couplingsBackward(
  f: Float32Array,
  form: ParsedCouplingForm,
  s: CouplingShape,
  at: { gj: number; grad: number },
): void {
  const { heads, length: t, maxLength: l } = s;
  for (let hd = 0; hd < heads; hd++)
    for (let j = 0; j < t; j++)
      for (let k = j + 1; k < t; k++) {
        if (!inBand(form, j, k)) continue;
        const g = f[at.gj + (hd * t + j) * t + k]!;
        const to =
          form.kind === 'relative' ? at.grad + hd * l + (k - j) : at.grad + hd * l * l + j * l + k;
        f[to] = f[to]! + g;
      }
}
