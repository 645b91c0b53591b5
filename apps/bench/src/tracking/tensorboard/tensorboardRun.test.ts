// A real short grid with --tensorboard, its event files read back by the Python reader against
// the same run's metrics file and record.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../index.js';
import type { RunRecord } from '../../index.js';
import { progressRecorder } from '../../testing/fixtures.js';
import { tinyShakespeareArgs } from '../../testing/fixtures.js';
import type { MetricsRow } from '../types.js';
import { readEvents } from './pythonReader.js';
import { tensorboardRunDir } from './tensorboardTracker.js';

const io = (progress = progressRecorder().progress, signal?: AbortSignal) => ({
  out: () => undefined,
  err: () => undefined,
  progress,
  signal,
});

/** A grid of one boltzmann run of `steps` steps with --tensorboard, in this process. */
const args = (dir: string, steps: number) => [
  ...tinyShakespeareArgs(dir, { steps, evalEvery: 5, checkpointEvery: 5 }),
  '--variants',
  'boltzmann',
  '--workers',
  '0',
  '--tensorboard',
];

/** The reader's view of the one run of `dir`, less its wall-clock scalars and times. */
function steadyRead(dir: string) {
  const [runDir] = readdirSync(join(dir, 'tensorboard'));
  const r = readEvents(join(dir, 'tensorboard', runDir!));
  expect(r.stderr).toBe('');
  const { steps_per_second, ...scalars } = r.read!.scalars;
  return { files: r.read!.files.length, scalars, images: r.read!.images, hparams: r.read!.hparams };
}

describe('--tensorboard in a real run', () => {
  it('writes the run’s metrics rows, hyperparameters, final metric and J image', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tb-run-'));
    expect(await main(args(dir, 10), io())).toBe(0);
    const [file] = readdirSync(join(dir, 'runs'));
    const record = JSON.parse(readFileSync(join(dir, 'runs', file!), 'utf8')) as RunRecord;
    const rows = readFileSync(join(dir, 'metrics', `${record.id}.jsonl`), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as MetricsRow);
    const { status, read, stderr } = readEvents(tensorboardRunDir(dir, record.id));
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const f = Math.fround;
    const train = rows.filter((r) => r.event === 'train');
    const evals = rows.filter((r) => r.event === 'eval');
    expect(read!.scalars['train/loss']).toEqual(train.map((r) => [r.step, f(r.trainLoss!)]));
    expect(read!.scalars.lr).toEqual(train.map((r) => [r.step, f(r.lr!)]));
    expect(read!.scalars.grad_norm).toEqual(train.map((r) => [r.step, f(r.gradNorm!)]));
    expect(read!.scalars['val/perplexity']).toEqual(
      record.evalMetric.map((p) => [p.step, f(p.value)]),
    );
    expect(read!.scalars['val/loss']).toEqual(evals.map((r) => [r.step, f(r.evalLoss!)]));
    expect(read!.scalars['final/perplexity']).toEqual([[10, f(record.finalMetric)]]);
    expect(read!.hparams).toMatchObject({
      variant: 'boltzmann',
      length: 4,
      dModel: 8,
      seed: record.config.seed,
    });
    expect(read!.sessionEnd?.status).toBe(1);
    // T = 4: 4 × 4 cells of 64 px.
    expect(read!.images['couplings/J']![0]!.png).toEqual({ width: 256, height: 256 });
  });

  it('a stopped and resumed run reads as an uninterrupted one (a second file, the same curves)', async () => {
    const straight = mkdtempSync(join(tmpdir(), 'bench-tb-straight-'));
    expect(await main(args(straight, 12), io())).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'bench-tb-resumed-'));
    const controller = new AbortController();
    const first = progressRecorder((p) => {
      if (p.step >= 7) controller.abort();
    });
    expect(await main(args(dir, 12), io(first.progress, controller.signal))).toBe(130);
    const second = progressRecorder();
    expect(await main(args(dir, 12), io(second.progress))).toBe(0);
    expect(second.starts[0]!.startStep).toBeGreaterThanOrEqual(7);
    const [a, b] = [steadyRead(straight), steadyRead(dir)];
    expect(a.files).toBe(1);
    expect(b.files).toBe(2);
    expect(b.scalars).toEqual(a.scalars);
    expect(b.images).toEqual(a.images);
    expect(b.hparams).toEqual(a.hparams);
  });
});
