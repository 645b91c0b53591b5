import { AttentionError } from './errors.js';

/**
 * The four attention variants of the paper's ablation (METHOD.md §1):
 * `softmax` (baseline), `boltzmann` (fields h and couplings J), `sigmoid` (h only, J = 0,
 * `m = tanh(βh)`), `coupling` (J only, h = 0 — exactly uniform attention).
 */
export const ATTENTION_VARIANTS = ['softmax', 'boltzmann', 'sigmoid', 'coupling'] as const;

/** One of {@link ATTENTION_VARIANTS}. */
export type AttentionVariant = (typeof ATTENTION_VARIANTS)[number];

/**
 * True when `value` names an attention variant.
 *
 * @example
 * isAttentionVariant('boltzmann'); // true
 */
export function isAttentionVariant(value: unknown): value is AttentionVariant {
  return typeof value === 'string' && (ATTENTION_VARIANTS as readonly string[]).includes(value);
}

/**
 * Asserts that `value` names an attention variant.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CONFIG naming the value and the valid names.
 * @example
 * assertAttentionVariant(flags.variant); // flags.variant is now an AttentionVariant
 */
export function assertAttentionVariant(value: unknown): asserts value is AttentionVariant {
  if (!isAttentionVariant(value)) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `variant ${JSON.stringify(value)} is not one of ${ATTENTION_VARIANTS.join(', ')}`,
    );
  }
}

/**
 * True for the variants whose weights come from an Ising sampler (and that own a coupling matrix J).
 *
 * @example
 * usesSampler('coupling'); // true; usesSampler('sigmoid'); // false
 */
export function usesSampler(variant: AttentionVariant): boolean {
  return variant === 'boltzmann' || variant === 'coupling';
}
