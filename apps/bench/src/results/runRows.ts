import { join } from 'node:path';
import { writeFileAtomic } from './atomicWrite.js';
import type { RunRecord } from '../recordTypes.js';

/** A cell of a flat run row: what a CSV or a pandas/R data frame can hold. */
export type RowValue = string | number | boolean | null;

/** One finished run as a flat record: the config under dotted `config.*` keys, then its results. */
export type RunRow = Readonly<Record<string, RowValue>>;

/** The file of flat rows that every results folder gets beside its summary. */
export const RUNS_FILE = 'runs.jsonl';

/** A JSON-safe cell: non-finite numbers become null (JSON has no NaN), arrays their JSON text. */
function cell(value: unknown): RowValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** `{ a: { b: 1 } }` → `{ 'prefix.a.b': 1 }`; arrays stay one cell. */
function flatten(value: unknown, prefix: string, into: Record<string, RowValue>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, `${prefix}.${k}`, into);
  } else {
    into[prefix] = cell(value);
  }
}

/**
 * The flat row of one finished run: `id`, the config flattened with dotted keys
 * (`config.samplerOptions.threads`), the final metric, loss and speed, the commit and the times.
 *
 * @example
 * runRow(record)['config.variant']; // 'boltzmann'
 */
export function runRow(r: RunRecord): RunRow {
  const row: Record<string, RowValue> = { id: r.id };
  flatten(r.config, 'config', row);
  row.metricName = r.metricName;
  row.finalMetric = cell(r.finalMetric);
  row.finalLoss = cell(r.finalLoss);
  row.wallSeconds = cell(r.wallSeconds);
  row.stepsPerSecond = cell(r.stepsPerSecond);
  row.commit = r.gitCommit;
  row.startedAt = r.startedAt;
  row.finishedAt = r.finishedAt;
  return row;
}

/** {@link runRow} of each record, sorted by run id (so the same runs always give the same file). */
export function runRows(records: readonly RunRecord[]): RunRow[] {
  return [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(runRow);
}

/** Rows as JSON Lines: one object per line, each ending in `\n`. */
export function toJsonl(rows: readonly RunRow[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** An RFC 4180 field: quoted (quotes doubled) when it holds a comma, a quote or a line break. */
function csvField(value: RowValue | undefined): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Rows as RFC 4180 CSV: a header of every key any row has (`id`, then the `config.*` keys, then
 * the results), CRLF line ends, an empty field where a row lacks a key or has null.
 */
export function toCsv(rows: readonly RunRow[]): string {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const header = [
    ...keys.filter((k) => k === 'id'),
    ...keys.filter((k) => k.startsWith('config.')),
    ...keys.filter((k) => k !== 'id' && !k.startsWith('config.')),
  ];
  return [header, ...rows.map((r) => header.map((k) => r[k]))]
    .map((line) => `${line.map(csvField).join(',')}\r\n`)
    .join('');
}

/**
 * Writes `dir/runs.jsonl` atomically: one {@link runRow} per finished run, sorted by id.
 *
 * @returns the file's path.
 */
export function writeRunsJsonl(dir: string, records: readonly RunRecord[]): string {
  const path = join(dir, RUNS_FILE);
  writeFileAtomic(path, toJsonl(runRows(records)));
  return path;
}
