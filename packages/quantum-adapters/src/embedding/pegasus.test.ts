import { describe, expect, it } from 'vitest';
import { pegasusGraph, pegasusIndex, pegasusNiceIndex } from '../index.js';

describe('pegasusGraph', () => {
  it('should have 24m(m−1) − 8(m−1) qubits, degree ≤ 15, and 40,484 couplers at m = 16 (Advantage)', () => {
    for (const m of [2, 3, 6, 16]) {
      const g = pegasusGraph(m);
      expect(g.qubits.length).toBe(24 * m * (m - 1) - 8 * (m - 1));
      const degree = new Map<number, number>();
      for (const [a, b] of g.couplers) {
        degree.set(a, (degree.get(a) ?? 0) + 1);
        degree.set(b, (degree.get(b) ?? 0) + 1);
      }
      expect(Math.max(...degree.values())).toBeLessThanOrEqual(15);
      expect(new Set(g.couplers.map((c) => c.join())).size).toBe(g.couplers.length);
      if (m === 16) {
        expect(Math.max(...degree.values())).toBe(15);
        expect(g.couplers.length).toBe(40484);
      }
    }
  });

  it('should follow the dwave-networkx numbering (nice (0,0,0,0,0) is linear 4 = pegasus (0,0,4,0) at m = 2)', () => {
    expect(pegasusIndex(2, 0, 0, 4, 0)).toBe(4);
    expect(pegasusNiceIndex(2, 0, 0, 0, 0, 0)).toBe(4);
  });

  it('should contain three Chimera C(m−1, m−1, 4) lattices in nice coordinates', () => {
    const m = 6;
    const g = pegasusGraph(m);
    const couplers = new Set(g.couplers.map(([a, b]) => `${a},${b}`));
    const linked = (a: number, b: number) => couplers.has(a < b ? `${a},${b}` : `${b},${a}`);
    const seen = new Set<number>();
    for (const t of [0, 1, 2]) {
      const q = (y: number, x: number, u: 0 | 1, k: number) => pegasusNiceIndex(m, t, y, x, u, k);
      for (let y = 0; y < m - 1; y++) {
        for (let x = 0; x < m - 1; x++) {
          for (let k = 0; k < 4; k++) {
            for (const u of [0, 1] as const) {
              const me = q(y, x, u, k);
              expect(seen.has(me)).toBe(false);
              seen.add(me);
            }
            for (let l = 0; l < 4; l++) expect(linked(q(y, x, 0, k), q(y, x, 1, l))).toBe(true);
            if (y + 1 < m - 1) expect(linked(q(y, x, 0, k), q(y + 1, x, 0, k))).toBe(true);
            if (x + 1 < m - 1) expect(linked(q(y, x, 1, k), q(y, x + 1, 1, k))).toBe(true);
          }
        }
      }
    }
    expect(seen.size).toBe(24 * (m - 1) ** 2);
  });
});
