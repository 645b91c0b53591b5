// Learning-rate decays on a plateau (`--early-stop-lr-decays`, `--early-stop-lr-factor`): the rule,
// the flags, and the checks of what a checkpoint and a record keep of them. A real run that decays,
// resumes and stops is in earlyStopRuns.test.ts.
import { describe, expect, it } from 'vitest';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { parseBenchArgs } from '../cli/parseArgs.js';
import { expandGrid, runId } from '../grid/expandGrid.js';
import { earlyStopRecordProblem, earlyStopStateProblem } from '../results/earlyStopChecks.js';
import { benchErrorText, syntheticRecords } from '../testing/fixtures.js';
import { validateRunConfig } from '../trust/runConfigSchema.js';
import type { RunConfig } from '../types.js';
import type { RunRecord } from '../recordTypes.js';
import { earlyStopRecordOf, observeEvaluation, onPlateau } from './earlyStop.js';

const messageOf = benchErrorText;
const parse = (...flags: string[]) =>
  parseBenchArgs(['shakespeare', '--lengths', '4', '--variants', 'softmax', ...flags], () => {})!;
const settings = { patience: 2, minDelta: 0, lrDecays: 2, lrDecayFactor: 0.5 };

describe('the rule', () => {
  it('decays lrDecays times, counting patience afresh and keeping the best, then stops', () => {
    let s = observeEvaluation(undefined, settings, 'lower', { step: 5, value: 10, loss: 2.3 });
    expect(s.lrDecaySteps).toEqual([]);
    s = { ...s, sinceBest: 2 };
    const first = onPlateau(s, settings, 15);
    expect(first).toEqual({ state: { ...s, sinceBest: 0, lrDecaySteps: [15] }, lrFactor: 0.5 });
    const second = onPlateau({ ...first.state, sinceBest: 2 }, settings, 25);
    expect(second.state.lrDecaySteps).toEqual([15, 25]);
    expect(second.lrFactor).toBe(0.5);
    const stop = onPlateau({ ...second.state, sinceBest: 2 }, settings, 35);
    expect(stop.lrFactor).toBeNull();
    // A new best after a decay keeps the decays made.
    const better = observeEvaluation(second.state, settings, 'lower', {
      step: 30,
      value: 9,
      loss: 2.2,
    });
    expect(better).toMatchObject({ bestStep: 30, sinceBest: 0, lrDecaySteps: [15, 25] });
    expect(earlyStopRecordOf(settings, second.state, 35)).toMatchObject({ lrDecaySteps: [15, 25] });
    // Without decays the run stops at once, and nothing about decays is kept.
    expect(onPlateau(s, { patience: 2, minDelta: 0 }, 15).lrFactor).toBeNull();
    expect(earlyStopRecordOf({ patience: 2, minDelta: 0 }, s, 15)).not.toHaveProperty('lrDecays');
  });
});

describe('the flags', () => {
  it('put the decays in the config (and its id); the factor defaults to 0.1; 0 decays is none', () => {
    const patience = ['--early-stop-patience', '8'];
    const [plain] = expandGrid(parse(...patience));
    const [decaying] = expandGrid(parse(...patience, '--early-stop-lr-decays', '2'));
    expect(decaying!.earlyStop).toEqual({
      patience: 8,
      minDelta: 0,
      lrDecays: 2,
      lrDecayFactor: 0.1,
    });
    expect(runId(decaying!)).not.toBe(runId(plain!));
    const none = expandGrid(parse(...patience, '--early-stop-lr-decays', '0'))[0]!;
    expect(runId(none)).toBe(runId(plain!));
    const [half] = expandGrid(
      parse(...patience, '--early-stop-lr-decays', '1', '--early-stop-lr-factor', '0.5'),
    );
    expect(half!.earlyStop).toMatchObject({ lrDecays: 1, lrDecayFactor: 0.5 });
    expect(validateRunConfig(structuredClone(half!), 'job 1')).toEqual(half);
  });

  it.each([
    [['--early-stop-lr-decays', '2'], /--early-stop-lr-decays needs --early-stop-patience/],
    [
      ['--early-stop-patience', '2', '--early-stop-lr-factor', '0.5'],
      /needs --early-stop-lr-decays/,
    ],
    [['--early-stop-patience', '2', '--early-stop-lr-decays', '-1'], /--early-stop-lr-decays/],
    [['--early-stop-patience', '2', '--early-stop-lr-decays', '1.5'], /--early-stop-lr-decays/],
    [
      ['--early-stop-patience', '2', '--early-stop-lr-decays', '1', '--early-stop-lr-factor', '1'],
      /must be < 1/,
    ],
    [
      ['--early-stop-patience', '2', '--early-stop-lr-decays', '1', '--early-stop-lr-factor', '0'],
      /--early-stop-lr-factor/,
    ],
  ])('refuses %j with BENCH_INVALID_OPTION', (flags, message) => {
    const error = messageOf(() => parse(...flags));
    expect(error).toMatch(/^BENCH_INVALID_OPTION: /);
    expect(error).toMatch(message);
  });

  it("refuses a queued job's malformed decay settings", () => {
    const [config] = expandGrid(parse('--early-stop-patience', '4'));
    for (const earlyStop of [
      { patience: 2, minDelta: 0, lrDecays: 0, lrDecayFactor: 0.1 },
      { patience: 2, minDelta: 0, lrDecays: 2 },
      { patience: 2, minDelta: 0, lrDecays: 2, lrDecayFactor: 1.5 },
    ])
      expect(messageOf(() => validateRunConfig({ ...config, earlyStop }, 'job 1'))).toMatch(
        /^BENCH_INVALID_JOB: job 1: config\.earlyStop: its lrDecay/,
      );
  });
});

describe('what a checkpoint and a record keep', () => {
  const config = { steps: 100, earlyStop: settings } as unknown as RunConfig;
  const curve = [5, 10, 15, 20, 25].map((step, i) => ({ step, value: [10, 11, 11, 10.5, 11][i]! }));
  // Best at 5; decayed at 15 (patience out); 20 and 25 since.
  const state = { bestStep: 5, bestValue: 10, bestLoss: 2.3, sinceBest: 2, lrDecaySteps: [15] };
  it('counts the patience from the last decay when it came after the best', () => {
    const upTo20 = curve.slice(0, 4);
    expect(earlyStopStateProblem({ ...state, sinceBest: 1 }, config, upTo20)).toBeUndefined();
    expect(earlyStopStateProblem({ ...state, sinceBest: 3 }, config, upTo20)).toMatch(
      /count 3 is not the 1 evaluations after its best or last decay/,
    );
    expect(earlyStopStateProblem(state, config, curve)).toMatch(/reached its patience 2/);
  });
  it.each([
    [{ ...state, sinceBest: 1, lrDecaySteps: [15, 20, 25] }, /at most 2/],
    [{ ...state, sinceBest: 1, lrDecaySteps: [12] }, /evaluation steps/],
    [{ ...state, sinceBest: 0, lrDecaySteps: [25, 15] }, /increasing/],
    [{ ...state, sinceBest: 1, lrDecaySteps: undefined }, /not a list/],
  ])('refuses a checkpoint state %j', (bad, message) => {
    expect(earlyStopStateProblem(bad, config, curve)).toMatch(message);
  });

  it('a record names its decays, which must fit its curve and its settings', () => {
    const [base] = syntheticRecords(
      ['shakespeare', '--lengths', '4', '--variants', 'softmax'],
      () => 10,
    );
    const record = {
      ...base!,
      config: { ...base!.config, steps: 100, earlyStop: settings },
      evalMetric: curve,
      finalMetric: 10,
      earlyStop: {
        ...settings,
        stoppedAtStep: 25,
        bestStep: 5,
        bestValue: 10,
        lrDecaySteps: [15, 25],
      },
    } as RunRecord;
    expect(earlyStopRecordProblem(record)).toBeUndefined();
    const bad = (change: object) =>
      earlyStopRecordProblem({ ...record, earlyStop: { ...record.earlyStop!, ...change } });
    expect(bad({ lrDecaySteps: [15, 30] })).toMatch(/evaluation steps/);
    expect(bad({ lrDecayFactor: 0.1 })).toMatch(/not its config's/);
    expect(bad({ lrDecaySteps: undefined })).toMatch(/not a list/);
  });
});
