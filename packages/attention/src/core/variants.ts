import { isAttentionVariant, ATTENTION_VARIANTS } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import type { AttentionVariant } from '@boltzmann/ising-core';
import { AttentionError } from './errors.js';

// The variants are defined once, in ising-core (importable without TensorFlow.js).
export { ATTENTION_VARIANTS, isAttentionVariant, usesSampler } from '@boltzmann/ising-core';
export type { AttentionVariant } from '@boltzmann/ising-core';

/**
 * Asserts that `value` names an attention variant.
 *
 * @throws {AttentionError} ATTENTION_INVALID_CONFIG naming the value and the valid names.
 * @example
 * import { assertAttentionVariant } from '@boltzmann/attention';
 *
 * const flag: unknown = 'boltzmann'; // e.g. from a command line
 * assertAttentionVariant(flag); // throws ATTENTION_INVALID_ARGUMENT for anything else
 * const variant = flag; // now typed AttentionVariant
 * console.log(variant);
 * @category Attention
 */
export function assertAttentionVariant(value: unknown): asserts value is AttentionVariant {
  if (!isAttentionVariant(value)) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `variant ${echo(value)} is not one of ${ATTENTION_VARIANTS.join(', ')}`,
    );
  }
}
