import { describe, expect, it } from 'vitest';
import type { BenchEngineFigure, TwinFigure } from '../bench/peers/peerTable.js';
import {
  TRANSFER_FLOPS_PER_STATE,
  oneCoreRoofline,
  parseTorchGemm,
  transferRoofline,
} from '../bench/peers/roofline.js';

const twin = (variant: string, msPerStep: number): TwinFigure => ({
  variant,
  threads: 1,
  msPerStep,
  stepsPerSecond: 1000 / msPerStep,
  torch: '1.13',
  blas: ['libopenblas'],
});

const softmax: BenchEngineFigure = {
  model: 'paper',
  variant: 'softmax',
  threads: 1,
  msPerStep: 6.54,
  stepsPerSecond: 152.9,
  matrixGflop: 0.253,
  gemmMs: 5.12,
  otherMs: 1.6,
  peakGflops: 50.6,
};

describe('the roofline of the missed goals (scripts/benchPeers.ts)', () => {
  it("reads torch_gemm.py's JSON line and nothing else", () => {
    const line = '{"threads": 1, "capability": "- CPU capability usage: AVX2", "gflops": 103.5}';
    expect(parseTorchGemm(`warning\n${line}\n`)?.gflops).toBe(103.5);
    expect(parseTorchGemm('{"gflops": "fast"}\nTraceback')).toBeUndefined();
    expect(parseTorchGemm('')).toBeUndefined();
  });

  it('puts the matrix work at the peak against the time each one-core goal allows', () => {
    const gemm = { threads: 1, capability: '- CPU capability usage: AVX2', gflops: 101.2 };
    const lines = oneCoreRoofline(
      softmax,
      { softmax: twin('softmax', 5.62), boltzmann: twin('boltzmann', 8.62) },
      gemm,
    );
    // 0.253 GFLOP at 50.6 GFLOP/s = 5.00 ms; the twin's 5.62 ms leaves 0.62 for 1.60 here.
    expect(lines[0]).toContain('0.253 GFLOP, takes 5.00 ms at 100 % of the 50.6 GFLOP/s');
    expect(lines[1]).toContain('leaves 0.62 ms');
    expect(lines[1]).toContain('needs it 2.6× faster');
    // Half the twin's boltzmann step (4.31 ms) is below the 5.00 ms floor.
    expect(lines[2]).toContain('a step of 4.31 ms, below the matrix work');
    expect(lines[3]).toContain('101.2 GFLOP/s, 2.00× the f32x4 peak');
    expect(lines[3]).toContain('CPU capability usage: AVX2');
  });

  it("prices issue 40's native goals at the native backend's own peak", () => {
    const native = { ...softmax, peakGflops: 202.4, peakName: 'native avx512 FMA' };
    const gemm = { threads: 1, capability: '- CPU capability usage: AVX512', gflops: 101.2 };
    const lines = oneCoreRoofline(native, { softmax: twin('softmax', 5.2) }, gemm, {
      softmax: 1.3,
      boltzmann: 2,
    });
    // 0.253 GFLOP at 202.4 GFLOP/s = 1.25 ms; 1.3× the twin's 5.2 ms is a step of 4.00 ms.
    expect(lines[0]).toContain(
      'takes 1.25 ms at 100 % of the 202.4 GFLOP/s native avx512 FMA peak',
    );
    expect(lines[1]).toContain('softmax ≥ 1.3× the twin');
    expect(lines[1]).toContain('so a step of 4.00 ms, which leaves 2.75 ms');
    expect(lines[2]).toContain('0.50× the native avx512 FMA peak');
    expect(lines[2]).not.toContain('4 float lanes');
    // On the wasm peak the same goal lies below the matrix work alone (5.00 ms > 4.00 ms).
    const wasm = oneCoreRoofline(softmax, { softmax: twin('softmax', 5.2) }, undefined, {
      softmax: 1.3,
      boltzmann: 2,
    });
    expect(wasm[1]).toContain("a step of 4.00 ms, below the matrix work's 5.00 ms alone");
  });

  it('says when a goal is above the floor, and prints nothing without the one-thread figures', () => {
    const slow = oneCoreRoofline(softmax, { boltzmann: twin('boltzmann', 20) }, undefined);
    expect(slow).toHaveLength(2);
    expect(slow[1]).toContain('a step of 10.00 ms, above the matrix work');
    const { matrixGflop: _, ...noSplit } = softmax;
    expect(oneCoreRoofline(noSplit, { softmax: twin('softmax', 5) }, undefined)).toEqual([]);
    expect(oneCoreRoofline(undefined, {}, undefined)).toEqual([]);
  });

  it('counts the window states of a step and prices them at both cores’ roofs', () => {
    const baby = { layers: 4, heads: 4, batch: 12, length: 64, window: 8 };
    const roofs = { peakGflops: 97.6, bandwidth: 64 };
    const lines = transferRoofline(baby, 58.3, roofs);
    // 4 · 4 · 12 · (1 + … + 64) · 2⁸ = 102,236,160 states.
    const states = 102_236_160;
    expect(lines[0]).toContain('102.2 M window states');
    expect(lines[0]).toContain('29.15 ms');
    const at = (flops: number) => (states * flops) / 97.6 / 1e6;
    expect(lines[1]).toContain(`${at(TRANSFER_FLOPS_PER_STATE.kernel).toFixed(2)} ms`);
    expect(lines[2]).toContain(`${at(TRANSFER_FLOPS_PER_STATE.fewest).toFixed(2)} ms`);
    expect(lines[2]).toContain(`${((100 * at(32)) / 29.15).toFixed(0)} % of what the goal allows`);
    // Keeping the messages: 25 flops (26.19 ms) against 16 bytes a state at 64 GB/s (25.56 ms).
    expect(lines[3]).toContain('26.19 ms of flops, 25.56 ms of memory traffic');
    expect(lines[3]).toContain('at best (both roofs at once) 26.19 ms');
    const slowMemory = transferRoofline(baby, 58.3, { peakGflops: 97.6, bandwidth: 20 });
    expect(slowMemory[3]).toContain('at best (both roofs at once) 81.79 ms');
    expect(transferRoofline(baby, undefined, roofs)).toEqual([]);
    // The measured step: 58.3 ms of softmax, 258.3 of transfer matrix: ≤ 200 ms for the op,
    // 102,236,160 states × 60 flops in it = 30.7 GFLOP/s, 31 % of 97.6.
    const measured = transferRoofline(baby, 58.3, roofs, 258.3);
    expect(measured).toHaveLength(5);
    expect(measured[4]).toContain('at most 200.00 ms a step');
    expect(measured[4]).toContain('≥ 30.7 GFLOP/s, 31 % of both cores');
    expect(lines).toHaveLength(4);
  });
});
