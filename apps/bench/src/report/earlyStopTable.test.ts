import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import type { RunRecord } from '../recordTypes.js';
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

  it('adds the mean step of each learning-rate decay that every run of the cell made', () => {
    const decays = { lrDecays: 2, lrDecayFactor: 0.1 };
    const withDecays = records().map((r) => {
      const early = r.config.variant === 'softmax';
      // softmax: both seeds decayed twice; boltzmann: seed 1 only once, so only its first shows.
      const steps = early
        ? [300, 400 + 100 * r.config.seed]
        : r.config.seed === 0
          ? [500, 700]
          : [600];
      return {
        ...r,
        config: { ...r.config, earlyStop: { ...r.config.earlyStop!, ...decays } },
        earlyStop: { ...r.earlyStop!, ...decays, lrDecaySteps: steps },
      };
    });
    const table = earlyStopTable(withDecays, ['softmax', 'boltzmann'], 'softmax')!;
    expect(table.body).toEqual([
      [
        '8',
        '500 ± 141 → 700 ± 141 (2/2 early; rate decayed at 300 ± 0, 450 ± 71)',
        '900 ± 0 → 1000 ± 0 (0/2 early; rate decayed at 550 ± 71)',
      ],
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
