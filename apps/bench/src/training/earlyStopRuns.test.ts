// Early stopping in real runs. A learning rate of 1e-9 holds the validation metric still (a
// forced plateau), so with patience p evaluated every 5 steps a run's first evaluation stays its
// best and it stops at the (p + 1)-th: on both training paths, across an interruption, and in
// every experiment that evaluates (shakespeare, brackets, gpt).
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../index.js';
import type { ProgressDisplay, RunRecord } from '../index.js';
import { progressRecorder, tinyShakespeareArgs } from '../testing/fixtures.js';
import { parseCheckpoint } from '../results/checkpointFile.js';
import type { Checkpoint } from '../results/checkpointValidation.js';

/** A checkpoint file of the run, in either form, with its optimizer state's learning-rate scale. */
const readCheckpointFile = (path: string) =>
  parseCheckpoint(readFileSync(path)) as Checkpoint & { engine: { trainer: { lrScale?: number } } };

const PLATEAU = ['--lr', '1e-9', '--early-stop-min-delta', '0.01', '--workers', '0'];

const io = (progress: ProgressDisplay, signal?: AbortSignal) => ({
  out: () => undefined,
  err: () => undefined,
  progress,
  signal,
});

function records(dir: string): RunRecord[] {
  return readdirSync(join(dir, 'runs'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, 'runs', f), 'utf8')) as RunRecord);
}

const shakespeare = (dir: string, patience: number, ...more: string[]) => [
  ...tinyShakespeareArgs(dir, { steps: 100, evalEvery: 5, checkpointEvery: 5 }),
  '--early-stop-patience',
  String(patience),
  ...PLATEAU,
  ...more,
];

/** The record of a run whose first evaluation (at `first`) stayed best and that stopped at `stop`. */
function expectPlateauStop(r: RunRecord, first: number, stop: number, patience: number): void {
  const best = r.evalMetric.find((p) => p.step === first)!.value;
  expect(r.earlyStop).toEqual({
    patience,
    minDelta: 0.01,
    stoppedAtStep: stop,
    bestStep: first,
    bestValue: best,
  });
  expect(r.evalMetric.at(-1)!.step).toBe(stop);
  expect(r.finalMetric).toBe(best);
  expect(r.trainLoss.at(-1)!.step).toBe(stop);
}

describe('early stopping in real runs', () => {
  it.each(['wasm', 'tfjs'])(
    'a forced plateau stops each run at the right step, reporting its best evaluation (--engine %s)',
    async (engine) => {
      const dir = mkdtempSync(join(tmpdir(), `bench-early-${engine}-`));
      expect(
        await main(shakespeare(dir, 2, '--engine', engine), io(progressRecorder().progress)),
      ).toBe(0);
      const runs = records(dir);
      expect(runs).toHaveLength(2);
      for (const r of runs) {
        expectPlateauStop(r, 5, 15, 2);
        expect(r.evalMetric.map((p) => p.step)).toEqual([5, 10, 15]);
        expect(r.finalLoss).toBeCloseTo(Math.log(r.finalMetric), 12);
      }
      expect(readdirSync(join(dir, 'checkpoints'))).toEqual([]);
    },
  );

  it('a run resumed mid-patience stops where an uninterrupted one does, with the same record', async () => {
    const straight = mkdtempSync(join(tmpdir(), 'bench-early-straight-'));
    expect(await main(shakespeare(straight, 3), io(progressRecorder().progress))).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'bench-early-resume-'));
    const controller = new AbortController();
    const first = progressRecorder((p) => {
      if (p.step >= 12) controller.abort();
    });
    expect(await main(shakespeare(dir, 3), io(first.progress, controller.signal))).toBe(130);
    const [file] = readdirSync(join(dir, 'checkpoints'));
    const ckpt = readCheckpointFile(join(dir, 'checkpoints', file!));
    expect(ckpt.step).toBeGreaterThanOrEqual(12);
    expect(ckpt.earlyStop).toMatchObject({ bestStep: 5, sinceBest: 1 });
    const second = progressRecorder();
    expect(await main(shakespeare(dir, 3), io(second.progress))).toBe(0);
    expect(Math.max(...second.starts.map((s) => s.startStep))).toBe(ckpt.step);
    const strip = ({
      startedAt,
      finishedAt,
      wallSeconds,
      stepsPerSecond,
      timing,
      gitCommit,
      engine,
      ...r
    }: RunRecord) => r;
    const [a, b] = [records(straight), records(dir)];
    for (const [k, r] of a.entries()) {
      expectPlateauStop(r, 5, 20, 3);
      expect(strip(b[k]!)).toEqual(strip(r));
    }
  });

  it('with lr decays, a plateau first decays the rate (kept across a resume) and stops only when none are left', async () => {
    const decays = ['--early-stop-lr-decays', '2', '--early-stop-lr-factor', '0.5'];
    const args = (dir: string) => shakespeare(dir, 2, '--variants', 'softmax', ...decays);
    const straight = mkdtempSync(join(tmpdir(), 'bench-early-decay-'));
    expect(await main(args(straight), io(progressRecorder().progress))).toBe(0);
    const [r] = records(straight);
    // Evaluations 5 (best), 10, 15: patience out, decay; 20, 25: decay; 30, 35: stop.
    expect(r!.earlyStop).toMatchObject({
      lrDecays: 2,
      lrDecayFactor: 0.5,
      lrDecaySteps: [15, 25],
      stoppedAtStep: 35,
      bestStep: 5,
    });
    const dir = mkdtempSync(join(tmpdir(), 'bench-early-decay-resume-'));
    const controller = new AbortController();
    const first = progressRecorder((p) => {
      if (p.step >= 27) controller.abort();
    });
    expect(await main(args(dir), io(first.progress, controller.signal))).toBe(130);
    const [file] = readdirSync(join(dir, 'checkpoints'));
    const ckpt = readCheckpointFile(join(dir, 'checkpoints', file!));
    expect(ckpt.earlyStop).toMatchObject({ lrDecaySteps: [15, 25], sinceBest: 0 });
    expect(ckpt.engine.trainer.lrScale).toBe(0.25);
    expect(await main(args(dir), io(progressRecorder().progress))).toBe(0);
    expect(records(dir)[0]!.earlyStop).toEqual(r!.earlyStop);
    expect(records(dir)[0]!.evalMetric).toEqual(r!.evalMetric);
  });

  it('a run that keeps improving trains to its cap (stoppedAtStep null) and reports its best evaluation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-early-cap-'));
    const args = [
      ...tinyShakespeareArgs(dir, { steps: 20, evalEvery: 5, checkpointEvery: 5 }),
      '--variants',
      'softmax',
      '--early-stop-patience',
      '100',
      '--workers',
      '0',
    ];
    expect(await main(args, io(progressRecorder().progress))).toBe(0);
    const [r] = records(dir);
    const best = r!.evalMetric.reduce((a, p) => (p.value < a.value ? p : a));
    expect(r!.evalMetric.map((p) => p.step)).toEqual([5, 10, 15, 20]);
    expect(r!.earlyStop).toEqual({
      patience: 100,
      minDelta: 0,
      stoppedAtStep: null,
      bestStep: best.step,
      bestValue: best.value,
    });
    expect(r!.finalMetric).toBe(best.value);
  });

  it('brackets (accuracy, higher is better) and gpt (its evaluation at step 0 counts) stop too', async () => {
    const brackets = mkdtempSync(join(tmpdir(), 'bench-early-brackets-'));
    const b = [
      'brackets',
      '--lengths',
      '8',
      '--variants',
      'softmax',
      '--d-model',
      '8',
      '--steps',
      '100',
      '--eval-every',
      '5',
    ];
    expect(
      await main(
        [...b, '--early-stop-patience', '2', ...PLATEAU, '--results', brackets],
        io(progressRecorder().progress),
      ),
    ).toBe(0);
    const [br] = records(brackets);
    expect(br!.metricName).toBe('accuracy');
    expectPlateauStop(br!, 5, 15, 2);

    const gpt = mkdtempSync(join(tmpdir(), 'bench-early-gpt-'));
    const g = [
      'gpt',
      '--layers',
      '1',
      '--heads',
      '2',
      '--d-model',
      '8',
      '--lengths',
      '8',
      '--variants',
      'softmax',
      '--steps',
      '100',
      '--warmup-steps',
      '0',
      '--eval-every',
      '5',
      '--eval-batches',
      '1',
      '--batch-size',
      '2',
    ];
    expect(
      await main(
        [...g, '--early-stop-patience', '2', ...PLATEAU, '--results', gpt],
        io(progressRecorder().progress),
      ),
    ).toBe(0);
    const [gr] = records(gpt);
    expectPlateauStop(gr!, 0, 10, 2);
    expect(gr!.gptEval!.val.map((p) => p.step)).toEqual([0, 5, 10]);
  });
});
