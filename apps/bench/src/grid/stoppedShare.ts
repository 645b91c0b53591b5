// What early stopping did to a grid's finished runs, for the plan: the ETA counts every run to its
// step cap, an upper bound that issue 41's converged grids overshot about 4× (their runs stopped
// at a quarter of the 40,000-step cap). The finished runs' share of their caps gives a second,
// expected figure beside it.
import { estimateGridSeconds } from './eta.js';
import type { EtaEngine } from './eta.js';
import { formatDuration } from './progress.js';
import { median } from '../report/stats.js';
import type { PendingRun } from './types.js';
import type { RunRecord } from '../recordTypes.js';

/** The share of their step caps that finished early-stopping runs trained. */
export interface StoppedShare {
  /** Median of steps trained over the step cap. */
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** How many runs it is taken over. */
  readonly runs: number;
}

/**
 * The share of its step cap each finished run with early stopping trained (the step it stopped
 * at, or the whole cap when it did not stop), summarized.
 *
 * @param records a grid's finished records.
 * @returns null when none of them ran with early stopping.
 */
export function stoppedShare(records: Iterable<RunRecord>): StoppedShare | null {
  const shares: number[] = [];
  for (const r of records) {
    if (!r.config.earlyStop || !r.earlyStop || r.config.steps <= 0) continue;
    shares.push((r.earlyStop.stoppedAtStep ?? r.config.steps) / r.config.steps);
  }
  if (shares.length === 0) return null;
  return {
    median: median(shares)!,
    min: Math.min(...shares),
    max: Math.max(...shares),
    runs: shares.length,
  };
}

/**
 * The plan's line on early stopping: the finished runs' share of their caps, and the grid's ETA
 * if the pending early-stopping runs train that share too (what a resumed run has done counts).
 *
 * @returns null when no pending run stops early or no finished one did.
 */
export function expectedTimeLine(
  done: Iterable<RunRecord>,
  pending: readonly PendingRun[],
  slots: number,
  engine?: EtaEngine,
): string | null {
  const share = stoppedShare(done);
  const stopping = pending.filter((p) => p.config.earlyStop).length;
  if (!share || stopping === 0) return null;
  const scaled = pending.map((p) =>
    p.config.earlyStop
      ? { config: p.config, doneFraction: 1 - Math.max(share.median - p.doneFraction, 0) }
      : p,
  );
  const eta = estimateGridSeconds(scaled, slots, engine);
  const range = `${share.min.toFixed(2)}–${share.max.toFixed(2)}`;
  const runs = `${share.runs} finished run${share.runs === 1 ? '' : 's'}`;
  return `early stopping: the ${runs} here trained a median ${share.median.toFixed(2)}× of their step caps (${range}); if the ${stopping} pending with early stopping do too, ≈ ${formatDuration(eta)}`;
}
