/**
 * The four attention variants of the paper's ablation (METHOD.md §1): `softmax` (baseline),
 * `boltzmann` (fields h and couplings J), `sigmoid` (h only, J = 0, `m = tanh(βh)`), `coupling`
 * (J only, h = 0 — exactly uniform attention). Defined here, once, so that an application can
 * name and check variants without loading TensorFlow.js.
 * @summary The four attention variants of the paper's ablation (METHOD.md §1).
 * @category Attention
 */
export const ATTENTION_VARIANTS = ['softmax', 'boltzmann', 'sigmoid', 'coupling'] as const;

/**
 * One of {@link ATTENTION_VARIANTS}.
 *
 * @category Attention
 */
export type AttentionVariant = (typeof ATTENTION_VARIANTS)[number];

/**
 * The variants whose weights ising-core's causal op computes (every one but `softmax`).
 *
 * @category Attention
 */
export type CausalVariant = Exclude<AttentionVariant, 'softmax'>;

/**
 * True when `value` names an attention variant.
 *
 * @example
 * import { isAttentionVariant } from '@boltzmann/ising-core';
 *
 * console.log(isAttentionVariant('boltzmann'), isAttentionVariant('linear')); // true false
 * @category Attention
 */
export function isAttentionVariant(value: unknown): value is AttentionVariant {
  return typeof value === 'string' && (ATTENTION_VARIANTS as readonly string[]).includes(value);
}

/**
 * True for the variants whose weights come from an Ising sampler (and that own a coupling matrix J).
 *
 * @example
 * import { usesSampler } from '@boltzmann/ising-core';
 *
 * console.log(usesSampler('coupling'), usesSampler('sigmoid')); // true false
 * @category Attention
 */
export function usesSampler(variant: AttentionVariant): boolean {
  return variant === 'boltzmann' || variant === 'coupling';
}
