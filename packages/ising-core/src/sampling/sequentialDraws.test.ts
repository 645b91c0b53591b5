// The chain-rule draws of exact estimate-only samplers above 24 spins.
import { describe, expect, it } from 'vitest';
import { boltzmannDistribution } from '../exact.js';
import { estimateExact } from '../estimateExact.js';
import { createRng } from '../rng.js';
import { estimateTransferMatrix } from '../transferMatrix.js';
import { transferMatrixSampler } from '../transferMatrixSampler.js';
import { sampleIsing } from './sampleIsing.js';
import { drawSequential } from './sequentialDraws.js';

describe('drawSequential', () => {
  it('draws the Boltzmann distribution of a dense 4-spin model (exact estimates)', async () => {
    const n = 4;
    const fields = Float64Array.of(0.3, -0.6, 0.1, 0.4);
    const couplings = Float64Array.of(0, 0.8, -0.4, 0.2, 0, 0, 0.5, -0.7, 0, 0, 0, 0.6, 0, 0, 0, 0);
    const reads = 20000;
    const { states } = await drawSequential(
      async (b) => estimateExact(b),
      { n, fields, couplings, beta: 0.9 },
      reads,
      createRng(11),
    );
    const p = boltzmannDistribution(fields, couplings, { beta: 0.9 });
    const freq = new Float64Array(16);
    for (let r = 0; r < reads; r++) {
      let s = 0;
      for (let j = 0; j < n; j++) if (states[r * n + j] === 1) s |= 1 << j;
      freq[s]! += 1 / reads;
    }
    for (let s = 0; s < 16; s++)
      expect(Math.abs(freq[s]! - p[s]!)).toBeLessThan(
        5 * Math.sqrt((p[s]! * (1 - p[s]!)) / reads) + 1e-3,
      );
  });

  it('transfer-matrix at 40 spins: sampleIsing draws with its magnetizations and energies', async () => {
    const n = 40;
    const rng = createRng(3);
    const h = Array.from({ length: n }, () => 0.5 * rng.normal());
    const J = new Array<number>(n * n).fill(0);
    for (let j = 0; j < n; j++)
      for (let k = j + 1; k <= Math.min(n - 1, j + 2); k++) J[j * n + k] = 0.6 * rng.normal();
    const reads = 4000;
    const set = await sampleIsing(transferMatrixSampler.create({ bandwidth: 2 }), h, J, {
      reads,
      seed: 5,
    });
    expect(set.info.source).toBe('exact-sequential');
    expect(set.size).toBe(reads);
    const batch = {
      size: 1,
      stride: n,
      spins: Int32Array.of(n),
      fields: Float64Array.from(h),
      couplings: Float64Array.from(J),
      beta: 1,
    };
    const m = estimateTransferMatrix(batch, { bandwidth: 2 }).magnetization;
    for (let j = 0; j < n; j++) {
      let mean = 0;
      for (let r = 0; r < reads; r++) mean += set.states[r * n + j]! / reads;
      expect(Math.abs(mean - m[j]!)).toBeLessThan(5 * Math.sqrt((1 - m[j]! ** 2) / reads) + 1e-3);
    }
    const r = set.first.index;
    let e = 0;
    for (let j = 0; j < n; j++) {
      const sj = set.states[r * n + j]!;
      e -= h[j]! * sj;
      for (let k = j + 1; k < n; k++) e -= J[j * n + k]! * sj * set.states[r * n + k]!;
    }
    expect(set.first.energy).toBeCloseTo(e, 10);
  });
});
