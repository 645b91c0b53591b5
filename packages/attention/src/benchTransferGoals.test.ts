// The goal rows of scripts/benchTransfer.ts from hand-made rounds: medians, ratios, ranges and
// the goal verdicts.
import { describe, expect, it } from 'vitest';
import {
  KERNEL_PEAK_GOAL,
  WORKLOADS,
  kernelRow,
  workloadRow,
} from '../bench/transfer/transferGoals.js';

describe('benchTransfer goal rows', () => {
  it('gives the median ratio with its range and says whether the goal is met', () => {
    const rounds = [
      { softmaxMs: 40, transferMs: 70 },
      { softmaxMs: 50, transferMs: 100 },
      { softmaxMs: 30, transferMs: 45 },
    ];
    const row = workloadRow(WORKLOADS.baby, 'native', rounds);
    expect(row).toContain('| native | 40.0 | 70.0 | 1.75× (1.50–2.00) | ≤ 2×: met');
    const slow = workloadRow(WORKLOADS.paper256, 'wasm', [{ softmaxMs: 10, transferMs: 20 }]);
    expect(slow).toContain('| 2.00× | ≤ 1.6×: not met');
  });

  it("gives the kernels' GFLOP/s against the peak and their flops a state", () => {
    const round = { ms: 100, gflop: 7, peakGflops: 100, peakName: 'native avx2 FMA' };
    const row = kernelRow('native', [round], 200);
    expect(row).toContain('100.0 ms of 200.0');
    expect(row).toContain('70.0 GFLOP/s = 70 % of the 100.0 GFLOP/s native avx2 FMA peak');
    expect(row).toContain('60 flops, 24 bytes a state');
    expect(row).toContain(`≥ ${100 * KERNEL_PEAK_GOAL} %: met`);
    expect(kernelRow('native', [{ ...round, gflop: 6.9 }], 200)).toContain(': not met');
  });
});
