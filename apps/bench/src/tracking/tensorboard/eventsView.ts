// A view of TensorBoard event files without TensorBoard: the independent reader's scalars
// (scripts/tensorboardRead.py) of every run under a log dir, as one Vega-Lite panel per tag with
// a line per run, plus each run's hyperparameters, on one HTML page (scripts/tensorboardView.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BenchError } from '../../benchError.js';
import { renderSvg } from '../../report/plots/plots.js';
import { readEvents } from './pythonReader.js';
import type { ReadBack } from './pythonReader.js';

/** One scalar point of one run. */
interface Point {
  readonly run: string;
  readonly tag: string;
  readonly step: number;
  readonly value: number;
}

/**
 * Every run folder under `logdir` (those holding a tfevents file) read by the Python reader.
 *
 * @throws BENCH_NO_RESULTS when there is none; BENCH_RESULTS_INVALID with the reader's reason
 *   when a file fails its checks.
 */
export function readLogdir(logdir: string): Map<string, ReadBack> {
  const runs = new Map<string, ReadBack>();
  if (!existsSync(logdir)) throw new BenchError('BENCH_NO_RESULTS', `${logdir} does not exist`);
  for (const name of readdirSync(logdir).sort()) {
    const dir = join(logdir, name);
    if (!statSync(dir).isDirectory() || !readdirSync(dir).some((f) => f.includes('tfevents')))
      continue;
    const { status, read, stderr } = readEvents(dir);
    if (status !== 0 || read === undefined)
      throw new BenchError('BENCH_RESULTS_INVALID', `${dir}: ${stderr.trim()}`);
    runs.set(name, read);
  }
  if (runs.size === 0)
    throw new BenchError('BENCH_NO_RESULTS', `no run folder with event files in ${logdir}`);
  return runs;
}

/** The scalars of `tags` (in that order) over every run, as Vega-Lite rows. */
function pointsOf(runs: ReadonlyMap<string, ReadBack>, tags: readonly string[]): Point[] {
  return [...runs].flatMap(([run, read]) =>
    tags.flatMap((tag) =>
      (read.scalars[tag] ?? []).map(([step, value]) => ({ run, tag, step, value })),
    ),
  );
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The runs' hyperparameters as an HTML table: a row per run, a column per name that varies. */
function hparamsTable(runs: ReadonlyMap<string, ReadBack>): string {
  const all = [...runs.values()];
  const names = [...new Set(all.flatMap((r) => Object.keys(r.hparams)))]
    .sort()
    .filter((n) => new Set(all.map((r) => JSON.stringify(r.hparams[n]))).size > 1);
  const head = ['run', ...names].map((n) => `<th>${escapeHtml(n)}</th>`).join('');
  const rows = [...runs].map(
    ([run, r]) =>
      `<tr><td>${escapeHtml(run)}</td>${names.map((n) => `<td>${escapeHtml(String(r.hparams[n] ?? ''))}</td>`).join('')}</tr>`,
  );
  return `<table><tr>${head}</tr>${rows.join('')}</table>`;
}

/**
 * The page: a panel per tag (each scaled on its own), a line per run, and the hyperparameters
 * that differ between the runs.
 */
export async function eventsViewHtml(
  runs: ReadonlyMap<string, ReadBack>,
  tags: readonly string[],
): Promise<string> {
  const svg = await renderSvg({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values: pointsOf(runs, tags) },
    facet: { field: 'tag', type: 'nominal', title: null, sort: [...tags] },
    columns: 2,
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 420,
      height: 220,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'step', type: 'quantitative' },
        y: { field: 'value', type: 'quantitative', scale: { zero: false }, title: null },
        color: {
          field: 'run',
          type: 'nominal',
          legend: { orient: 'bottom', columns: 1, labelLimit: 600 },
        },
        strokeDash: { field: 'run', type: 'nominal', legend: null },
      },
    },
  });
  return [
    '<!doctype html><meta charset="utf-8"><title>TensorBoard event files</title>',
    '<style>body{font-family:sans-serif;margin:16px}table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:2px 6px}</style>',
    `<h1>Event files: ${runs.size} run${runs.size === 1 ? '' : 's'}</h1>`,
    '<p>Read by scripts/tensorboardRead.py (every record checksum verified).</p>',
    svg,
    '<h2>Hyperparameters that differ</h2>',
    hparamsTable(runs),
  ].join('\n');
}
