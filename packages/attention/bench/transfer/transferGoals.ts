// Issue 41's goal rows for the transfer-matrix kernels (scripts/benchTransfer.ts): each workload's
// banded:8 transfer-matrix time beside softmax's on the same backend and threads, measured side
// by side in every round, and the kernels' share of the backend's peak. Pure (no I/O), so a test
// checks the table without a benchmark run.
import { median } from '../peers/peerTable.js';
import { TRANSFER_COST } from '../../src/engine/transfer.js';

/** One round's figures of one workload on one backend: ms per step of each variant. */
export interface WorkloadRound {
  readonly softmaxMs: number;
  readonly transferMs: number;
}

/** The kernels' own figures of one round (benchEngine.ts's one-thread split of the baby step). */
export interface KernelRound {
  /** The transfer kernels' ms and GFLOP per step, and the backend's one-core peak (GFLOP/s). */
  readonly ms: number;
  readonly gflop: number;
  readonly peakGflops: number;
  readonly peakName: string;
}

/** A workload's goal: the transfer matrix at most `maxRatio` × softmax's time. */
export interface Workload {
  readonly name: string;
  readonly maxRatio: number;
}

/** The goals of issue 41. */
export const WORKLOADS = {
  baby: { name: 'GPT baby, banded:8 transfer matrix, per iteration', maxRatio: 2 },
  paper256: { name: 'paper model T = 256, banded:8 transfer matrix, per step', maxRatio: 1.6 },
} as const satisfies Record<string, Workload>;

/** The kernels' goal: at least this share of the backend's peak. */
export const KERNEL_PEAK_GOAL = 0.7;

const fmt = (x: number, d = 1) => x.toFixed(d);
const range = (xs: readonly number[], d = 2) =>
  xs.length > 1 ? ` (${fmt(Math.min(...xs), d)}–${fmt(Math.max(...xs), d)})` : '';

/** The row of one workload on one backend: medians over the rounds, the ratio's range, the goal. */
export function workloadRow(
  w: Workload,
  backend: string,
  rounds: readonly WorkloadRound[],
): string {
  const ratios = rounds.map((r) => r.transferMs / r.softmaxMs);
  const ratio = median(ratios);
  const met = ratio <= w.maxRatio ? 'met' : 'not met';
  const soft = median(rounds.map((r) => r.softmaxMs));
  const tm = median(rounds.map((r) => r.transferMs));
  return `${w.name} | ${backend} | ${fmt(soft)} | ${fmt(tm)} | ${fmt(ratio, 2)}×${range(ratios)} | ≤ ${w.maxRatio}×: ${met}`;
}

/** The kernels' row: their share of the step, GFLOP/s against the peak, flops and bytes a state. */
export function kernelRow(backend: string, rounds: readonly KernelRound[], stepMs: number): string {
  const rates = rounds.map((r) => r.gflop / (r.ms / 1000));
  const shares = rounds.map((r, i) => rates[i]! / r.peakGflops);
  const share = median(shares);
  const met = share >= KERNEL_PEAK_GOAL ? 'met' : 'not met';
  const { forward, backward } = TRANSFER_COST;
  const ms = median(rounds.map((r) => r.ms));
  return (
    `the transfer kernels in the baby step (one thread) | ${backend} | ${fmt(ms)} ms of ${fmt(stepMs)} | ` +
    `${fmt(median(rates))} GFLOP/s = ${fmt(100 * share, 0)} %${range(
      shares.map((s) => 100 * s),
      0,
    )} of the ${fmt(median(rounds.map((r) => r.peakGflops)))} GFLOP/s ${rounds[0]?.peakName ?? ''} peak | ` +
    `${forward.flops + backward.flops} flops, ${forward.bytes + backward.bytes} bytes a state (forward ${forward.flops} + ${forward.bytes}, backward ${backward.flops} + ${backward.bytes}) | ≥ ${100 * KERNEL_PEAK_GOAL} %: ${met}`
  );
}

/** The table's head. */
export const TABLE_HEAD = [
  'workload | backend | softmax ms | transfer matrix ms | ratio (range over rounds) | goal',
  '---|---|---|---|---|---',
].join('\n');
