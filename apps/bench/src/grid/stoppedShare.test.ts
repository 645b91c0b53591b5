import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import type { RunRecord } from '../recordTypes.js';
import { estimateGridSeconds } from './eta.js';
import { formatDuration } from './progress.js';
import { expectedTimeLine, stoppedShare } from './stoppedShare.js';
import type { PendingRun } from './types.js';

const argv = (seeds: string) => [
  'shakespeare',
  '--variants',
  'softmax,boltzmann',
  '--lengths',
  '8',
  '--seeds',
  seeds,
  '--steps',
  '1000',
  '--early-stop-patience',
  '2',
];

/** Finished runs that stopped at the given steps (null: trained to the 1,000-step cap). */
function stoppedAt(steps: ReadonlyArray<number | null>): RunRecord[] {
  const records = syntheticRecords(argv('0,1,2'), () => 5);
  return steps.map((step, k) => {
    const r = records[k]!;
    return {
      ...r,
      earlyStop: { ...r.config.earlyStop!, stoppedAtStep: step, bestStep: 100, bestValue: 5 },
    };
  });
}

const pendingOf = (records: readonly RunRecord[], doneFraction = 0): PendingRun[] =>
  records.map((r) => ({
    config: r.config,
    id: r.id,
    startStep: doneFraction * r.config.steps,
    doneFraction,
  }));

describe('stoppedShare', () => {
  it('should give the median share of their caps that finished runs trained, a cap counting 1', () => {
    expect(stoppedShare(stoppedAt([200, 300, null, 100]))).toEqual({
      median: 0.25,
      min: 0.1,
      max: 1,
      runs: 4,
    });
    expect(stoppedShare(stoppedAt([400, 200, 300]))).toMatchObject({ median: 0.3, runs: 3 });
  });

  it('should ignore runs without early stopping, and say nothing when none had it', () => {
    const plain = syntheticRecords(argv('0').slice(0, -2), () => 5);
    expect(plain[0]!.config.earlyStop).toBeUndefined();
    expect(stoppedShare(plain)).toBeNull();
    expect(stoppedShare([...plain, ...stoppedAt([500])])).toMatchObject({ median: 0.5, runs: 1 });
  });
});

describe('expectedTimeLine', () => {
  it("should scale the pending early-stopping runs' estimate by the median share", () => {
    const done = stoppedAt([250, 250, 250]);
    const pending = pendingOf(syntheticRecords(argv('3,4'), () => 5));
    const line = expectedTimeLine(done, pending, 2)!;
    const quarter = pending.map((p) => ({ config: p.config, doneFraction: 0.75 }));
    expect(line).toBe(
      `early stopping: the 3 finished runs here trained a median 0.25× of their step caps (0.25–0.25); if the 4 pending with early stopping do too, ≈ ${formatDuration(estimateGridSeconds(quarter, 2))}`,
    );
    expect(estimateGridSeconds(quarter, 2)).toBeLessThan(estimateGridSeconds(pending, 2));
  });

  it('should count what a resumed run has done, and never less than nothing', () => {
    const done = stoppedAt([250]);
    const halfway = pendingOf(
      syntheticRecords(argv('3'), () => 5),
      0.5,
    );
    // Past the median already: only its set-up is left.
    expect(expectedTimeLine(done, halfway, 1)).toContain(
      `≈ ${formatDuration(
        estimateGridSeconds(
          halfway.map((p) => ({ ...p, doneFraction: 1 })),
          1,
        ),
      )}`,
    );
  });

  it('should print nothing without finished early stops or pending runs that stop early', () => {
    const pending = pendingOf(syntheticRecords(argv('3'), () => 5));
    expect(expectedTimeLine([], pending, 1)).toBeNull();
    expect(expectedTimeLine(stoppedAt([250]), [], 1)).toBeNull();
    const plain = pendingOf(syntheticRecords(argv('3').slice(0, -2), () => 5));
    expect(expectedTimeLine(stoppedAt([250]), plain, 1)).toBeNull();
  });
});
