import { describe, expect, it } from 'vitest';
import { ATTENTION_VARIANTS, isAttentionVariant, usesSampler } from './index.js';

describe('attention variants (defined once, here, without TensorFlow.js)', () => {
  it('lists the four variants of the ablation and says which use a sampler', () => {
    expect(ATTENTION_VARIANTS).toEqual(['softmax', 'boltzmann', 'sigmoid', 'coupling']);
    expect(ATTENTION_VARIANTS.filter(usesSampler)).toEqual(['boltzmann', 'coupling']);
    expect(isAttentionVariant('sigmoid')).toBe(true);
    expect(isAttentionVariant('Softmax')).toBe(false);
    expect(isAttentionVariant(3)).toBe(false);
  });
});
