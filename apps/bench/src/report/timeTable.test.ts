import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import { msPerStep, timeTable } from './timeTable.js';

const argv = [
  'shakespeare',
  '--variants',
  'softmax,boltzmann',
  '--lengths',
  '8,16',
  '--seeds',
  '0,1',
  '--steps',
  '100',
];

describe('timeTable', () => {
  it('should give ms per step, mean ± std over seeds, and each column over the baseline', () => {
    // softmax: 10 s per run at T = 8 and 20 s at T = 16; boltzmann three times that, seed 1 +2 s.
    const records = syntheticRecords(argv, () => 5).map((r) => ({
      ...r,
      wallSeconds:
        (r.config.length === 8 ? 10 : 20) * (r.config.variant === 'boltzmann' ? 3 : 1) +
        (r.config.variant === 'boltzmann' ? 2 * r.config.seed : 0),
    }));
    expect(msPerStep(records[0]!)).toBe((1000 * records[0]!.wallSeconds) / 100);
    const table = timeTable(records, ['softmax', 'boltzmann'], 'softmax')!;
    expect(table.head).toEqual(['T', 'softmax', 'boltzmann']);
    // boltzmann at T = 8: 300 and 320 ms → 310 ± 14 (sample std); softmax 100 ± 0.
    expect(table.body).toEqual([
      ['8', '100 ± 0', '310 ± 14 · 3.10×'],
      ['16', '200 ± 0', '610 ± 14 · 3.05×'],
    ]);
  });

  it('should print (n = 1) for one seed, — for a missing cell, and return null without timed runs', () => {
    const one = syntheticRecords([...argv.slice(0, 5), '--seeds', '0', '--steps', '100'], () => 5)
      .filter((r) => !(r.config.variant === 'softmax' && r.config.length === 16))
      .map((r) => ({ ...r, wallSeconds: 1 }));
    const table = timeTable(one, ['softmax', 'boltzmann'], 'softmax')!;
    expect(table.body).toEqual([
      ['8', '10.0 (n = 1)', '10.0 (n = 1) · 1.00×'],
      ['16', '—', '10.0 (n = 1)'],
    ]);
    expect(
      timeTable(
        one.map((r) => ({ ...r, wallSeconds: 0 })),
        ['softmax'],
        'softmax',
      ),
    ).toBeNull();
  });
});
