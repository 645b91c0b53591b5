import { describe, expect, it } from 'vitest';
import { meanCouplingByDistance } from './index.js';

describe('meanCouplingByDistance', () => {
  it('should average the strict upper triangle along each diagonal of the top-left T × T block', () => {
    // J[j][l] = 10·j + l in a 4 × 4 matrix; T = 3 reads rows and columns 0–2 only.
    const J = Float64Array.from({ length: 16 }, (_, k) => 10 * Math.floor(k / 4) + (k % 4));
    expect(Array.from(meanCouplingByDistance(J, 3, 4))).toEqual([(1 + 12) / 2, 2]);
    expect(Array.from(meanCouplingByDistance(J, 4))).toEqual([(1 + 12 + 23) / 3, (2 + 13) / 2, 3]);
    // Entries on and below the diagonal are never read.
    const upper = J.map((v, k) => (Math.floor(k / 4) < k % 4 ? v : Number.NaN));
    expect(meanCouplingByDistance(upper, 4)).toEqual(meanCouplingByDistance(J, 4));
    expect(meanCouplingByDistance(J, 1)).toHaveLength(0);
  });
});
