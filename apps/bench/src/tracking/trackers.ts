// The trackers every run hands its metrics to: the metrics file always, and the ones a flag
// turns on (`--tensorboard`). A new sink is one factory in TRACKERS.
import { metricsFileTracker } from './metricsFile.js';
import { tensorboardTracker } from './tensorboard/tensorboardTracker.js';
import type { MetricsRow, RunTracker, TrackerContext, TrackerFactory } from './types.js';
import type { RunRecord } from '../recordTypes.js';

/** The trackers' factories, in the order rows reach them. */
const TRACKERS: readonly TrackerFactory[] = [metricsFileTracker, (c) => tensorboardTracker(c)];

/**
 * A run's trackers as one: each row, the finish and the close go to every tracker that applies
 * to the run, in {@link TRACKERS}' order; `close` closes them all, also when one fails (the first
 * failure is rethrown after).
 */
export function runTrackers(context: TrackerContext): Required<RunTracker> {
  const trackers: RunTracker[] = [];
  try {
    for (const make of TRACKERS) {
      const t = make(context);
      if (t !== undefined) trackers.push(t);
    }
  } catch (error) {
    for (const t of trackers) void t.close();
    throw error;
  }
  return {
    row(r: MetricsRow) {
      for (const t of trackers) t.row(r);
    },
    async finish(record: RunRecord) {
      for (const t of trackers) await t.finish?.(record);
    },
    async close() {
      const results = await Promise.allSettled(trackers.map(async (t) => t.close()));
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },
  };
}
