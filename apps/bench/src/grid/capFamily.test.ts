import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid, main, parseBenchArgs, runId } from '../index.js';
import type { ProgressDisplay, RunRecord } from '../index.js';
import { progressRecorder, tinyShakespeareArgs } from '../testing/fixtures.js';
import { latestOfFamilies } from './capFamily.js';

/** One tiny softmax run to `steps`, an evaluation every 10 steps, with the given schedule and early stopping. */
const args = (dir: string, steps: number, extra: readonly string[]) => [
  ...tinyShakespeareArgs(dir, { steps, evalEvery: 10, checkpointEvery: 5 }).map((a) =>
    a === 'softmax,sigmoid' ? 'softmax' : a,
  ),
  '--workers',
  '0',
  ...extra,
];
/** A constant rate, and early stopping that never runs out of patience in these runs. */
const CONSTANT = ['--min-lr-fraction', '1', '--early-stop-patience', '50'];
/** A constant rate, and early stopping out of patience at every evaluation after the first (a 90 % gain is never made). */
const NEVER_IMPROVES = [
  ...['--min-lr-fraction', '1', '--early-stop-patience', '1'],
  ...['--early-stop-min-delta', '0.9'],
];

/** Runs `bench …argv` in process; `stopAt`: interrupted (Ctrl-C) once a run passes that step. */
async function run(
  argv: string[],
  stopAt?: number,
): Promise<{ code: number; starts: { startStep: number }[]; text: string }> {
  const out: string[] = [];
  const controller = new AbortController();
  const rec = progressRecorder((p) => {
    if (stopAt !== undefined && p.step >= stopAt) controller.abort();
  });
  const io = (progress: ProgressDisplay) => ({
    out: (l: string) => void out.push(l),
    err: (l: string) => void out.push(l),
    progress,
    signal: controller.signal,
  });
  const code = await main(argv, io(rec.progress));
  return { code, starts: rec.starts, text: out.join('\n') };
}

const recordOf = (dir: string, argv: string[]): RunRecord => {
  const [config] = expandGrid(parseBenchArgs(argv, () => undefined)!);
  return JSON.parse(readFileSync(join(dir, 'runs', `${runId(config!)}.json`), 'utf8')) as RunRecord;
};

describe('cap families: raising a constant-rate run cap never trains again what was trained', () => {
  it('continues a run from the checkpoint it kept at its cap, to the record of a run that never stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cap-'));
    expect((await run(args(dir, 20, CONSTANT))).code).toBe(0);
    const capped = recordOf(dir, args(dir, 20, CONSTANT));
    expect(capped.earlyStop!.stoppedAtStep).toBeNull();
    // The run kept its checkpoint at its cap, for a higher cap to continue.
    expect(readdirSync(join(dir, 'checkpoints'))).toEqual([`${capped.id}.safetensors`]);

    const raised = await run(args(dir, 40, CONSTANT));
    expect(raised.code).toBe(0);
    expect(raised.text).not.toContain('warning');
    expect(raised.starts.map((s) => s.startStep)).toEqual([20]);
    const continued = recordOf(dir, args(dir, 40, CONSTANT));
    expect(continued.continuedFrom).toEqual({ id: capped.id, step: 20 });
    // Its own cap checkpoint kept; the one it continued from removed.
    expect(readdirSync(join(dir, 'checkpoints'))).toEqual([`${continued.id}.safetensors`]);

    // The same as training to 40 at once: every loss, evaluation and the early-stopping state.
    const fresh = mkdtempSync(join(tmpdir(), 'bench-cap-fresh-'));
    expect((await run(args(fresh, 40, CONSTANT))).code).toBe(0);
    const whole = recordOf(fresh, args(fresh, 40, CONSTANT));
    expect(whole.continuedFrom).toBeUndefined();
    expect(continued.trainLoss).toEqual(whole.trainLoss);
    expect(continued.evalMetric).toEqual(whole.evalMetric);
    expect(continued.finalMetric).toBe(whole.finalMetric);
    expect(continued.earlyStop).toEqual(whole.earlyStop);

    // A report shows the continued run, not the one it continued.
    expect(latestOfFamilies([capped, continued]).map((r) => r.id)).toEqual([continued.id]);
    expect(latestOfFamilies([continued, capped, whole]).map((r) => r.id)).toEqual([continued.id]);
  });

  it("continues a lower cap's run stopped in training, and removes its checkpoint once finished", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cap-training-'));
    expect((await run(args(dir, 20, CONSTANT), 7)).code).toBe(130);
    const [left] = readdirSync(join(dir, 'checkpoints'));
    const raised = await run(args(dir, 40, CONSTANT));
    expect(raised.code).toBe(0);
    const from = raised.starts[0]!.startStep;
    expect(from).toBeGreaterThanOrEqual(7);
    expect(from).toBeLessThan(20);
    const continued = recordOf(dir, args(dir, 40, CONSTANT));
    expect(continued.continuedFrom).toEqual({
      id: left!.replace(/\.safetensors$/, ''),
      step: from,
    });
    expect(readdirSync(join(dir, 'checkpoints'))).toEqual([`${continued.id}.safetensors`]);
    const fresh = mkdtempSync(join(tmpdir(), 'bench-cap-training-fresh-'));
    expect((await run(args(fresh, 40, CONSTANT))).code).toBe(0);
    const whole = recordOf(fresh, args(fresh, 40, CONSTANT));
    expect(continued.trainLoss).toEqual(whole.trainLoss);
    expect(continued.evalMetric).toEqual(whole.evalMetric);
  });

  it('looks for a plateau at the cap it continues from, as a run that never stopped did there', async () => {
    // Out of patience at every evaluation after the first: an uncapped run decays its rate at
    // step 20 and stops at 30. The run capped at 20 evaluated there last and never looked.
    const plateaus = [...NEVER_IMPROVES, '--early-stop-lr-decays', '1'];
    const dir = mkdtempSync(join(tmpdir(), 'bench-cap-plateau-'));
    expect((await run(args(dir, 20, plateaus))).code).toBe(0);
    expect(recordOf(dir, args(dir, 20, plateaus)).earlyStop!.stoppedAtStep).toBeNull();
    const raised = await run(args(dir, 40, plateaus));
    expect(raised.code).toBe(0);
    expect(raised.text).not.toContain('warning');
    expect(raised.starts.map((s) => s.startStep)).toEqual([20]);
    const continued = recordOf(dir, args(dir, 40, plateaus));
    const fresh = mkdtempSync(join(tmpdir(), 'bench-cap-plateau-fresh-'));
    expect((await run(args(fresh, 40, plateaus))).code).toBe(0);
    const whole = recordOf(fresh, args(fresh, 40, plateaus));
    expect(whole.earlyStop!.stoppedAtStep).toBe(30);
    expect(continued.earlyStop).toEqual(whole.earlyStop);
    expect(continued.trainLoss).toEqual(whole.trainLoss);
    expect(continued.evalMetric).toEqual(whole.evalMetric);
  });

  it("takes a family run that early stopping ended below the cap as the higher cap's result", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cap-stopped-'));
    // Out of patience at the second evaluation, and no decay: the run stops at step 20.
    const stops = NEVER_IMPROVES;
    expect((await run(args(dir, 40, stops))).code).toBe(0);
    const stopped = recordOf(dir, args(dir, 40, stops));
    expect(stopped.earlyStop!.stoppedAtStep).toBe(20);
    expect(
      existsSync(join(dir, 'checkpoints')) ? readdirSync(join(dir, 'checkpoints')) : [],
    ).toEqual([]);
    const raised = await run(args(dir, 80, stops));
    expect(raised.code).toBe(0);
    expect(raised.starts).toEqual([]);
    expect(raised.text).toContain('1 finished');
    expect(readdirSync(join(dir, 'runs'))).toEqual([`${stopped.id}.json`]);
  });

  it('keeps nothing and trains again when the schedule depends on the cap (a cosine)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-cap-cosine-'));
    const cosine = ['--min-lr-fraction', '0.1', '--early-stop-patience', '50'];
    expect((await run(args(dir, 20, cosine))).code).toBe(0);
    expect(readdirSync(join(dir, 'checkpoints'))).toEqual([]);
    const raised = await run(args(dir, 40, cosine));
    expect(raised.starts.map((s) => s.startStep)).toEqual([0]);
    expect(recordOf(dir, args(dir, 40, cosine)).continuedFrom).toBeUndefined();
    // Two records of two different schedules: a report shows both.
    expect(readdirSync(join(dir, 'runs'))).toHaveLength(2);
    const records = [recordOf(dir, args(dir, 20, cosine)), recordOf(dir, args(dir, 40, cosine))];
    expect(latestOfFamilies(records)).toEqual(records);
  });
});
