import { describe, expect, it } from 'vitest';
import { approximationCostTable } from './approximationCost.js';
import { columnOf } from './columns.js';
import { syntheticRecords } from '../testing/fixtures.js';

const grid = (extra: string[], lengths: string) =>
  syntheticRecords(
    ['shakespeare', '--variants', 'boltzmann', '--lengths', lengths, '--seeds', '0,1,2', ...extra],
    // Exact: 5 + seed/10; tap: 0.2 worse on every seed.
    (c) => 5 + c.seed / 10 + (c.sampler === 'tap' ? 0.2 : 0),
  );

describe('approximationCostTable', () => {
  it('should pair each approximation with exact per seed, only in the rows where exact ran', () => {
    const records = [...grid([], '16'), ...grid(['--sampler', 'tap'], '16,32')];
    const columns = [...new Set(records.map(columnOf))];
    expect(columns).toEqual(['boltzmann', 'boltzmann (tap)']);
    const table = approximationCostTable(records, columns)!;
    expect(table.head[0]).toBe('T');
    expect(table.head.slice(1, 4)).toEqual(['variant', 'exact reference', 'variant − reference']);
    expect(table.body).toHaveLength(1); // T = 32 has no exact run
    expect(table.body[0]!.slice(0, 4)).toEqual([
      '16',
      'boltzmann (tap)',
      'boltzmann',
      '+0.200 ± 0.000',
    ]);
  });

  it('should measure a sampler on a banded J against the transfer matrix on the same band', () => {
    const banded = (sampler: string, lengths: string) =>
      syntheticRecords(
        [
          'shakespeare',
          '--variants',
          'boltzmann',
          '--sampler',
          sampler,
          '--couplings',
          'banded:4',
          '--lengths',
          lengths,
          '--seeds',
          '0,1,2',
        ],
        // Transfer matrix: 5 + seed/10; tap 0.3 worse on seed 0, 0.1 on seeds 1 and 2.
        (c) => 5 + c.seed / 10 + (c.sampler === 'tap' ? (c.seed === 0 ? 0.3 : 0.1) : 0),
      );
    const records = [
      ...grid([], '16'),
      ...banded('transfer-matrix', '16,64'),
      ...banded('tap', '64'),
    ];
    const columns = [...new Set(records.map(columnOf))];
    const table = approximationCostTable(records, columns)!;
    // Exact against the band at T = 16, and tap against the transfer matrix at T = 64 (no exact).
    expect(table.body.map((r) => r.slice(0, 4))).toEqual([
      ['16', 'boltzmann (transfer-matrix, banded:4)', 'boltzmann', '0.000 ± 0.000'],
      [
        '64',
        'boltzmann (tap, banded:4)',
        'boltzmann (transfer-matrix, banded:4)',
        '+0.167 ± 0.115',
      ],
    ]);
  });

  it('should return null without exact runs or without approximations', () => {
    const tap = grid(['--sampler', 'tap'], '16');
    expect(approximationCostTable(tap, ['boltzmann (tap)'])).toBeNull();
    const exact = grid([], '16');
    expect(approximationCostTable(exact, ['boltzmann'])).toBeNull();
  });
});
