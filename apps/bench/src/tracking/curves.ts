// `bench export --curves`: the curves of finished runs as flat rows, one per run × step, from
// each run's `metrics/<id>.jsonl` (the rows written as it trained, merged by step), or, for runs
// finished before that file existed, from the curves their record keeps.
import { existsSync } from 'node:fs';
import { metricsPath } from '../results/runFiles.js';
import type { RowValue, RunRow } from '../results/runRows.js';
import type { RunRecord } from '../recordTypes.js';
import { readMetrics } from './metricsFile.js';
import type { MetricsRow } from './types.js';

/** A finite number, else null (JSON has no NaN; an accuracy over no positions is NaN). */
const num = (v: number | undefined): RowValue =>
  v === undefined ? null : Number.isFinite(v) ? v : null;

/** The columns naming the run on each of its rows. */
function runColumns(r: RunRecord): Record<string, RowValue> {
  const c = r.config;
  return {
    id: r.id,
    experiment: c.experiment,
    dataset: c.dataset,
    column: c.column,
    variant: c.variant,
    seqLen: c.length,
    seed: c.seed,
    dModel: c.dModel,
    sampler: c.sampler,
    metricName: r.metricName,
  };
}

/** The figures of every curve row, in column order (null where the step has none). */
const FIGURES: Readonly<Record<string, RowValue>> = {
  time: null,
  trainLoss: null,
  lr: null,
  gradNorm: null,
  stepsPerSecond: null,
  evalMetric: null,
  evalLoss: null,
  trainEvalLoss: null,
};

/** The fields of one metrics row that a curve row keeps (its convergence under `convergence.*`). */
function rowFields(m: MetricsRow): Record<string, RowValue> {
  const out: Record<string, RowValue> = {};
  if (m.trainLoss !== undefined) out.trainLoss = num(m.trainLoss);
  if (m.lr !== undefined) out.lr = num(m.lr);
  if (m.gradNorm !== undefined) out.gradNorm = num(m.gradNorm);
  if (m.stepsPerSecond !== undefined) out.stepsPerSecond = num(m.stepsPerSecond);
  if (m.event === 'eval') out.evalMetric = m.metric === undefined ? null : num(m.metric);
  if (m.evalLoss !== undefined) out.evalLoss = num(m.evalLoss);
  if (m.trainEvalLoss !== undefined) out.trainEvalLoss = num(m.trainEvalLoss);
  for (const [k, v] of Object.entries(m.convergence ?? {})) out[`convergence.${k}`] = num(v);
  return out;
}

/** A run's metrics rows merged by step (a train and an eval row of one step are one curve row). */
function fromMetrics(rows: readonly MetricsRow[]): Map<number, Record<string, RowValue>> {
  const bySteps = new Map<number, Record<string, RowValue>>();
  for (const m of rows) {
    const at = bySteps.get(m.step) ?? {};
    const time = Math.max(m.time, typeof at.time === 'number' ? at.time : -Infinity);
    bySteps.set(m.step, { ...at, ...rowFields(m), time });
  }
  return bySteps;
}

/** A run's curves as its record keeps them: train loss, the metric and (gpt) the two eval losses. */
function fromRecord(r: RunRecord): Map<number, Record<string, RowValue>> {
  const bySteps = new Map<number, Record<string, RowValue>>();
  const put = (step: number, fields: Record<string, RowValue>) =>
    bySteps.set(step, { ...bySteps.get(step), ...fields });
  for (const p of r.trainLoss) put(p.step, { trainLoss: num(p.value) });
  for (const p of r.evalMetric) put(p.step, { evalMetric: num(p.value) });
  for (const p of r.gptEval?.val ?? []) put(p.step, { evalLoss: num(p.value) });
  for (const p of r.gptEval?.train ?? []) put(p.step, { trainEvalLoss: num(p.value) });
  return bySteps;
}

/**
 * The curve rows of one finished run, in step order: the run's columns, `source` (`metrics`: its
 * metrics file, with lr, gradient norm, steps/s and convergence; `record`: an older run's record,
 * train loss and metric only), `step`, then the step's figures.
 *
 * @throws BENCH_CORRUPT_METRICS when its metrics file has a line that is not a row.
 */
export function curveRows(resultsDir: string, r: RunRecord): RunRow[] {
  const path = metricsPath(resultsDir, r.id);
  const source = existsSync(path) ? 'metrics' : 'record';
  const bySteps = source === 'metrics' ? fromMetrics(readMetrics(path)) : fromRecord(r);
  const run = runColumns(r);
  return [...bySteps.keys()]
    .sort((a, b) => a - b)
    .map((step) => ({ ...run, source, step, ...FIGURES, ...bySteps.get(step) }));
}
