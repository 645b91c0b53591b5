import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import { pairedTTest } from './stats.js';
import { formatTest } from './summaryTable.js';
import { trendTable } from './trendTable.js';

describe('trendTable', () => {
  it('should fit the per-seed slope of the relative difference against log2 T and t-test the slopes', () => {
    // softmax 5 everywhere; boltzmann (−1 − 0.1·seed) % per doubling of T from T = 4, plus an
    // offset that a slope ignores; sigmoid at one length only (no slope).
    const records = syntheticRecords(
      ['shakespeare', '--lengths', '4,8,16', '--seeds', '0,1,2', '--variants', 'softmax,boltzmann'],
      (c) =>
        c.variant === 'softmax'
          ? 5
          : 5 * (1 + ((-1 - 0.1 * c.seed) * Math.log2(c.length / 4) + 0.3) / 100),
    );
    const table = trendTable(records, ['softmax', 'boltzmann'], 'softmax')!;
    expect(table.head.slice(0, 5)).toEqual([
      'group',
      'variant',
      'lengths',
      'seeds',
      'slope of (variant − softmax) per doubling of T',
    ]);
    const [ci, p] = formatTest(pairedTTest([-1, -1.1, -1.2]), 'perplexity', 'rel');
    expect(ci).toMatch(/^\[−\d\.\d\d, −\d\.\d\d\] %$/);
    expect(table.body).toEqual([
      ['FFN on, d=64', 'boltzmann', '4, 8, 16', '3', '−1.10 ± 0.10 %', ci, p],
    ]);
  });

  it('should give accuracy slopes in points and return null without two seeds of slopes', () => {
    const acc = syntheticRecords(
      ['brackets', '--lengths', '8,16', '--seeds', '0,1', '--variants', 'softmax,boltzmann'],
      // boltzmann +2 and +4 points per doubling on seeds 0 and 1.
      (c) => (c.variant === 'softmax' ? 0.9 : 0.9 + 0.02 * (1 + c.seed) * Math.log2(c.length / 8)),
    );
    const row = trendTable(acc, ['softmax', 'boltzmann'], 'softmax')!.body[0]!;
    expect(row.slice(0, 5)).toEqual([
      'balanced, FFN off, d=16',
      'boltzmann',
      '8, 16',
      '2',
      '+3.00 ± 1.41 pp',
    ]);
    const one = acc.filter((r) => r.config.seed === 0);
    expect(trendTable(one, ['softmax', 'boltzmann'], 'softmax')).toBeNull();
  });
});
