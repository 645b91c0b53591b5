import { describe, expect, it } from 'vitest';
import { createIsingBatch, estimateTransferMatrix, transferMatrixSampler } from './index.js';
import { randomBanded } from './internal/testing/bandedBatches.js';
import { thrownBy } from './testing/index.js';

describe('estimateTransferMatrix', () => {
  it('should refuse a nonzero coupling outside the band, naming (j, k) and the bandwidth', () => {
    const couplings = new Float64Array(36);
    couplings[0 * 6 + 2] = 0.5; // in band for w = 2
    couplings[1 * 6 + 4] = -0.25; // k − j = 3
    const batch = createIsingBatch({
      fields: new Float64Array(6),
      couplings,
      spins: [6],
      stride: 6,
    });
    const e = thrownBy(() => estimateTransferMatrix(batch, { bandwidth: 2 }));
    expect(e.code).toBe('ISING_INVALID_ARGUMENT');
    expect(e.message).toContain('J[1][4] = -0.25');
    expect(e.message).toContain('bandwidth 2');
    expect(
      thrownBy(() => transferMatrixSampler.create({ bandwidth: 2 }).estimate!(batch)).code,
    ).toBe('ISING_INVALID_ARGUMENT');
    // Only the block the problems use is read: a prefix of 4 spins never sees J[1][4].
    const prefix = createIsingBatch({
      fields: new Float64Array(6),
      couplings,
      spins: [4],
      stride: 6,
    });
    expect(thrownBy(() => estimateTransferMatrix(prefix, { bandwidth: 2 })).message).toBe(
      'no error',
    );
  });

  it('should default to bandwidth 8', () => {
    const n = 12;
    const couplings = new Float64Array(n * n);
    couplings[2 * n + 10] = 0.3; // k − j = 8
    const inBand = createIsingBatch({
      fields: new Float64Array(n).fill(0.1),
      couplings,
      spins: [n],
      stride: n,
    });
    expect(thrownBy(() => transferMatrixSampler.create().estimate!(inBand)).message).toBe(
      'no error',
    );
    couplings[1 * n + 10] = 0.3; // k − j = 9
    const outside = createIsingBatch({
      fields: new Float64Array(n),
      couplings,
      spins: [n],
      stride: n,
    });
    expect(thrownBy(() => estimateTransferMatrix(outside)).message).toContain(
      'J[1][10] = 0.3 lies outside bandwidth 8',
    );
  });

  it('should refuse bandwidth 17 naming the dense alternatives, and bad or unknown options', () => {
    const wide = thrownBy(() => transferMatrixSampler.create({ bandwidth: 17 }));
    expect(wide.code).toBe('ISING_INVALID_ARGUMENT');
    expect(wide.message).toMatch(/'tap'.*'mean-field'/);
    for (const bandwidth of [-1, 1.5, Number.NaN, '4']) {
      expect(
        thrownBy(() => transferMatrixSampler.create({ bandwidth } as never)).code,
        `bandwidth ${String(bandwidth)}`,
      ).toBe('ISING_INVALID_ARGUMENT');
    }
    const unknown = thrownBy(() => transferMatrixSampler.create({ bandwith: 4 } as never));
    expect(unknown.code).toBe('ISING_INVALID_ARGUMENT');
    expect(unknown.message).toContain('bandwith');
    expect(
      thrownBy(() => estimateTransferMatrix(randomBanded(1, 3, 1, 1, 1, 1), { width: 2 } as never))
        .code,
    ).toBe('ISING_INVALID_ARGUMENT');
    expect(transferMatrixSampler.create({ bandwidth: 16 }).capabilities).toEqual({
      exact: true,
      maxSpins: 4096,
      async: false,
      deterministic: true,
      couplings: { form: 'banded', widthOption: 'bandwidth', defaultWidth: 8 },
    });
  });

  it('should check the upstream gradient of its VJP', () => {
    const est = estimateTransferMatrix(randomBanded(3, 4, 1, 1, 1, 1), { bandwidth: 1 });
    expect(thrownBy(() => est.vjp(new Float64Array(3))).code).toBe('ISING_SHAPE_MISMATCH');
    expect(thrownBy(() => est.vjp(Float64Array.of(Number.NaN, 0, 0, 0, 0, 0, 0, 0))).code).toBe(
      'ISING_NOT_FINITE',
    );
  });
});
