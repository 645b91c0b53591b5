import { describe, expect, it } from 'vitest';
import { zephyrChimeraIndex, zephyrGraph, zephyrIndex } from '../index.js';

describe('zephyrGraph', () => {
  it('should have 4tm(2m+1) qubits, 2t((8t+8)m² − 2m − 3) couplers and degree ≤ 4t + 4', () => {
    for (const [m, t] of [
      [2, 4],
      [3, 2],
      [6, 4],
    ] as const) {
      const g = zephyrGraph(m, t);
      expect(g.qubits.length).toBe(4 * t * m * (2 * m + 1));
      expect(g.couplers.length).toBe(2 * t * ((8 * t + 8) * m * m - 2 * m - 3));
      const degree = new Map<number, number>();
      for (const [a, b] of g.couplers) {
        degree.set(a, (degree.get(a) ?? 0) + 1);
        degree.set(b, (degree.get(b) ?? 0) + 1);
      }
      // A qubit has two external neighbours (z ± 1) only when m ≥ 3.
      if (m >= 3) expect(Math.max(...degree.values())).toBe(4 * t + 4);
      else expect(Math.max(...degree.values())).toBe(4 * t + 3);
    }
  });

  it('should follow the dwave-networkx numbering (m = 2: (0,1,2,1,0) is 26, 137 is (1,3,2,0,1))', () => {
    expect(zephyrIndex(2, 4, 0, 1, 2, 1, 0)).toBe(26);
    expect(zephyrIndex(2, 4, 1, 3, 2, 0, 1)).toBe(137);
  });

  it('should contain the Chimera lattice C(m, m, 2t) for every minor offset (j0, j1)', () => {
    const m = 3;
    const t = 4;
    const g = zephyrGraph(m, t);
    const couplers = new Set(g.couplers.map(([a, b]) => `${a},${b}`));
    const linked = (a: number, b: number) => couplers.has(a < b ? `${a},${b}` : `${b},${a}`);
    for (const j0 of [0, 1] as const) {
      for (const j1 of [0, 1] as const) {
        const q = (y: number, x: number, u: 0 | 1, k: number) =>
          zephyrChimeraIndex(m, t, j0, j1, y, x, u, k);
        const seen = new Set<number>();
        for (let y = 0; y < m; y++) {
          for (let x = 0; x < m; x++) {
            for (let k = 0; k < 2 * t; k++) {
              seen.add(q(y, x, 0, k)).add(q(y, x, 1, k));
              for (let l = 0; l < 2 * t; l++)
                expect(linked(q(y, x, 0, k), q(y, x, 1, l))).toBe(true);
              if (y + 1 < m) expect(linked(q(y, x, 0, k), q(y + 1, x, 0, k))).toBe(true);
              if (x + 1 < m) expect(linked(q(y, x, 1, k), q(y, x + 1, 1, k))).toBe(true);
            }
          }
        }
        expect(seen.size).toBe(2 * m * m * 2 * t);
      }
    }
  });
});
