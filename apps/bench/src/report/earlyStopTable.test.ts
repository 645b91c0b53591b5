import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import type { RunRecord } from '../types.js';
import { earlyStopTable } from './earlyStopTable.js';

const argv = ['shakespeare', '--variants', 'softmax,boltzmann', '--lengths', '8', '--seeds', '0,1'];

/** Runs of a 1,000-step cap: softmax stops at 600 and 800 (best 400, 600), boltzmann runs to its cap. */
function records(): RunRecord[] {
  return syntheticRecords(argv, () => 5).map((r) => {
    const early = r.config.variant === 'softmax';
    const stop = 600 + 200 * r.config.seed;
    const bestStep = early ? stop - 200 : 900;
    return {
      ...r,
      config: { ...r.config, steps: 1000, earlyStop: { patience: 2, minDelta: 0 } },
      earlyStop: {
        patience: 2,
        minDelta: 0,
        stoppedAtStep: early ? stop : null,
        bestStep,
        bestValue: 5,
      },
    };
  });
}

describe('earlyStopTable', () => {
  it('gives the best step → the steps trained, and how many runs stopped early, per cell', () => {
    const table = earlyStopTable(records(), ['softmax', 'boltzmann'], 'softmax')!;
    expect(table.head).toEqual(['T', 'softmax', 'boltzmann']);
    expect(table.body).toEqual([
      ['8', '500 ± 141 → 700 ± 141 (2/2 early)', '900 ± 0 → 1000 ± 0 (0/2 early)'],
    ]);
  });

  it('is null without early stopping, and — for an empty cell', () => {
    expect(
      earlyStopTable(
        syntheticRecords(argv, () => 5),
        ['softmax'],
        'softmax',
      ),
    ).toBeNull();
    const one = records().filter((r) => !(r.config.variant === 'boltzmann' && r.config.seed === 1));
    const table = earlyStopTable(one.slice(0, 2), ['softmax', 'boltzmann', 'sigmoid'], 'softmax')!;
    expect(table.head).toEqual(['T', 'softmax', 'boltzmann']);
    expect(table.body[0]![2]).toMatch(/^900 → 1000 \(0\/1 early\)$/);
  });
});
