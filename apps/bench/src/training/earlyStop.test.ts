// Early stopping's rule, its flags, and the checks of what a checkpoint and a record keep of it.
// The real runs (a forced plateau, resume mid-patience, every experiment) are earlyStopRuns.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { parseBenchArgs } from '../cli/parseArgs.js';
import { expandGrid, runId } from '../grid/expandGrid.js';
import { writeJsonAtomic } from '../results/atomicWrite.js';
import { earlyStopStateProblem } from '../results/earlyStopChecks.js';
import { readRecord, recordPath } from '../results/runFiles.js';
import { benchErrorText, syntheticRecords } from '../testing/fixtures.js';
import { validateRunConfig } from '../trust/runConfigSchema.js';
import type { RunConfig } from '../types.js';
import type { RunRecord } from '../recordTypes.js';
import { improves, observeEvaluation, outOfPatience } from './earlyStop.js';

const codeOf = benchErrorText;
const parse = (...flags: string[]) =>
  parseBenchArgs(['shakespeare', '--lengths', '4', '--variants', 'softmax', ...flags], () => {})!;

describe('the rule', () => {
  it('improves only by more than minDelta of the best, in the metric direction; NaN never improves', () => {
    expect(improves(9.9, 10, 0.001, 'lower')).toBe(true);
    expect(improves(9.995, 10, 0.001, 'lower')).toBe(false);
    expect(improves(10, 10, 0, 'lower')).toBe(false);
    expect(improves(0.91, 0.9, 0.01, 'higher')).toBe(true);
    expect(improves(0.905, 0.9, 0.01, 'higher')).toBe(false);
    expect(improves(Number.NaN, 10, 0, 'lower')).toBe(false);
    expect(improves(12, Number.NaN, 0, 'lower')).toBe(true);
  });

  it('counts the evaluations since the best and runs out of patience after `patience` of them', () => {
    const settings = { patience: 2, minDelta: 0.01 };
    let s = observeEvaluation(undefined, settings, 'lower', { step: 5, value: 10, loss: 2.3 });
    const steps: number[] = [];
    for (const [step, value] of [
      [10, 9],
      [15, 8.95],
      [20, 8.5],
      [25, 8.49],
      [30, 8.6],
      [35, 1],
    ] as const) {
      if (outOfPatience(s, settings)) break;
      s = observeEvaluation(s, settings, 'lower', { step, value, loss: Math.log(value) });
      steps.push(step);
    }
    expect(steps).toEqual([10, 15, 20, 25, 30]);
    expect(s).toEqual({ bestStep: 20, bestValue: 8.5, bestLoss: Math.log(8.5), sinceBest: 2 });
    expect(outOfPatience(s, settings)).toBe(true);
    expect(outOfPatience(s, undefined)).toBe(false);
  });
});

describe('--early-stop-patience and --early-stop-min-delta', () => {
  it('put early stopping in each run config (and its id); without them the config has none', () => {
    const [plain] = expandGrid(parse());
    const [config] = expandGrid(
      parse('--early-stop-patience', '8', '--early-stop-min-delta', '0.001'),
    );
    expect(plain!.earlyStop).toBeUndefined();
    expect(config!.earlyStop).toEqual({ patience: 8, minDelta: 0.001 });
    expect(runId(config!)).not.toBe(runId(plain!));
    expect(expandGrid(parse('--early-stop-patience', '3'))[0]!.earlyStop).toEqual({
      patience: 3,
      minDelta: 0,
    });
  });

  it.each([
    [['--early-stop-patience', '0'], /--early-stop-patience/],
    [['--early-stop-patience', '2.5'], /--early-stop-patience/],
    [['--early-stop-patience', 'x'], /--early-stop-patience/],
    [['--early-stop-patience', '3', '--early-stop-min-delta', '-0.1'], /--early-stop-min-delta/],
    [['--early-stop-patience', '3', '--early-stop-min-delta', '1'], /must be < 1, got 1/],
    [['--early-stop-min-delta', '0.01'], /needs --early-stop-patience/],
  ])('refuses %j with BENCH_INVALID_OPTION', (flags, message) => {
    const error = codeOf(() => parse(...flags));
    expect(error).toMatch(/^BENCH_INVALID_OPTION: /);
    expect(error).toMatch(message);
  });

  it("a queued job's config must carry well-formed settings", () => {
    const [config] = expandGrid(parse('--early-stop-patience', '4'));
    expect(validateRunConfig(structuredClone(config), 'job 1')).toEqual(config);
    for (const earlyStop of [
      { patience: 0, minDelta: 0 },
      { patience: 2, minDelta: 1 },
      { patience: 2, minDelta: 0, extra: 1 },
      [],
    ])
      expect(codeOf(() => validateRunConfig({ ...config, earlyStop }, 'job 1'))).toMatch(
        /^BENCH_INVALID_JOB: job 1: config\.earlyStop/,
      );
  });
});

describe('what a checkpoint keeps', () => {
  const config = { steps: 100, earlyStop: { patience: 3, minDelta: 0 } } as unknown as RunConfig;
  const curve = [
    { step: 5, value: 10 },
    { step: 10, value: 9 },
    { step: 15, value: 9.5 },
  ];
  const state = { bestStep: 10, bestValue: 9, bestLoss: Math.log(9), sinceBest: 1 };
  it('is accepted when it names the best evaluation of the curve and counts those after it', () => {
    expect(earlyStopStateProblem(state, config, curve)).toBeUndefined();
    expect(earlyStopStateProblem(undefined, config, [])).toBeUndefined();
  });
  it.each([
    [{ ...state, bestStep: 15 }, /not an evaluation of its curve/],
    [{ ...state, bestValue: 8 }, /not an evaluation of its curve/],
    [{ ...state, sinceBest: 0 }, /count 0 is not the 1 evaluations/],
    [{ ...state, sinceBest: -1 }, /malformed/],
    [{ ...state, bestLoss: 'x' }, /malformed/],
    [undefined, /missing/],
  ])('refuses %j', (bad, message) => {
    expect(earlyStopStateProblem(bad, config, curve)).toMatch(message);
  });
  it('refuses a state that ran out of patience, or one its config does not ask for', () => {
    const out = [...curve, { step: 20, value: 9.2 }, { step: 25, value: 9.1 }];
    expect(earlyStopStateProblem({ ...state, sinceBest: 3 }, config, out)).toMatch(/patience 3/);
    const { earlyStop: _, ...without } = config;
    expect(earlyStopStateProblem(state, without, curve)).toMatch(/does not ask for/);
  });
});

describe("a record's earlyStop", () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-early-record-'));
  const [base] = syntheticRecords(
    ['shakespeare', '--lengths', '4', '--variants', 'softmax'],
    () => 7.5,
  );
  const config = { ...base!.config, steps: 100, earlyStop: { patience: 2, minDelta: 0.001 } };
  const good: RunRecord = {
    ...base!,
    id: runId(config),
    config,
    evalMetric: [
      { step: 50, value: 7.4 },
      { step: 60, value: 7.5 },
      { step: 70, value: 7.45 },
    ],
    finalMetric: 7.4,
    earlyStop: { patience: 2, minDelta: 0.001, stoppedAtStep: 70, bestStep: 50, bestValue: 7.4 },
  };
  const write = (r: RunRecord) => writeJsonAtomic(recordPath(dir, good.id), r);

  it('round-trips through its file', () => {
    write(good);
    expect(readRecord(dir, good.id)).toEqual(good);
    const capped = { ...good, earlyStop: { ...good.earlyStop!, stoppedAtStep: null } };
    write(capped);
    expect(readRecord(dir, good.id)).toEqual(capped);
  });

  it.each([
    [{ finalMetric: 7.45 }, /finalMetric/],
    [{ earlyStop: { ...good.earlyStop!, bestStep: 55 } }, /not an evaluation/],
    [{ earlyStop: { ...good.earlyStop!, patience: 3 } }, /not its config's/],
    [{ earlyStop: { ...good.earlyStop!, stoppedAtStep: 40 } }, /at or after its best/],
    [{ earlyStop: { ...good.earlyStop!, stoppedAtStep: 150 } }, /past its 100 steps/],
    [{ earlyStop: undefined }, /missing/],
    [{ config: base!.config, id: good.id }, /without config.earlyStop/],
  ])('is refused with BENCH_CORRUPT_CHECKPOINT when it does not fit: %j', (change, message) => {
    write({ ...good, ...change } as RunRecord);
    const error = codeOf(() => readRecord(dir, good.id));
    expect(error).toMatch(/^BENCH_CORRUPT_CHECKPOINT: /);
    expect(error).toMatch(message);
  });
});
