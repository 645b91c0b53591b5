import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGrid, main, parseBenchArgs, runId } from '../index.js';
import type { ProgressDisplay, RunRecord } from '../index.js';
import { progressRecorder, tinyShakespeareArgs } from '../testing/fixtures.js';
import { parseCheckpoint } from '../results/checkpointFile.js';
import type { Checkpoint } from '../results/checkpointValidation.js';

/** A tiny grid: 2 runs × 30 steps of a 8-wide model, checkpoints every 5 steps, in process (--workers 0). */
const args = (dir: string) => [
  ...tinyShakespeareArgs(dir, { steps: 30, evalEvery: 10, checkpointEvery: 5 }),
  '--workers',
  '0',
];

const recorder = progressRecorder;

describe('interrupt and resume', () => {
  it('stops at a checkpoint, resumes from it to the same result, and skips finished runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-resume-'));
    const configs = expandGrid(parseBenchArgs(args(dir), () => undefined)!);
    const out: string[] = [];
    const io = (progress: ProgressDisplay, signal?: AbortSignal) => ({
      out: (l: string) => void out.push(l),
      err: (l: string) => void out.push(l),
      progress,
      signal,
    });

    // 1. Interrupt the first run once it is past its first checkpoint (step 5).
    const controller = new AbortController();
    const first = recorder((p) => {
      if (p.step >= 7) controller.abort();
    });
    expect(await main(args(dir), io(first.progress, controller.signal))).toBe(130);
    expect(out.join('\n')).toContain('error [BENCH_INTERRUPTED]');
    expect(out.join('\n')).toContain('rerun the same command to resume');
    const ckpts = readdirSync(join(dir, 'checkpoints'));
    expect(ckpts).toHaveLength(1);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
    expect(ckpts[0]).toMatch(/\.safetensors$/);
    const stoppedId = ckpts[0]!.replace(/\.safetensors$/, '');
    const stoppedAt = (
      parseCheckpoint(readFileSync(join(dir, 'checkpoints', ckpts[0]!))) as Checkpoint
    ).step;
    expect(stoppedAt).toBeGreaterThanOrEqual(7);
    expect(stoppedAt).toBeLessThan(30);

    // 2. Rerun: the interrupted run continues from its checkpoint, the other starts fresh.
    const second = recorder();
    expect(await main(args(dir), io(second.progress))).toBe(0);
    expect(out.filter((l) => l.includes('warning'))).toEqual([]);
    expect(second.starts.find((s) => s.id === stoppedId)!.startStep).toBe(stoppedAt);
    expect(second.starts.filter((s) => s.id !== stoppedId).map((s) => s.startStep)).toEqual([0]);
    expect(readdirSync(join(dir, 'checkpoints'))).toEqual([]);
    const records = configs.map(
      (c) => JSON.parse(readFileSync(join(dir, 'runs', `${runId(c)}.json`), 'utf8')) as RunRecord,
    );
    for (const r of records) {
      expect(r.trainLoss.at(-1)!.step).toBe(30);
      expect(r.evalMetric.map((p) => p.step)).toEqual([10, 20, 30]);
      expect(r.finalMetric).toBeGreaterThan(1);
    }
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('| T | softmax | sigmoid |');

    // 3. The resumed run equals an uninterrupted one: weights, optimizer and data stream were restored exactly.
    const fresh = mkdtempSync(join(tmpdir(), 'bench-fresh-'));
    const freshArgs = args(fresh).map((a) =>
      a === 'softmax,sigmoid' ? configs.find((c) => runId(c) === stoppedId)!.variant : a,
    );
    expect(await main(freshArgs, io(recorder().progress))).toBe(0);
    const uninterrupted = JSON.parse(
      readFileSync(join(fresh, 'runs', `${stoppedId}.json`), 'utf8'),
    ) as RunRecord;
    const resumed = records.find((r) => r.id === stoppedId)!;
    expect(resumed.finalMetric).toBe(uninterrupted.finalMetric);
    expect(resumed.evalMetric).toEqual(uninterrupted.evalMetric);
    // Stopped between two train-loss points (every 5 steps): the curve has no extra partial point.
    expect(stoppedAt % 5).not.toBe(0);
    expect(resumed.trainLoss).toEqual(uninterrupted.trainLoss);

    // 4. A third run has nothing to do.
    const third = recorder();
    out.length = 0;
    expect(await main(args(dir), io(third.progress))).toBe(0);
    expect(third.starts).toEqual([]);
    expect(out.join('\n')).toContain(
      'grid: 2 runs — 2 finished, 0 to resume, 0 new; nothing to train',
    );
  });

  it('restarts a run whose checkpoint is unreadable, with a warning, and reports a corrupt record as a coded error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-corrupt-'));
    const tiny = args(dir).map((a) => (a === 'softmax,sigmoid' ? 'softmax' : a === '30' ? '6' : a));
    const [config] = expandGrid(parseBenchArgs(tiny, () => undefined)!);
    const id = runId(config!);
    mkdirSync(join(dir, 'checkpoints'), { recursive: true });
    writeFileSync(join(dir, 'checkpoints', `${id}.json`), '{"version":1,"id":"trunc');
    const out: string[] = [];
    const rec = recorder();
    expect(
      await main(tiny, {
        out: (l) => void out.push(l),
        err: (l) => void out.push(l),
        progress: rec.progress,
      }),
    ).toBe(0);
    expect(out.join('\n')).toMatch(
      /warning: checkpoint .* cannot be used: it is unreadable .*set aside as .*\.rejected; run .* restarts from step 0/,
    );
    expect(rec.starts).toEqual([{ id, startStep: 0 }]);
    writeFileSync(join(dir, 'runs', `${id}.json`), '{ not json');
    out.length = 0;
    expect(
      await main(tiny, {
        out: (l) => void out.push(l),
        err: (l) => void out.push(l),
        progress: recorder().progress,
      }),
    ).toBe(1);
    expect(out.join('\n')).toMatch(
      /error \[BENCH_CORRUPT_CHECKPOINT\]: run record .* is not valid JSON; delete it to rerun that run/,
    );
  });
});
