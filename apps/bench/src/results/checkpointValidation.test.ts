import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkpointPath,
  expandGrid,
  main,
  parseBenchArgs,
  plainProgress,
  recordPath,
  runId,
} from '../index.js';
import type { ProgressDisplay, RunRecord } from '../index.js';
import { tinyRunFlags } from '../testing/fixtures.js';
import { encodeCheckpoint, parseCheckpoint } from './checkpointFile.js';
import type { Checkpoint } from './checkpointValidation.js';

/** One softmax run of 6 steps, checkpoints every 2 steps, in process. */
const args = (dir: string) => [
  'shakespeare',
  '--lengths',
  '4',
  '--variants',
  'softmax',
  ...tinyRunFlags(6),
  '--checkpoint-every',
  '2',
  '--log-every',
  '1',
  '--results',
  dir,
];

function session(dir: string, stopAt?: number) {
  const starts: number[] = [];
  const lines: string[] = [];
  const controller = new AbortController();
  // The plain display's own lines (start, warnings, end), in the order they are printed.
  const plain = plainProgress((l) => void lines.push(l), Number.POSITIVE_INFINITY);
  const progress: ProgressDisplay = {
    ...plain,
    start: (id, label, steps, startStep) => {
      starts.push(startStep);
      plain.start(id, label, steps, startStep);
    },
    update: (p) => {
      if (stopAt !== undefined && p.step >= stopAt) controller.abort();
    },
  };
  const io = {
    out: (l: string) => void lines.push(l),
    err: (l: string) => void lines.push(l),
    progress,
    signal: controller.signal,
  };
  return { run: () => main(args(dir), io), starts, lines };
}

/** The parts of a checkpoint file that the tamperings below change; the rest passes through. */
interface CheckpointFile {
  step: number;
  config: { lr: number };
  trainLoss: { step: number; value: number }[];
  engine: { model: { weights: unknown }; trainer: { step: number } };
  timing: { evalSeconds: number; checkpointSeconds: number; loopMs: number[] };
}
type Tamper = (ckpt: CheckpointFile) => void;

/** Makes a real checkpoint at step 3, tampers with it, reruns: the run must restart from 0 and say why. */
async function rerunWith(
  tamper: Tamper,
): Promise<{ lines: string[]; starts: number[]; record: RunRecord; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ckpt-'));
  const [config] = expandGrid(parseBenchArgs(args(dir), () => undefined)!);
  const id = runId(config!);
  expect(await session(dir, 3).run()).toBe(130);
  const path = checkpointPath(dir, id);
  const ckpt = parseCheckpoint(readFileSync(path)) as CheckpointFile;
  expect(ckpt.step).toBe(3);
  tamper(ckpt);
  writeFileSync(path, encodeCheckpoint(ckpt as unknown as Checkpoint));
  const again = session(dir);
  expect(await again.run()).toBe(0);
  const record = JSON.parse(readFileSync(recordPath(dir, id), 'utf8')) as RunRecord;
  return { lines: again.lines, starts: again.starts, record, dir };
}

describe('a checkpoint is checked against its run before it is trusted', () => {
  it.each([
    [
      'a step past the run length',
      (c: CheckpointFile) => {
        c.step = 5000;
      },
      /its step 5000 is outside \[0, 6\]/,
    ],
    [
      'a negative step',
      (c: CheckpointFile) => {
        c.step = -3;
      },
      /its step -3 is outside \[0, 6\]/,
    ],
    [
      'another config',
      (c: CheckpointFile) => {
        c.config.lr = 0.5;
      },
      /its config differs/,
    ],
    [
      'an optimizer whose step was moved forward by 1000',
      (c: CheckpointFile) => {
        c.engine.trainer.step += 1000;
      },
      /its optimizer's step 1003 differs from its step 3/,
    ],
    [
      'a step moved forward within the run, its optimizer with it',
      (c: CheckpointFile) => {
        c.step = 5;
        c.engine.trainer.step = 5;
      },
      /its step 5 does not follow its loss curve \(3 steps recorded\)/,
    ],
    [
      'evaluation seconds past its whole time',
      (c: CheckpointFile) => {
        c.timing.evalSeconds = 1e9;
      },
      /its timing is malformed/,
    ],
    [
      'more loop times than its steps',
      (c: CheckpointFile) => {
        c.timing.loopMs = [1, 1, 1, 1];
      },
      /its loop times are malformed or more than its steps/,
    ],
    [
      'a negative loop time',
      (c: CheckpointFile) => {
        c.timing.loopMs = [1, -1, 1];
      },
      /its loop times are malformed or more than its steps/,
    ],
    [
      'curves past its step',
      (c: CheckpointFile) => {
        c.trainLoss.push({ step: 6, value: 1 });
      },
      /curves are malformed or run past its step/,
    ],
  ])(
    '%s: reported by path, set aside, the run restarts from step 0',
    async (_what, tamper, why) => {
      const { lines, starts, record, dir } = await rerunWith(tamper);
      const text = lines.join('\n');
      expect(text).toMatch(why);
      expect(text).toContain(`checkpoint ${checkpointPath(dir, record.id)} cannot be used`);
      expect(starts).toEqual([0]);
      expect(record.trainLoss.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(existsSync(`${checkpointPath(dir, record.id)}.rejected`)).toBe(true);
      // The same loss curve as an uninterrupted run, not one trained on another schedule.
      const clean = await rerunWith(() => undefined);
      expect(record.trainLoss).toEqual(clean.record.trainLoss);
    },
  );

  it("a resumed run's record splits its wall time: steps, evaluations, checkpoints", async () => {
    const { record } = await rerunWith(() => undefined);
    const t = record.timing!;
    expect(t.evalSeconds).toBeGreaterThan(0);
    expect(t.checkpointSeconds).toBeGreaterThan(0);
    expect(t.stepSeconds).toBeGreaterThan(0);
    expect(t.stepSeconds + t.evalSeconds + t.checkpointSeconds).toBeCloseTo(record.wallSeconds, 9);
    // The median loop iteration of both sessions: positive, and no longer than its steps took.
    expect(t.medianStepMs).toBeGreaterThan(0);
    expect(t.medianStepMs!).toBeLessThanOrEqual(1000 * t.stepSeconds);
  });

  it("a resumed run's median step counts the loop times of its earlier sessions, which its checkpoint keeps", async () => {
    let kept: number[] = [];
    // Three loop iterations of 1,000 s before the checkpoint at step 3: the median of all six is
    // half-way between 1,000 s and the slowest of this session's three, far above any of them.
    const { record } = await rerunWith((c) => {
      kept = c.timing.loopMs;
      c.timing.loopMs = [1e6, 1e6, 1e6];
    });
    // The iteration that writes the checkpoint ends after it: its own time is not in it.
    expect(kept).toHaveLength(2);
    expect(kept.every((ms) => ms > 0)).toBe(true);
    expect(record.timing!.medianStepMs!).toBeGreaterThan(4e5);
  });

  it('weights of the wrong shape: named by path with the fix, and the run restarts from step 0', async () => {
    const { lines, starts, record, dir } = await rerunWith((c) => {
      const weights = c.engine.model.weights as Record<string, { shape: number[]; data: number[] }>;
      const name = Object.keys(weights).find((k) => k.includes('kernel'))!;
      weights[name] = { ...weights[name]!, shape: [3, 3], data: new Array(9).fill(0) };
    });
    const text = lines.join('\n');
    expect(text).toContain(
      `checkpoint ${checkpointPath(dir, record.id)} does not fit run ${record.id}`,
    );
    expect(text).toMatch(/set aside as .*\.rejected, restarting from step 0/);
    // The start line comes after the verdict, and says what really happens: step 0.
    expect(starts).toEqual([0]);
    expect(text).not.toContain('resuming at step');
    const warning = lines.findIndex((l) => l.includes('does not fit run'));
    expect(warning).toBeLessThan(lines.findIndex((l) => l.startsWith('start  ')));
    expect(record.trainLoss.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    // A second rerun has nothing left to distrust.
    const third = session(dir);
    expect(await third.run()).toBe(0);
    expect(third.lines.join('\n')).not.toContain('warning');
  });
});
