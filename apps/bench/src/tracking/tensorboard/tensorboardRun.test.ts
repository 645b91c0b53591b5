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

const io = () => ({
  out: () => undefined,
  err: () => undefined,
  progress: progressRecorder().progress,
});

describe('--tensorboard in a real run', () => {
  it('writes the run’s metrics rows, hyperparameters, final metric and J image', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-tb-run-'));
    const args = [
      ...tinyShakespeareArgs(dir, { steps: 10, evalEvery: 5, checkpointEvery: 5 }),
      '--variants',
      'boltzmann',
      '--workers',
      '0',
      '--tensorboard',
    ];
    expect(await main(args, io())).toBe(0);
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
});
