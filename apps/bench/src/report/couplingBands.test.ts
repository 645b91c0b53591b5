import { describe, expect, it } from 'vitest';
import { couplingBandsTable, distanceBands } from './couplingBands.js';
import { syntheticRecords } from '../testing/fixtures.js';
import type { RunRecord } from '../recordTypes.js';

/** A profile row of length T − 1: `near` at d ≤ 4, `mid` at 5–8, `far` beyond. */
const row = (T: number, near: number, mid: number, far: number): number[] =>
  Array.from({ length: T - 1 }, (_, i) => (i + 1 <= 4 ? near : i + 1 <= 8 ? mid : far));

function records(profiles: (seed: number, T: number) => number[][]): RunRecord[] {
  return syntheticRecords(
    ['shakespeare', '--variants', 'softmax,boltzmann', '--lengths', '32', '--seeds', '0,1'],
    () => 5,
  ).map((r) => ({
    ...r,
    couplingProfile: r.config.variant === 'boltzmann' ? profiles(r.config.seed, 32) : null,
  }));
}

describe('couplingBandsTable', () => {
  it('should average each band over heads and seeds and count the heads with near > 0, far < 0', () => {
    // One layer, one head; seed 0 has the paper's pattern, seed 1 is positive everywhere.
    const table = couplingBandsTable(
      records((seed, T) => [seed === 0 ? row(T, 0.3, 0.1, -0.1) : row(T, 0.1, 0.1, 0.1)]),
    )!;
    expect(table.head).toEqual([
      'variant',
      'T',
      'layer',
      'J, d = 1–4',
      'J, d = 5–8',
      'J, far half',
      'near > 0 and far < 0',
    ]);
    expect(table.body).toEqual([
      [
        'boltzmann',
        '32',
        '0',
        '+0.200 ± 0.141',
        '+0.100 ± 0.000',
        '0.000 ± 0.141 (d ≥ 16)',
        '1 of 2',
      ],
    ]);
  });

  it('should keep groups apart (FFN on and off) and name the group only when there are several', () => {
    const mixed = records((seed, T) => [row(T, seed === 0 ? 0.3 : 0.1, 0, -0.1)]).map((r) => ({
      ...r,
      config: { ...r.config, ffn: r.config.seed === 0 },
    }));
    expect(couplingBandsTable(mixed)!.body.map((r) => [r[0], r[3]])).toEqual([
      ['boltzmann, FFN off, d=64', '+0.100 (n = 1)'],
      ['boltzmann, FFN on, d=64', '+0.300 (n = 1)'],
    ]);
  });

  it('should say when the far couplings are zero by construction (a banded J)', () => {
    const table = couplingBandsTable(records((_, T) => [row(T, 0.2, -0.05, 0)]))!;
    expect(table.body[0]!.slice(5)).toEqual(['0 (outside the band)', '—']);
  });

  it('should return null without profiles, and take the far half from d = 9 at short T', () => {
    expect(couplingBandsTable(records(() => null as unknown as number[][]))).toBeNull();
    expect(distanceBands(16).far).toEqual([9, 15]);
    expect(distanceBands(256).far).toEqual([128, 255]);
  });
});
