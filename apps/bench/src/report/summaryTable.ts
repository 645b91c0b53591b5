import type { PairedTest } from './stats.js';
import type { Table } from './sections.js';
import type { Stat, Summary } from './summary.js';

export type { Table } from './sections.js';

/** Formats a statistic for the table: perplexity with 3 decimals, accuracy in % with 2. */
export function formatStat(
  stat: Stat | null | undefined,
  metric: Summary['metricName'],
  kind: 'value' | 'diff' | 'rel' = 'value',
): string {
  if (!stat || stat.n === 0) return '—';
  const scale = metric === 'accuracy' && kind !== 'rel' ? 100 : 1;
  const digits = metric === 'accuracy' || kind === 'rel' ? 2 : 3;
  const unit =
    kind === 'rel' ? ' %' : metric === 'accuracy' ? (kind === 'diff' ? ' pp' : ' %') : '';
  const mean =
    kind === 'value' ? (stat.mean * scale).toFixed(digits) : signed(stat.mean * scale, digits);
  return spread(mean, (stat.std * scale).toFixed(digits), stat.n, unit);
}

/** What a cell of one value says in place of a spread (one seed has none: `± 0.000` would claim one). */
export const ONE_VALUE = '(n = 1)';

/**
 * A mean and its spread as a cell: `mean ± std unit`, or `mean unit (n = 1)` for a single value.
 *
 * @example
 * spread('17.94', '0.02', 3); // '17.94 ± 0.02'
 * spread('17.94', '0.00', 1); // '17.94 (n = 1)'
 */
export function spread(mean: string, std: string, n: number, unit = ''): string {
  return n > 1 ? `${mean} ± ${std}${unit}` : `${mean}${unit} ${ONE_VALUE}`;
}

/**
 * A paired t-test as its two cells, `[lo, hi]` (the 95 % CI in the metric's units, or with
 * `kind: 'rel'` in % with 2 decimals) and `= p` or `< 0.001`; `—` twice below two seeds.
 */
export function formatTest(
  test: PairedTest | null | undefined,
  metric: Summary['metricName'],
  kind: 'diff' | 'rel' = 'diff',
): [ci: string, p: string] {
  if (!test) return ['—', '—'];
  const scale = metric === 'accuracy' && kind === 'diff' ? 100 : 1;
  const digits = metric === 'accuracy' || kind === 'rel' ? 2 : 3;
  const unit = kind === 'rel' ? ' %' : metric === 'accuracy' ? ' pp' : '';
  const [lo, hi] = test.ci95.map((x) => signed(x * scale, digits));
  return [`[${lo}, ${hi}]${unit}`, formatP(test.p)];
}

/** A p-value as printed: `= 0.039`, `< 0.001`, or `—` when there is none. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined) return '—';
  return p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`;
}

/** A difference with its sign as printed: `+0.12`, `−0.12` (a real minus), and `0.00` when it rounds to zero. */
export function signed(value: number, digits: number): string {
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return text;
  return `${value > 0 ? '+' : '−'}${text}`;
}

/** The two tables of a summary: metric per column, and paired differences to the baseline. */
export function summaryTables(summary: Summary): { metric: Table; paired: Table } {
  const m = summary.metricName;
  const others = summary.columns.filter((c) => c !== summary.baseline);
  const metric: Table = {
    head: [...summary.rowLabels, ...summary.columns],
    body: summary.rows.map((r) => [
      ...summary.rowLabels.map((l) => r.labels[l] ?? ''),
      ...summary.columns.map((c) => formatStat(r.cells[c], m)),
    ]),
  };
  // Long format: one row per (grid row, variant), so the table stays five columns wide however
  // many variants a grid has.
  const paired: Table = {
    head: [
      ...summary.rowLabels,
      'variant',
      `variant − ${summary.baseline}`,
      ...(m === 'perplexity' ? [`vs ${summary.baseline} (rel.)`] : []),
      '95 % CI',
      'p (paired t)',
      'p (Holm, per variant)',
    ],
    body: summary.rows.flatMap((r) =>
      others
        .filter((c) => r.diffs[c])
        .map((c) => {
          const [ci, p] = formatTest(r.tests[c], m);
          return [
            ...summary.rowLabels.map((l) => r.labels[l] ?? ''),
            c,
            formatStat(r.diffs[c], m, 'diff'),
            ...(m === 'perplexity' ? [formatStat(r.relDiffs[c], m, 'rel')] : []),
            ci,
            p,
            formatP(r.holmP[c]),
          ];
        }),
    ),
  };
  return { metric, paired };
}

const mdRow = (cells: readonly string[]): string =>
  `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;

/** A {@link Table} as Markdown. */
export function mdTable(t: Table): string {
  return [mdRow(t.head), mdRow(t.head.map(() => '---')), ...t.body.map(mdRow)].join('\n');
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A {@link Table} as HTML (cells escaped). */
export function htmlTable(t: Table): string {
  const head = `<tr>${t.head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  const body = t.body
    .map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** What the paired table says when no variant shares a seed and cell with the baseline yet. */
const noPairs = (summary: Summary): string =>
  `None yet: no other variant has a run with the same seed and cell as ${summary.baseline}.`;

/** The metric table's title; recall's rows (they name the pairs) are scored at the queries. */
function metricTitle(summary: Summary): string {
  if (summary.metricName === 'perplexity') return 'Validation perplexity (lower is better)';
  return summary.rowLabels.includes('pairs')
    ? 'Test accuracy at the queries of held-out sequences (higher is better)'
    : 'Test accuracy on held-out strings (higher is better)';
}

/**
 * The summary as Markdown: a metric table (mean ± std over seeds) and a paired-difference
 * table (per-seed metric − baseline, mean ± std; relative % for perplexity).
 *
 * @param summary from `summarize`.
 * @returns Markdown text.
 */
export function summaryMarkdown(summary: Summary): string {
  const { metric, paired } = summaryTables(summary);
  return [
    `### ${metricTitle(summary)}`,
    '',
    'Cells: mean ± sample std over seeds.',
    '',
    mdTable(metric),
    '',
    `### Paired difference to ${summary.baseline} (same seed)`,
    '',
    paired.body.length > 0 ? mdTable(paired) : noPairs(summary),
    '',
  ].join('\n');
}

/** The summary as HTML tables (for report.html). */
export function summaryHtml(summary: Summary): string {
  const { metric, paired } = summaryTables(summary);
  return [
    `<h2>${esc(metricTitle(summary))}</h2>`,
    '<p>Cells: mean ± sample std over seeds.</p>',
    htmlTable(metric),
    `<h2>Paired difference to ${esc(summary.baseline)} (same seed)</h2>`,
    paired.body.length > 0 ? htmlTable(paired) : `<p>${esc(noPairs(summary))}</p>`,
  ].join('\n');
}
