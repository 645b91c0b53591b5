import { loadTransformer } from '@boltzmann/attention';
import { createSamplerRegistry } from '@boltzmann/ising-core';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { estimateRunSeconds } from '../grid/eta.js';
import { expandGrid, runId } from '../grid/expandGrid.js';
import { createRunModel } from '../training/runModel.js';
import { bench } from '../testing/fixtures.js';
import { validateRunConfig } from '../trust/runConfigSchema.js';
import type { RunRecord } from '../recordTypes.js';
import { ACCURACY } from './datasetRules.js';
import { createTaskData } from './taskData.js';

const TINY = [
  '--lengths',
  '16',
  '--kv-pairs',
  '2,4',
  '--vocab-size',
  '32',
  '--d-model',
  '16',
  '--steps',
  '4',
  '--warmup-steps',
  '1',
  '--eval-every',
  '2',
  '--batch-size',
  '4',
  '--train-examples',
  '40',
  '--test-examples',
  '12',
  '--workers',
  '0',
  '--engine-threads',
  '1',
];

describe('bench recall', () => {
  it('a tiny grid trains end to end: a record per (pairs, variant), accuracy at the queries, the plot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-recall-'));
    const r = await bench('recall', ...TINY, '--variants', 'softmax,boltzmann', '--results', dir);
    expect(r.text).not.toContain('error');
    expect(r.code).toBe(0);
    const files = readdirSync(join(dir, 'runs')).sort();
    expect(files.map((f) => f.slice(0, f.indexOf('-T16')))).toEqual([
      'recall-P2-boltzmann',
      'recall-P2-softmax',
      'recall-P4-boltzmann',
      'recall-P4-softmax',
    ]);
    for (const file of files) {
      const record = JSON.parse(readFileSync(join(dir, 'runs', file), 'utf8')) as RunRecord;
      expect(record.config).toMatchObject({
        experiment: 'recall',
        dataset: 'mqar',
        layers: 2,
        heads: 1,
        ffn: false,
        evalWindows: 0,
        recall: { vocabSize: 32, powerA: 0.01, trainExamples: 40, testExamples: 12 },
      });
      expect([2, 4]).toContain(record.config.recall!.kvPairs);
      expect(record.metricName).toBe('accuracy');
      expect(record.evalMetric.map((p) => p.step)).toEqual([2, 4]);
      // Every test sequence has kvPairs queries; accuracy is a share of them.
      expect(record.finalMetric * 12 * record.config.recall!.kvPairs).toBeCloseTo(
        Math.round(record.finalMetric * 12 * record.config.recall!.kvPairs),
        6,
      );
      expect(record.finalLoss).toBeGreaterThan(0);
    }
    expect(existsSync(join(dir, 'plots', 'mqar-accuracy-vs-pairs.svg'))).toBe(true);
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('### Test accuracy at the queries of held-out sequences');
    expect(summary).toMatch(/\| T \| pairs \| softmax \| boltzmann \(tap\) \|/);
    expect(summary).toMatch(/\| 16 \| 4 \| /);
  }, 120_000);

  it('its axes are T and the pairs that fit it (4 · pairs ≤ T), each cell a run of every variant', () => {
    const cmd = parseBenchArgs(['recall', '--lengths', '16,32', '--kv-pairs', '2,4,8'])!;
    const runs = expandGrid(cmd);
    const cells = runs.map((c) => `${c.length}/${c.recall!.kvPairs}/${c.variant}`);
    const variants = ['softmax', 'sigmoid', 'boltzmann'];
    expect(cells).toEqual(
      ['16/2', '16/4', '32/2', '32/4', '32/8'].flatMap((cell) =>
        variants.map((v) => `${cell}/${v}`),
      ),
    );
    expect(new Set(runs.map(runId)).size).toBe(runs.length);
    const [first] = runs;
    expect(first).toMatchObject({
      experiment: 'recall',
      dataset: 'mqar',
      dModel: 64,
      layers: 2,
      heads: 1,
      ffn: false,
      recall: {
        vocabSize: 256,
        kvPairs: 2,
        powerA: 0.01,
        trainExamples: 20_000,
        testExamples: 500,
      },
    });
    for (const c of runs) expect(validateRunConfig(c, 'test')).toBe(c);
    expect(() =>
      validateRunConfig({ ...first, recall: { ...first!.recall, kvPairs: 0 } }, 'job'),
    ).toThrow(/config\.recall\.kvPairs must be/);
    // The dry run's estimate counts the vocabulary (the output layer) and the test set.
    const big = { ...first!, recall: { ...first!.recall!, vocabSize: 8192 } };
    expect(estimateRunSeconds(big)).toBeGreaterThan(2 * estimateRunSeconds(first!));
    const paper = expandGrid(parseBenchArgs(['recall', '--preset', 'paper'])!);
    expect(new Set(paper.map((c) => `${c.length}/${c.recall!.kvPairs}`)).size).toBe(3 + 4 + 5);
  });

  it('scores a hand-made batch at its queries only (the metric, on the engine)', async () => {
    const [config] = expandGrid(
      parseBenchArgs([
        'recall',
        '--lengths',
        '8',
        '--kv-pairs',
        '2',
        '--vocab-size',
        '16',
        '--d-model',
        '8',
        '--variants',
        'softmax',
        '--train-examples',
        '4',
        '--test-examples',
        '2',
      ])!,
    );
    const data = await createTaskData(config!);
    // The test set scores its 2 sequences at their 2 queries each, whose targets are values (8 … 15).
    const test = data.evalBatches;
    expect(test.flatMap((b) => Array.from(b.mask!)).reduce((a, m) => a + m, 0)).toBe(4);
    for (const b of test)
      b.mask!.forEach((m, p) => {
        if (m === 1) expect(b.targets[p]! >= 8 && b.targets[p]! < 16).toBe(true);
      });
    const run = await createRunModel(config!, data, createSamplerRegistry());
    // Two sequences: pairs (3→12, 5→9) and (1→8, 7→15), queried at positions 4 and 6.
    const inputs = Int32Array.of(3, 12, 5, 9, 5, 0, 3, 0, 1, 8, 7, 15, 7, 2, 1, 4);
    const mask = Float32Array.of(0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0);
    const model = loadTransformer(run.save().model);
    const logits = model.logits(inputs, 2);
    const rows = await logits.data();
    logits.dispose();
    model.dispose();
    const argmax = (p: number): number => {
      let best = 0;
      for (let c = 1; c < 16; c++) if (rows[p * 16 + c]! > rows[p * 16 + best]!) best = c;
      return best;
    };
    // Right at the first query of each row, wrong at the second; right at every unscored position.
    const targets = Int32Array.from({ length: 16 }, (_, p) =>
      p % 8 === 6 ? (argmax(p) + 1) % 16 : argmax(p),
    );
    const scored = await run.evaluate([{ inputs, targets, mask }]);
    expect([scored.correct, scored.count]).toEqual([2, 4]);
    expect(ACCURACY.of(scored)).toBe(0.5);
    let loss = 0;
    for (const p of [4, 6, 12, 14]) {
      const row = Array.from(rows.subarray(p * 16, (p + 1) * 16));
      const max = Math.max(...row);
      loss -= row[targets[p]!]! - max - Math.log(row.reduce((a, x) => a + Math.exp(x - max), 0));
    }
    expect(scored.loss).toBeCloseTo(loss / 4, 4);
    const all = await run.evaluate([{ inputs, targets, mask: new Float32Array(16).fill(1) }]);
    expect([all.correct, all.count]).toEqual([14, 16]);
    run.dispose();
  });

  it('refuses bad flags with coded errors', async () => {
    const cases: [string[], RegExp][] = [
      [['--kv-pairs', '0'], /BENCH_INVALID_OPTION\]: --kv-pairs must be a comma-separated list/],
      [
        ['--lengths', '16', '--kv-pairs', '2,8'],
        /BENCH_INVALID_OPTION\]: --kv-pairs 8 fits no length/,
      ],
      [
        ['--steps', '30', '--warmup-steps', '30'],
        /BENCH_INVALID_OPTION\]: --warmup-steps 30 must be below/,
      ],
      [['--power-a', '0'], /BENCH_INVALID_OPTION\]: --power-a must be a finite number > 0/],
      [['--vocab-size', '2'], /BENCH_INVALID_OPTION\]: --vocab-size must be an integer in \[4/],
      [['--test-examples', 'x'], /BENCH_INVALID_OPTION\]: --test-examples must be an integer/],
      [['--mode', 'prefix'], /BENCH_INVALID_OPTION\]: --mode is a flag of bench brackets/],
      [['--eval-batches', '2'], /BENCH_INVALID_OPTION\]: --eval-batches is a flag of bench gpt/],
      [
        ['--lengths', '16', '--kv-pairs', '4', '--vocab-size', '8'],
        /DATASET_INVALID_ARGUMENT\]: vocabSize 8 has 3 key ids/,
      ],
      [['--lengths', '17', '--kv-pairs', '2'], /DATASET_INVALID_ARGUMENT\]: length must be even/],
      [
        ['--lengths', '64', '--train-examples', '3000000'],
        /DATASET_INVALID_ARGUMENT\]: --train-examples 3000000 × T 64 is above/,
      ],
    ];
    for (const [flags, message] of cases) {
      const r = await bench(
        'recall',
        ...flags,
        '--dry-run',
        '--results',
        mkdtempSync(join(tmpdir(), 'recall-bad-')),
      );
      expect(r.code, flags.join(' ')).not.toBe(0);
      expect(r.text).toMatch(message);
    }
  });
});
