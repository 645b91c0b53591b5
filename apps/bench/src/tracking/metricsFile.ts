// `metrics/<id>.jsonl`: a run's metrics, one JSON object a line, appended as it trains. On a
// resume the rows the checkpoint did not keep are dropped first (an atomic rewrite), so a stopped
// and resumed run ends with the file of an uninterrupted one.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { BenchError } from '../benchError.js';
import { writeFileAtomic } from '../results/atomicWrite.js';
import { metricsPath } from '../results/runFiles.js';
import type { MetricsRow, RunTracker, TrackerContext } from './types.js';

/** Why one line of a metrics file is not a row, or undefined when it is one. */
export function metricsLineProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'it is not a JSON object';
  const row = value as Partial<MetricsRow>;
  if (row.event !== 'train' && row.event !== 'eval') return 'its event is not "train" or "eval"';
  if (!Number.isInteger(row.step) || row.step! < 0) return 'its step is not an integer ≥ 0';
  if (typeof row.time !== 'number' || !Number.isFinite(row.time)) return 'its time is not a number';
  for (const key of ['trainLoss', 'lr', 'gradNorm', 'stepsPerSecond', 'metric', 'evalLoss'])
    if (key in row && typeof row[key as keyof MetricsRow] !== 'number')
      return `its ${key} is not a number`;
  return undefined;
}

/** The lines of a metrics file's text, the empty last one (after the final newline) left out. */
const linesOf = (text: string): string[] =>
  text.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);

/**
 * Every row of a metrics file, in file order.
 *
 * @throws BENCH_CORRUPT_METRICS naming the file and line of the first line that is not a row.
 */
export const readMetrics = (path: string): MetricsRow[] =>
  parseMetrics(readFileSync(path, 'utf8'), path);

/**
 * The rows of a metrics file's text (`where` names it in errors: a path, or a queued job).
 *
 * @throws BENCH_CORRUPT_METRICS naming `where` and the line of the first line that is not a row.
 */
export function parseMetrics(text: string, where: string): MetricsRow[] {
  const rows: MetricsRow[] = [];
  linesOf(text).forEach((line, i) => {
    let value: unknown;
    let problem: string | undefined;
    try {
      value = JSON.parse(line);
      problem = metricsLineProblem(value);
    } catch {
      problem = 'it is not valid JSON';
    }
    if (problem !== undefined)
      throw new BenchError('BENCH_CORRUPT_METRICS', `${where} line ${i + 1}: ${problem}`);
    rows.push(value as MetricsRow);
  });
  return rows;
}

/**
 * The lines of an earlier session to keep: those of steps ≤ `startStep` when the run resumes from
 * a checkpoint at `startStep` (> 0), none on a fresh start. A line that is not a row (a write
 * the kill of the process cut short) is dropped and warned about.
 */
function keptLines(path: string, context: TrackerContext): string[] {
  if (context.startStep === 0 || !existsSync(path)) return [];
  const kept: string[] = [];
  for (const line of linesOf(readFileSync(path, 'utf8'))) {
    let row: MetricsRow | undefined;
    try {
      const value: unknown = JSON.parse(line);
      if (metricsLineProblem(value) === undefined) row = value as MetricsRow;
    } catch {
      row = undefined;
    }
    if (row === undefined) context.warn(`${path}: dropped a line that is not a metrics row`);
    else if (row.step <= context.startStep) kept.push(line);
  }
  return kept;
}

/**
 * The tracker of `metrics/<id>.jsonl`: it first rewrites the file, atomically, to the rows the
 * run's start keeps (see {@link TrackerContext.startStep}), then appends one line per row.
 */
export function metricsFileTracker(context: TrackerContext): RunTracker {
  const path = metricsPath(context.settings.resultsDir, context.id);
  mkdirSync(dirname(path), { recursive: true });
  const kept = keptLines(path, context);
  writeFileAtomic(path, kept.map((l) => `${l}\n`).join(''));
  let fd: number | undefined = openSync(path, 'a');
  return {
    row(r) {
      if (fd !== undefined) writeSync(fd, `${JSON.stringify(r)}\n`);
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
