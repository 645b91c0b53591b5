import { describe, expect, it } from 'vitest';
import {
  formatLoad,
  formatPeerTable,
  median,
  parseBenchTraining,
  parseNanoGptIterations,
  parseTwin,
  speedRatio,
  usesReferenceBlas,
} from '../bench/peers/peerTable.js';

describe('the peer benchmark helpers (scripts/benchPeers.ts)', () => {
  it('reads the per-variant medians that benchTraining.ts prints', () => {
    const text = [
      'paper: 1 layer(s) × 1 head(s), d_model 64, batch 64, T = 12',
      '',
      'softmax: 32.7 steps/s (median 30.6 ms/step over 40); 2,000 iterations ≈ 61 s',
      '  achieved 8.3 GFLOP/s of matrix work = 27 % of the matmul peak; 300 tfjs kernels',
      'boltzmann (exact, 1 thread): 31.2 steps/s (median 32.0 ms/step over 40); 2,000 …',
    ].join('\n');
    expect(parseBenchTraining(text)).toEqual([
      { variant: 'softmax', stepsPerSecond: 32.7, msPerStep: 30.6 },
      { variant: 'boltzmann', stepsPerSecond: 31.2, msPerStep: 32 },
    ]);
    expect(parseBenchTraining('nothing here')).toEqual([]);
  });

  it("reads the twin's JSON line and tells the reference BLAS from OpenBLAS", () => {
    const line = JSON.stringify({
      peer: 'pytorch-twin',
      variant: 'softmax',
      threads: 1,
      msPerStep: 11,
      stepsPerSecond: 90.9,
      torch: '1.13.0a0',
      blas: ['/usr/lib/x86_64-linux-gnu/blas/libblas.so.3'],
    });
    const twin = parseTwin(`a warning\n${line}\n`)!;
    expect(twin.stepsPerSecond).toBe(90.9);
    expect(usesReferenceBlas(twin)).toBe(true);
    const open = { ...twin, blas: ['/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3'] };
    expect(usesReferenceBlas(open)).toBe(false);
    expect(parseTwin('{"not": "json"\nTraceback')).toBeUndefined();
  });

  it("takes nanoGPT's median time per iteration after the first five", () => {
    const log = [0, 1, 2, 3, 4, 5, 6, 7, 8]
      .map((i) => `iter ${i}: loss 3.7, time ${i < 5 ? 900 : 100 + i}.00ms, mfu 0.01%`)
      .join('\n');
    expect(parseNanoGptIterations(log)).toBe(106.5);
    expect(parseNanoGptIterations('step 0: train loss 4.2')).toBeUndefined();
    expect(median([3, 1, 2])).toBe(2);
  });

  it('lays out the table with speed ratios the right way up for rates and times', () => {
    const rate = { workload: 'w', unit: 'steps/s', here: 20, peer: 80, peerName: 'p' } as const;
    const time = { ...rate, unit: 'ms/iteration', here: 400, peer: 100 } as const;
    expect(speedRatio(rate)).toBe(0.25);
    expect(speedRatio(time)).toBe(0.25);
    expect(speedRatio({ ...rate, peer: undefined })).toBeUndefined();
    const table = formatPeerTable([rate, { ...time, peer: undefined }]);
    expect(table.split('\n')).toEqual([
      '| workload | here (tfjs-wasm) | peer | ratio |',
      '|---|---|---|---|',
      '| w | 20.0 steps/s | 80.0 steps/s (p) | 0.25× |',
      '| w | 400 ms/iteration | — (not run) | — |',
    ]);
    expect(formatLoad([0.75, 1.391, 2.3])).toBe('0.75, 1.39, 2.30');
  });
});
