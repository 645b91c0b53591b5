// The writer's files read back by a second implementation of the format (the Python reader):
// scalars, hyperparameters, the session's end and the J images, a resumed run's restart, and a
// flipped byte caught by the reader's checksums.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../../testing/fixtures.js';
import type { RunRecord } from '../../recordTypes.js';
import type { MetricsRow, TrackerContext } from '../types.js';
import { readEvents } from './pythonReader.js';
import { tensorboardRunDir, tensorboardTracker } from './tensorboardTracker.js';

const T = 6;
const record: RunRecord = {
  ...syntheticRecords(
    ['shakespeare', '--lengths', String(T), '--variants', 'boltzmann', '--seeds', '3'],
    () => 12.5,
  )[0]!,
  couplingProfile: [[0.1, 0.2, 0.3, -0.05, -0.05]],
};

const contextAt = (dir: string, startStep: number, tensorboard = true): TrackerContext => ({
  id: record.id,
  config: record.config,
  settings: { resultsDir: dir, checkpointEvery: 5, logEvery: 5, plugins: [], tensorboard },
  startStep,
  warn: () => undefined,
});

const train = (step: number, loss: number): MetricsRow => ({
  event: 'train',
  step,
  time: 1_800_000_000 + step,
  trainLoss: loss,
  lr: 3e-3 / step,
  gradNorm: 0.5,
  stepsPerSecond: 40,
  convergence: {
    calls: 2,
    problems: 8,
    missed: 0,
    maxResidual: 1e-7,
    meanIterations: 4.5,
    maxIterations: 9,
  },
});
const evalRow = (step: number, metric: number): MetricsRow => ({
  event: 'eval',
  step,
  time: 1_800_000_000 + step,
  metricName: 'perplexity',
  metric,
  evalLoss: Math.log(metric),
});

/** One session of a tracker: its rows, then (when `finished`) the record, then close. */
async function session(dir: string, startStep: number, rows: MetricsRow[], finished: boolean) {
  const tracker = tensorboardTracker(contextAt(dir, startStep))!;
  for (const r of rows) tracker.row(r);
  if (finished) await tracker.finish!(record);
  await tracker.close();
}

describe('TensorBoard event files read back by the Python reader', () => {
  it('holds the scalars, the hyperparameters, the end of the session and the J images', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tb-'));
    await session(dir, 0, [train(5, 3.1), evalRow(5, 20), train(10, 2.7), evalRow(10, 12.5)], true);
    const files = readdirSync(tensorboardRunDir(dir, record.id));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^events\.out\.tfevents\.\d{10}\./);
    const { status, read, stderr } = readEvents(tensorboardRunDir(dir, record.id));
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(read!.fileVersions).toEqual(['brain.Event:2']);
    const f = Math.fround;
    expect(read!.scalars['train/loss']).toEqual([
      [5, f(3.1)],
      [10, f(2.7)],
    ]);
    expect(read!.scalars.lr).toEqual([
      [5, f(3e-3 / 5)],
      [10, f(3e-3 / 10)],
    ]);
    expect(read!.scalars['val/perplexity']).toEqual([
      [5, 20],
      [10, 12.5],
    ]);
    expect(read!.scalars['val/loss']).toEqual([
      [5, f(Math.log(20))],
      [10, f(Math.log(12.5))],
    ]);
    expect(read!.scalars['sampler/meanIterations']).toEqual([
      [5, 4.5],
      [10, 4.5],
    ]);
    expect(read!.scalars['final/perplexity']).toEqual([[10, 12.5]]);
    expect(Object.keys(read!.scalars).sort()).toEqual(
      [
        'final/loss',
        'final/perplexity',
        'grad_norm',
        'lr',
        'sampler/calls',
        'sampler/maxIterations',
        'sampler/maxResidual',
        'sampler/meanIterations',
        'sampler/missed',
        'sampler/problems',
        'steps_per_second',
        'train/loss',
        'val/loss',
        'val/perplexity',
      ].sort(),
    );
    expect(read!.hparams).toMatchObject({
      variant: 'boltzmann',
      length: T,
      seed: 3,
      sampler: record.config.sampler,
      couplings: 'full',
      lr: record.config.lr,
      ffn: record.config.ffn,
    });
    expect(read!.sessionEnd?.status).toBe(1);
    // J: T × T cells of 42 px (256 / 6); the profile: 1 × (T − 1) cells of 51 px (256 / 5).
    const [j] = read!.images['couplings/J']!;
    expect(j).toMatchObject({ step: 10, width: 252, height: 252, colorspace: 3 });
    expect(j!.png).toEqual({ width: 252, height: 252 });
    expect(read!.images['couplings/profile']![0]!.png).toEqual({ width: 255, height: 51 });
  });

  it('a resumed session restarts at its checkpoint: later points of the first session give way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tb-resume-'));
    // Session 1 reached step 10, its last checkpoint was at step 5; session 2 resumes there.
    await session(dir, 0, [train(5, 3.1), evalRow(5, 20), train(10, 2.7), evalRow(10, 15)], false);
    await session(
      dir,
      5,
      [train(10, 2.6), evalRow(10, 14), train(15, 2.2), evalRow(15, 12.5)],
      true,
    );
    const runDir = tensorboardRunDir(dir, record.id);
    expect(readdirSync(runDir)).toHaveLength(2);
    const { read } = readEvents(runDir);
    expect(read!.sessionStarts).toEqual([1, 6]);
    const f = Math.fround;
    expect(read!.scalars['train/loss']).toEqual([
      [5, f(3.1)],
      [10, f(2.6)],
      [15, f(2.2)],
    ]);
    expect(read!.scalars['val/perplexity']).toEqual([
      [5, 20],
      [10, 14],
      [15, 12.5],
    ]);
    // A fresh start (step 0) begins the run anew.
    await session(dir, 0, [train(5, 9)], false);
    expect(readdirSync(runDir)).toHaveLength(1);
    expect(readEvents(runDir).read!.scalars['train/loss']).toEqual([[5, 9]]);
  });

  it('the reader refuses a file with one flipped byte (data or length checksum)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tb-corrupt-'));
    await session(dir, 0, [train(5, 3.1), evalRow(5, 20)], true);
    const runDir = tensorboardRunDir(dir, record.id);
    const path = join(runDir, readdirSync(runDir)[0]!);
    const good = readFileSync(path);
    expect(readEvents(path).status).toBe(0);
    for (const [at, reason] of [
      [good.length - 40, /data checksum mismatch/],
      [0, /length checksum mismatch/],
    ] as const) {
      const bad = Buffer.from(good);
      bad[at] = bad[at]! ^ 0x01;
      writeFileSync(path, bad);
      const r = readEvents(path);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(reason);
    }
  });

  it('writes nothing without --tensorboard', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tb-off-'));
    expect(tensorboardTracker(contextAt(dir, 0, false))).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });
});
