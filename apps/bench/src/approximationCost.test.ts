import { describe, expect, it } from 'vitest';
import { approximationCostTable } from './approximationCost.js';
import { columnOf } from './columns.js';
import { syntheticRecords } from './internal/fixtures.js';

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
    expect(table.head.slice(1, 3)).toEqual(['variant', 'variant − boltzmann']);
    expect(table.body).toHaveLength(1); // T = 32 has no exact run
    expect(table.body[0]!.slice(0, 3)).toEqual(['16', 'boltzmann (tap)', '+0.200 ± 0.000']);
  });

  it('should return null without exact runs or without approximations', () => {
    const tap = grid(['--sampler', 'tap'], '16');
    expect(approximationCostTable(tap, ['boltzmann (tap)'])).toBeNull();
    const exact = grid([], '16');
    expect(approximationCostTable(exact, ['boltzmann'])).toBeNull();
  });
});
