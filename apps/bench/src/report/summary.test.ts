import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { holmAdjust, pairedTTest } from './stats.js';
import { meanStd, summarize } from './summary.js';
import { formatStat, formatTest, summaryHtml, summaryMarkdown } from './summaryTable.js';

const ppl: Record<string, number[]> = {
  softmax: [5.0, 5.2, 5.4],
  boltzmann: [4.9, 5.0, 5.5],
  sigmoid: [5.1, 5.3, 5.5],
  coupling: [8.0, 8.2, 8.1],
};

describe('meanStd', () => {
  it('uses the sample standard deviation (n − 1)', () => {
    expect(meanStd([1, 2, 3])).toEqual({ mean: 2, std: 1, n: 3 });
    const s = meanStd([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(s.mean).toBe(5);
    expect(s.std).toBeCloseTo(Math.sqrt(32 / 7), 14);
    expect(meanStd([3.5])).toEqual({ mean: 3.5, std: 0, n: 1 });
    expect(meanStd([]).n).toBe(0);
  });
});

describe('summarize', () => {
  const records = syntheticRecords(
    ['shakespeare', '--lengths', '4,8', '--seeds', '0,1,2'],
    (c) => ppl[c.variant]![c.seed]! + c.length / 100,
  );

  it('gives mean ± std over seeds per (row, column)', () => {
    const s = summarize(records, ['softmax', 'boltzmann', 'sigmoid', 'coupling'], 'softmax');
    expect(s.metricName).toBe('perplexity');
    expect(s.rows.map((r) => r.labels.T)).toEqual(['4', '8']);
    const b8 = s.rows[1]!.cells.boltzmann!;
    const expected = meanStd(ppl.boltzmann!.map((v) => v + 0.08));
    expect(b8.mean).toBeCloseTo(expected.mean, 12);
    expect(b8.std).toBeCloseTo(expected.std, 12);
    expect(b8.n).toBe(3);
  });

  it('pairs differences to the baseline by seed (not difference of means ± pooled std)', () => {
    const s = summarize(records, ['softmax', 'boltzmann', 'sigmoid', 'coupling'], 'softmax');
    const d = s.rows[0]!.diffs.boltzmann!;
    const perSeed = [0, 1, 2].map((k) => ppl.boltzmann![k]! - ppl.softmax![k]!); // -0.1, -0.2, +0.1
    expect(d.mean).toBeCloseTo(meanStd(perSeed).mean, 12);
    expect(d.std).toBeCloseTo(meanStd(perSeed).std, 12);
    const rel = s.rows[0]!.relDiffs.boltzmann!;
    const relPerSeed = [0, 1, 2].map(
      (k) => ((ppl.boltzmann![k]! - ppl.softmax![k]!) / (ppl.softmax![k]! + 0.04)) * 100,
    );
    expect(rel.mean).toBeCloseTo(meanStd(relPerSeed).mean, 10);
    expect(s.rows[0]!.diffs.softmax).toBeUndefined();
    // The bench's own paired t-test of the same per-seed differences, printed in the paired table.
    const test = s.rows[0]!.tests.boltzmann!;
    expect(test).toEqual(pairedTTest(perSeed));
    expect(test.p).toBeGreaterThan(0.05); // −0.1, −0.2, +0.1: no evidence either way
    const [ci, p] = formatTest(test, 'perplexity');
    expect(summaryMarkdown(s)).toContain(`| ${ci} | ${p} |`);
    expect(ci).toMatch(/^\[−\d\.\d{3}, \+\d\.\d{3}\]$/);
  });

  it("adjusts each variant's p-values with Holm over its rows (both lengths)", () => {
    const s = summarize(records, ['softmax', 'boltzmann', 'sigmoid', 'coupling'], 'softmax');
    for (const column of ['boltzmann', 'sigmoid', 'coupling']) {
      const raw = s.rows.map((r) => r.tests[column]!.p);
      expect(s.rows.map((r) => r.holmP[column])).toEqual(holmAdjust(raw));
    }
    // Coupling is far off softmax on both rows: the smaller p doubles, the larger stays (Holm).
    const [p4, p8] = s.rows.map((r) => r.tests.coupling!.p);
    expect(Math.min(s.rows[0]!.holmP.coupling!, s.rows[1]!.holmP.coupling!)).toBeCloseTo(
      Math.min(2 * Math.min(p4!, p8!), 1),
      15,
    );
    expect(s.rows[0]!.holmP.softmax).toBeUndefined();
    expect(summaryMarkdown(s)).toContain('| p (paired t) | p (Holm, per variant) |');
  });

  it('pairs only seeds present in both columns', () => {
    const partial = records.filter((r) => !(r.config.variant === 'softmax' && r.config.seed === 2));
    const s = summarize(partial, ['softmax', 'boltzmann'], 'softmax');
    expect(s.rows[0]!.diffs.boltzmann!.n).toBe(2);
    expect(s.rows[0]!.cells.boltzmann!.n).toBe(3);
  });

  it('keys bracket rows by mode, T, FFN and d_model and reports accuracy without relative %', () => {
    const acc = syntheticRecords(
      [
        'brackets',
        '--lengths',
        '8',
        '--d-model',
        '16,32',
        '--ffn',
        'on,off',
        '--seeds',
        '0,1',
        '--variants',
        'softmax,boltzmann',
      ],
      (c) => (c.variant === 'softmax' ? 0.9 : 0.92 + c.seed * 0.01),
    );
    const s = summarize(acc, ['softmax', 'boltzmann'], 'softmax', { modelAxes: true });
    expect(s.metricName).toBe('accuracy');
    expect(s.rowLabels).toEqual(['mode', 'T', 'FFN', 'd_model']);
    expect(summarize(acc, ['softmax', 'boltzmann'], 'softmax').rowLabels).toEqual(['mode', 'T']);
    expect(s.rows).toHaveLength(4);
    expect(s.rows[0]!.diffs.boltzmann!.mean).toBeCloseTo(0.025, 12);
    expect(s.rows[0]!.relDiffs.boltzmann).toBeNull();
    expect(formatStat(s.rows[0]!.diffs.boltzmann, 'accuracy', 'diff')).toBe('+2.50 ± 0.71 pp');
    // Differences that round to zero carry no sign; negative ones a real minus sign.
    expect(formatStat({ mean: -0.00001, std: 0.0001, n: 3 }, 'accuracy', 'diff')).toBe(
      '0.00 ± 0.01 pp',
    );
    expect(formatStat({ mean: 0.00001, std: 0.0001, n: 3 }, 'accuracy', 'diff')).toBe(
      '0.00 ± 0.01 pp',
    );
    expect(formatStat({ mean: -0.0123, std: 0.001, n: 3 }, 'accuracy', 'diff')).toBe(
      '−1.23 ± 0.10 pp',
    );
    expect(formatStat({ mean: -0.0123, std: 0.001, n: 1 }, 'perplexity', 'rel')).toBe(
      '−0.01 % (n = 1)',
    );
  });
});

describe('summary tables', () => {
  const records = syntheticRecords(
    ['shakespeare', '--lengths', '4', '--seeds', '0,1,2'],
    (c) => ppl[c.variant]![c.seed]!,
  );
  const s = summarize(records, ['softmax', 'boltzmann', 'sigmoid', 'coupling'], 'softmax');

  it('renders the paper-shaped Markdown table', () => {
    const md = summaryMarkdown(s);
    expect(md).toContain('| T | softmax | boltzmann | sigmoid | coupling |');
    expect(md).toContain('| 4 | 5.200 ± 0.200 | 5.133 ± 0.321 | 5.300 ± 0.200 | 8.100 ± 0.100 |');
    // The paired table in long format: one row per (T, variant), five columns however many variants.
    expect(md).toContain(
      '| T | variant | variant − softmax | vs softmax (rel.) | 95 % CI | p (paired t) | p (Holm, per variant) |',
    );
    expect(md).toMatch(/\| 4 \| boltzmann \| −0\.067 ± 0\.153 \| −1\.\d\d ± \d\.\d\d % \| \[/);
    expect(md).toMatch(/\| 4 \| sigmoid \| \+0\.100 ± /);
    expect(md).not.toMatch(/\| 4 \| softmax \|/);
  });

  it('renders the same tables as HTML', () => {
    const html = summaryHtml(s);
    expect(html).toContain('<th>boltzmann</th>');
    expect(html).toContain('<td>5.200 ± 0.200</td>');
    expect(html.match(/<table>/g)).toHaveLength(2);
    // Without runs beside the baseline, a sentence instead of an empty table.
    const alone = summarize(
      records.filter((r) => r.config.variant === 'boltzmann'),
      ['softmax', 'boltzmann'],
      'softmax',
    );
    expect(summaryMarkdown(alone)).toContain(
      'None yet: no other variant has a run with the same seed',
    );
    expect(summaryHtml(alone).match(/<table>/g)).toHaveLength(1);
  });
});
