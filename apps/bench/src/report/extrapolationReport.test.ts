import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EXTRAPOLATION_FOLDER,
  extrapolationSpec,
  extrapolationTable,
  readExtrapolations,
} from './extrapolationReport.js';
import type { ExtrapolationResult } from './extrapolationReport.js';
import { syntheticRecords } from '../testing/fixtures.js';
import { LONG_CONTEXT_SLICES } from '../experiments/longContextSlices.js';
import { main } from '../cli/main.js';
import { renderSvg } from './plots/plots.js';
import { pairedTTest } from './stats.js';
import { formatTest } from './summaryTable.js';

/** Models trained at T = 8 without positions; softmax 6 + seed/10 + T/100, boltzmann `gain` below it. */
function results(gain: (T: number, seed: number) => number): ExtrapolationResult[] {
  // The experiment's own extrapolation slice, at T = 8.
  const slice = LONG_CONTEXT_SLICES.find((s) => s.part === 'extrapolation')!;
  const records = syntheticRecords([...slice.argv, '--lengths', '8', '--seeds', '0,1,2'], () => 6);
  return records.map((r) => ({
    model: `models/${r.id}.json`,
    config: r.config,
    trainedAt: 8,
    points: [8, 16, 32].map((T) => {
      const base = 6 + r.config.seed / 10 + T / 100;
      const perplexity = r.config.variant === 'softmax' ? base : base - gain(T, r.config.seed);
      return { T, loss: Math.log(perplexity), perplexity, sequences: 4 };
    }),
  }));
}

const write = (dir: string, files: readonly ExtrapolationResult[]): void => {
  mkdirSync(join(dir, EXTRAPOLATION_FOLDER), { recursive: true });
  files.forEach((f, k) =>
    writeFileSync(join(dir, EXTRAPOLATION_FOLDER, `m${k}.json`), JSON.stringify(f)),
  );
};

describe('extrapolation report', () => {
  const files = results((T, seed) => (T === 8 ? 0 : 0.1 * (T / 8) + 0.01 * seed));

  it('should table each evaluated length per variant, paired with softmax per seed', () => {
    const table = extrapolationTable(files)!;
    expect(table.head.slice(0, 5)).toEqual([
      'trained at T',
      'evaluated at T',
      'variant',
      'perplexity',
      'variant − softmax (no positions)',
    ]);
    expect(table.body.map((r) => r.slice(0, 3))).toEqual([
      ['8', '8', 'softmax (no positions)'],
      ['8', '8', 'boltzmann (tap, relative, no positions)'],
      ['8', '16', 'softmax (no positions)'],
      ['8', '16', 'boltzmann (tap, relative, no positions)'],
      ['8', '32', 'softmax (no positions)'],
      ['8', '32', 'boltzmann (tap, relative, no positions)'],
    ]);
    const at32 = table.body[5]!;
    // softmax at T = 32: 6.32, 6.42, 6.52; boltzmann 0.4 + 0.01·seed lower.
    expect(table.body[4]![3]).toBe('6.420 ± 0.100');
    expect(at32[4]).toBe('−0.410 ± 0.010');
    const diffs = [0, 1, 2].map((s) => -(0.4 + 0.01 * s));
    expect(at32.slice(6)).toEqual(formatTest(pairedTTest(diffs), 'perplexity'));
    expect(table.body[0]!.slice(4)).toEqual(['—', '—', '—', '—']); // the baseline itself
  });

  it('should read the results folder, skip a missing one, and name a corrupt file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-extrapolation-'));
    expect(readExtrapolations(dir)).toEqual([]);
    write(dir, files);
    expect(readExtrapolations(dir)).toHaveLength(6);
    writeFileSync(join(dir, EXTRAPOLATION_FOLDER, 'zz.json'), '{"points": [{"T": "long"}]}');
    expect(() => readExtrapolations(dir)).toThrow(
      expect.objectContaining({
        code: 'BENCH_RESULTS_INVALID',
        message: expect.stringContaining('zz.json'),
      }),
    );
    expect(await renderSvg(extrapolationSpec(files)!)).toContain('evaluated at length T');
  });

  it('should put the table in bench report beside the runs of the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-extrapolation-report-'));
    mkdirSync(join(dir, 'runs'));
    for (const f of files) {
      const [record] = syntheticRecords(['shakespeare', '--lengths', '8', '--seeds', '0'], () => 6);
      const r = { ...record!, id: `${f.config.variant}-${f.config.seed}`, config: f.config };
      writeFileSync(join(dir, 'runs', `${r.id}.json`), JSON.stringify(r));
    }
    write(dir, files);
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await main(['report', '--results', dir], io)).toBe(0);
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).toContain('## Extrapolation: saved models evaluated past their training length');
    // The training runs pair with softmax without positions, the grid's only softmax.
    expect(md).toContain('### Paired difference to softmax (no positions) (same seed)');
    expect(md).toMatch(/\| 8 \| boltzmann \(tap, relative, no positions\) \| 0\.000 ± 0\.000 \|/);
    expect(md).toMatch(
      /\| 8 \| 32 \| boltzmann \(tap, relative, no positions\) \| [\d.]+ ± [\d.]+ \| −0\.410 ± 0\.010 \|/,
    );
    expect(readFileSync(join(dir, 'plots', 'extrapolation.svg'), 'utf8')).toContain('<svg');
  });
});
