import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import { SECONDS_PER_RUN, SECONDS_PER_RUN_SETUP, estimateRunSeconds } from './eta.js';
import { learnedEta } from './learnedEta.js';
import { formatDuration, plainProgress } from './progress.js';
import type { PendingRun } from './types.js';

/** The grid's runs as the plan hands them over: softmax and sigmoid at T = 8, two seeds each. */
const pending: PendingRun[] = syntheticRecords(
  [
    'shakespeare',
    '--variants',
    'softmax,sigmoid',
    '--lengths',
    '8',
    '--seeds',
    '0,1',
    '--steps',
    '1000',
  ],
  () => 5,
).map((r) => ({ config: r.config, id: r.id, startStep: 0, doneFraction: 0 }));
const [softA, softB] = pending.filter((r) => r.config.variant === 'softmax');
const [sigA, sigB] = pending.filter((r) => r.config.variant === 'sigmoid');

/** The cost model's seconds per step of a run (its evaluations spread over its steps). */
const prior = (r: PendingRun): number =>
  (estimateRunSeconds(r.config) - SECONDS_PER_RUN) / r.config.steps;

/** A fake clock, in ms. */
function fakeClock() {
  let t = 1_000_000;
  return { now: () => t, advance: (seconds: number) => (t += seconds * 1000) };
}

/** Runs `run` for `steps` steps at `factor` × its prior seconds per step, reporting each step. */
function train(
  eta: ReturnType<typeof learnedEta>,
  clock: ReturnType<typeof fakeClock>,
  run: PendingRun,
  steps: number,
  factor: number,
): void {
  for (let s = 1; s <= steps; s += 1) {
    clock.advance(factor * prior(run));
    eta.observe(run.id, s);
  }
}

describe('learnedEta', () => {
  it('is the cost model before any step', () => {
    const eta = learnedEta(pending, 1, undefined, fakeClock().now);
    const model = pending.reduce(
      (a, r) => a + estimateRunSeconds(r.config) + SECONDS_PER_RUN_SETUP,
      0,
    );
    expect(eta.remainingSeconds()).toBeCloseTo(model, 6);
    expect(eta.ratio()).toBe(1);
    expect(eta.text(formatDuration)).toBe(`grid ETA ${formatDuration(model)}`);
  });

  it('learns a grid twice as slow as its model from the first run’s steps (a fake clock)', () => {
    const clock = fakeClock();
    const eta = learnedEta(pending, 1, undefined, clock.now);
    eta.start(softA!.id, 0);
    train(eta, clock, softA!, 200, 2);
    // The truth: every run at twice its prior seconds per step.
    const truth =
      800 * 2 * prior(softA!) +
      [softB!, sigA!, sigB!].reduce(
        (a, r) => a + SECONDS_PER_RUN_SETUP + SECONDS_PER_RUN + 1000 * 2 * prior(r),
        0,
      );
    expect(eta.ratio()).toBeGreaterThan(1.9);
    expect(eta.ratio()).toBeLessThan(2);
    expect(Math.abs(eta.remainingSeconds() / truth - 1)).toBeLessThan(0.05);
    expect(eta.text(formatDuration)).toMatch(/^grid ETA \S+ \(steps 1\.9\d× the estimate\)$/);
  });

  it('keeps what it learns per class: softmax at 2×, sigmoid at 1×, each run of a class priced at its own', () => {
    const clock = fakeClock();
    /** softmax seed 0 trained at 2× its model, sigmoid seed 0 at 1×, both ended. */
    const trained = () => {
      const eta = learnedEta(pending, 2, undefined, clock.now);
      eta.start(softA!.id, 0);
      eta.start(sigA!.id, 0);
      train(eta, clock, softA!, 500, 2);
      train(eta, clock, sigA!, 500, 1);
      eta.end(softA!.id);
      eta.end(sigA!.id);
      return eta;
    };
    const expected = (r: PendingRun, f: number) =>
      SECONDS_PER_RUN_SETUP + SECONDS_PER_RUN + 1000 * f * prior(r);
    // Left with one unstarted run of a class (the other ended unstarted): priced at its class's
    // rate, not at one grid-wide ratio (√2 ≈ 1.41 for both) that would misprice each.
    const soft = trained();
    soft.end(sigB!.id);
    expect(Math.abs(soft.remainingSeconds() / expected(softB!, 2) - 1)).toBeLessThan(0.03);
    const sig = trained();
    sig.end(softB!.id);
    expect(Math.abs(sig.remainingSeconds() / expected(sigB!, 1) - 1)).toBeLessThan(0.03);
    expect(soft.ratio()).toBeGreaterThan(1.3);
    expect(soft.ratio()).toBeLessThan(1.5);
    expect(soft.counts()).toEqual({ ended: 3, total: 4 });
  });

  it('weighs a run’s few first steps lightly against the model', () => {
    const clock = fakeClock();
    const eta = learnedEta([softA!], 1, undefined, clock.now);
    eta.start(softA!.id, 0);
    train(eta, clock, softA!, 3, 10); // two measured intervals, ten times slower
    expect(eta.ratio()).toBeLessThan(2);
  });
});

describe('the progress line', () => {
  it('shows the grid ETA, learned from the steps so far', () => {
    const clock = fakeClock();
    const lines: string[] = [];
    const display = plainProgress((l) => lines.push(l), 10_000, clock.now);
    display.plan!(pending, 1);
    display.start(softA!.id, 'softmax T=8 s0', 1000, 0);
    for (let s = 1; s <= 200; s += 1) {
      clock.advance(2 * prior(softA!));
      display.update({ id: softA!.id, step: s, steps: 1000, loss: 2, stepsPerSecond: 1 });
    }
    clock.advance(10);
    display.update({ id: softA!.id, step: 201, steps: 1000, loss: 2, stepsPerSecond: 1 });
    expect(lines.at(-1)).toMatch(
      /^step {3}softmax T=8 s0 201\/1000 .* · grid ETA \S+ \(steps \d\.\d\d× the estimate\)$/,
    );
  });
});
