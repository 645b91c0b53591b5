import { AttentionError } from './errors.js';

/**
 * How a head's coupling matrix `J` is parameterized:
 * - `'full'` (default): a free `T × T` matrix (strict upper triangle used);
 * - `'relative'`: `J_jk = f(k − j)`, one learned value per distance, `O(T)` parameters;
 * - `'banded:w'`: a free matrix masked to `0 < k − j ≤ w`, so `J` is exactly banded and the
 *   `transfer-matrix` sampler computes it exactly at any length.
 * @summary How a head's coupling matrix `J` is parameterized.
 * @category Model
 */
export type CouplingForm = 'full' | 'relative' | `banded:${number}`;

/**
 * A parsed {@link CouplingForm}.
 *
 * @category Model
 */
export type ParsedCouplingForm =
  | { readonly kind: 'full' }
  | { readonly kind: 'relative' }
  | { readonly kind: 'banded'; readonly bandwidth: number };

/**
 * Parses and validates a coupling form against the model's length.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CONFIG for anything else, or a bandwidth that is not an integer in [0, maxLength − 1].
 * @example
 * import { parseCouplingForm } from '@boltzmann/attention';
 *
 * console.log(parseCouplingForm('banded:8', 64)); // { kind: 'banded', bandwidth: 8 }
 * @category Model
 */
export function parseCouplingForm(form: unknown, maxLength: number): ParsedCouplingForm {
  if (form === 'full' || form === 'relative') return { kind: form };
  const m = typeof form === 'string' ? /^banded:(\d+)$/.exec(form) : null;
  const w = m ? Number(m[1]) : Number.NaN;
  if (m && Number.isSafeInteger(w) && w < Math.max(1, maxLength))
    return { kind: 'banded', bandwidth: w };
  throw new AttentionError(
    'ATTENTION_INVALID_CONFIG',
    `couplingForm must be 'full', 'relative' or 'banded:w' with w an integer in [0, ${Math.max(0, maxLength - 1)}], got ${JSON.stringify(form)?.slice(0, 60)}`,
  );
}

/** Shape of the coupling parameter of `heads` heads: `[heads, L]` for relative (entry d = distance d), else `[heads, L, L]`. */
export function couplingParamShape(
  form: ParsedCouplingForm,
  heads: number,
  maxLength: number,
): number[] {
  return form.kind === 'relative' ? [heads, maxLength] : [heads, maxLength, maxLength];
}
