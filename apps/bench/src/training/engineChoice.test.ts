// `--engine`: the same tiny grid trained on the fused engine and on the tfjs path writes the same
// runs (ids, curves' steps) with losses equal to float32 rounding, and a run interrupted on one
// resumes on the other from its checkpoint.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../index.js';
import type { ProgressDisplay, RunRecord } from '../index.js';
import { progressRecorder, tinyShakespeareArgs } from '../testing/fixtures.js';

const args = (dir: string, engine: string) => [
  ...tinyShakespeareArgs(dir, { steps: 30, evalEvery: 10, checkpointEvery: 5 }),
  '--workers',
  '0',
  '--engine',
  engine,
];

const io = (progress: ProgressDisplay, signal?: AbortSignal) => ({
  out: () => undefined,
  err: () => undefined,
  progress,
  signal,
});

function records(dir: string): Map<string, RunRecord> {
  const files = readdirSync(join(dir, 'runs')).sort();
  return new Map(
    files.map((f) => [f, JSON.parse(readFileSync(join(dir, 'runs', f), 'utf8')) as RunRecord]),
  );
}

describe('bench --engine', () => {
  it('wasm and tfjs train the same runs to the same losses (float32 rounding)', async () => {
    const [wasm, tfjs] = [
      mkdtempSync(join(tmpdir(), 'bench-wasm-')),
      mkdtempSync(join(tmpdir(), 'bench-tfjs-')),
    ];
    expect(await main(args(wasm, 'wasm'), io(progressRecorder().progress))).toBe(0);
    expect(await main(args(tfjs, 'tfjs'), io(progressRecorder().progress))).toBe(0);
    const [a, b] = [records(wasm), records(tfjs)];
    expect([...a.keys()]).toEqual([...b.keys()]);
    // --workers 0: each run has the machine to itself, so its engine steps on every core (issue 40).
    for (const rec of a.values()) expect(rec.engine?.threads).toBe(availableParallelism());
    for (const [id, rec] of a) {
      const other = b.get(id)!;
      expect(rec.finalLoss, id).toBeCloseTo(other.finalLoss, 3);
      expect(rec.trainLoss.map((p) => p.step)).toEqual(other.trainLoss.map((p) => p.step));
    }
  });

  it('a run interrupted on the engine resumes on the tfjs path from its checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-engine-resume-'));
    const controller = new AbortController();
    const first = progressRecorder((p) => {
      if (p.step >= 7) controller.abort();
    });
    expect(await main(args(dir, 'wasm'), io(first.progress, controller.signal))).toBe(130);
    const second = progressRecorder();
    expect(await main(args(dir, 'tfjs'), io(second.progress))).toBe(0);
    expect(Math.max(...second.starts.map((s) => s.startStep))).toBeGreaterThanOrEqual(7);
    expect(records(dir).size).toBe(2);
  });
});
