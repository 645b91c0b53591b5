// A queued run's metrics, brought back with its result: the worker sends the text of its
// `metrics/<id>.jsonl`, and the coordinator writes that file, and with `--tensorboard` the event
// files, into the grid's results folder once the run has finished (a local run writes them as it
// trains). The text comes from Redis: every line is checked as a row before anything is written.
import { parseMetrics } from '../tracking/metricsFile.js';
import { runTrackers } from '../tracking/trackers.js';
import type { RunSettings } from '../types.js';
import type { RunRecord } from '../recordTypes.js';
import type { QueuedRun } from './queueJobs.js';

/**
 * Writes a finished queued run's metrics through the trackers a local run uses (the metrics file,
 * and the event files with `settings.tensorboard`), as a fresh start: the rows, then the record.
 * Metrics that are not a metrics file's text are warned about and nothing is written for them
 * (the record stands on its own).
 *
 * @param settings the grid's settings (its results folder and `tensorboard`).
 * @param metrics the result's `metrics`: the worker's file text, or undefined (an older worker).
 */
export async function writeJobMetrics(
  settings: RunSettings,
  run: QueuedRun,
  record: RunRecord,
  metrics: unknown,
  warn: (message: string) => void,
): Promise<void> {
  if (metrics === undefined) return;
  let rows: ReturnType<typeof parseMetrics>;
  try {
    if (typeof metrics !== 'string') throw new Error('they are not text');
    rows = parseMetrics(metrics, `job ${run.jobId}'s metrics`);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    warn(`no metrics written for run ${run.id}: ${why}`);
    return;
  }
  const trackers = runTrackers({ id: run.id, config: run.config, settings, startStep: 0, warn });
  try {
    for (const row of rows) trackers.row(row);
    await trackers.finish(record);
  } finally {
    await trackers.close();
  }
}
