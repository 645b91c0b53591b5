import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../index.js';
import type { ProgressDisplay, RunProgress, RunRecord } from '../index.js';
import { bench, quiet } from '../testing/fixtures.js';
import { parseCheckpoint } from '../results/checkpointFile.js';
import type { Checkpoint } from '../results/checkpointValidation.js';

const tiny = [
  '--layers',
  '2',
  '--heads',
  '4',
  '--d-model',
  '16',
  '--lengths',
  '16',
  '--steps',
  '6',
  '--warmup-steps',
  '2',
  '--eval-every',
  '3',
  '--eval-batches',
  '2',
  '--batch-size',
  '4',
  '--workers',
  '0',
];

describe('bench gpt runs through the grid', () => {
  it('a tiny 2-layer, 4-head grid (8 estimates a step) writes a record with train/val evaluations at steps 0, 3 and 6 and a val loss', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-gpt-run-'));
    const r = await bench('gpt', ...tiny, '--variants', 'softmax,boltzmann', '--results', dir);
    expect(r.text).not.toContain('error');
    expect(r.code).toBe(0);
    const files = readdirSync(join(dir, 'runs')).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.startsWith('gpt-L2-'))).toBe(true);
    for (const file of files) {
      const record = JSON.parse(readFileSync(join(dir, 'runs', file), 'utf8')) as RunRecord;
      expect(record.config).toMatchObject({
        experiment: 'gpt',
        layers: 2,
        heads: 4,
        length: 16,
        steps: 6,
        gpt: { evalBatches: 2, warmupSteps: 2, bias: false, tieEmbeddings: true },
      });
      const e = record.gptEval!;
      expect(e.train.map((p) => p.step)).toEqual([0, 3, 6]);
      expect(e.val.map((p) => p.step)).toEqual([0, 3, 6]);
      expect(e.val[0]!.value).toBeCloseTo(Math.log(65), 0); // the untrained model: about uniform
      for (const p of [...e.train, ...e.val]) expect(p.value).toBeGreaterThan(0);
      expect(record.finalLoss).toBeCloseTo(e.val.at(-1)!.value, 12);
      expect(record.finalMetric).toBeCloseTo(Math.exp(record.finalLoss), 9);
      expect(record.finalLoss).toBeLessThan(Math.log(65) + 0.5); // about uniform over 65 characters after 6 steps
      expect(record.evalMetric.map((p) => p.step)).toEqual([0, 3, 6]);
      // The attention map of the fixed first val sequence: causal rows that sum to 1.
      const map = record.attentionMap!;
      expect(map.size).toBe(16);
      for (let i = 0; i < 16; i++) {
        const row = map.weights.slice(i * 16, (i + 1) * 16);
        expect(row.slice(i + 1).every((w) => w === 0)).toBe(true);
        expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      }
      if (record.config.variant === 'boltzmann') {
        // Mean J by distance for every (layer, head), consistent with head 0's full J.
        const profile = record.couplingProfile!;
        expect(profile).toHaveLength(2 * 4);
        expect(profile.every((p) => p.length === 15)).toBe(true);
        const J = record.couplings!;
        const d1 =
          Array.from({ length: 15 }, (_, j) => J[j * 16 + j + 1]!).reduce((a, b) => a + b, 0) / 15;
        expect(profile[0]![0]).toBeCloseTo(d1, 6);
      } else {
        expect(record.couplingProfile).toBeNull();
      }
    }
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(['summary.md']));
    // The same command again skips the finished runs.
    const again = await bench('gpt', ...tiny, '--variants', 'softmax,boltzmann', '--results', dir);
    expect(again.text).toMatch(/2 finished, 0 to resume, 0 new/);
    expect(again.code).toBe(0);
  });

  it('an interrupted gpt run resumes from its checkpoint (with its train/val curves) to the uninterrupted result', async () => {
    const args = (dir: string) => [
      'gpt',
      ...tiny,
      '--variants',
      'softmax',
      '--checkpoint-every',
      '2',
      '--results',
      dir,
    ];
    const straight = mkdtempSync(join(tmpdir(), 'bench-gpt-straight-'));
    expect((await bench(...args(straight))).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'bench-gpt-resume-'));
    const controller = new AbortController();
    const progress: ProgressDisplay = {
      ...quiet,
      update: (p: RunProgress) => void (p.step >= 4 && controller.abort()),
    };
    expect(
      await main(args(dir), {
        out: () => undefined,
        err: () => undefined,
        progress,
        signal: controller.signal,
      }),
    ).toBe(130);
    const [ckpt] = readdirSync(join(dir, 'checkpoints'));
    expect(
      (
        parseCheckpoint(readFileSync(join(dir, 'checkpoints', ckpt!))) as Checkpoint
      ).gptEval!.val.map((p: { step: number }) => p.step),
    ).toEqual([0, 3]);
    const resumed = await bench(...args(dir));
    expect(resumed.code).toBe(0);
    // It continued from the checkpoint (the step-0 evaluation is a valid curve point), not from step 0.
    expect(resumed.text).toMatch(/1 to resume/);
    expect(resumed.text).not.toContain('restarts from step 0');
    const read = (d: string) =>
      JSON.parse(
        readFileSync(join(d, 'runs', readdirSync(join(d, 'runs'))[0]!), 'utf8'),
      ) as RunRecord;
    const [a, b] = [read(straight), read(dir)];
    expect(b.id).toBe(a.id);
    expect(b.gptEval).toEqual(a.gptEval);
    expect(b.finalLoss).toBe(a.finalLoss);
  });
});
