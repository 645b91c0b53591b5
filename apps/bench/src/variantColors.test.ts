import { describe, expect, it } from 'vitest';
import { colourScale } from './variantColors.js';

describe('colourScale', () => {
  it('should give each kind of column the same colour in any plot, in variant order', () => {
    const a = colourScale(['sigmoid', 'boltzmann (tap)', 'softmax', 'softmax']);
    const b = colourScale(['boltzmann (transfer-matrix, banded:8)', 'boltzmann (tap)', 'softmax']);
    expect(a.domain).toEqual(['softmax', 'boltzmann (tap)', 'sigmoid']);
    const colour = (s: { domain: string[]; range: string[] }, c: string) =>
      s.range[s.domain.indexOf(c)];
    expect(colour(a, 'boltzmann (tap)')).toBe(colour(b, 'boltzmann (tap)'));
    expect(colour(a, 'softmax')).toBe(colour(b, 'softmax'));
  });

  it('should keep colours distinct within a plot, for two columns of a kind and for unknown ones', () => {
    const s = colourScale([
      'boltzmann (transfer-matrix, banded:4)',
      'boltzmann (transfer-matrix, banded:8)',
      'dqa-dist',
      'dqa-256shots',
    ]);
    expect(new Set(s.range).size).toBe(4);
  });
});
