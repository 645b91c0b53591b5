import { describe, expect, it } from 'vitest';
import { createRng } from './index.js';

describe('createRng', () => {
  it('should be deterministic under a seed and differ across seeds', () => {
    const a = createRng(7);
    const b = createRng(7);
    const c = createRng(8);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xs);
  });

  it('should give uniform values with the right mean and variance', () => {
    const rng = createRng(1);
    const n = 200_000;
    let sum = 0;
    let sq = 0;
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      expect(u >= 0 && u < 1).toBe(true);
      sum += u;
      sq += u * u;
    }
    expect(Math.abs(sum / n - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / n));
    expect(Math.abs(sq / n - 1 / 3)).toBeLessThan(0.005);
  });

  it('should give standard normals and fair integers', () => {
    const rng = createRng(3);
    const n = 100_000;
    let sum = 0;
    let sq = 0;
    for (let i = 0; i < n; i++) {
      const z = rng.normal();
      sum += z;
      sq += z * z;
    }
    expect(Math.abs(sum / n)).toBeLessThan(0.02);
    expect(Math.abs(sq / n - 1)).toBeLessThan(0.02);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60_000; i++) counts[rng.nextInt(6)]!++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });

  it('should resume from a saved state', () => {
    const a = createRng(11);
    a.next();
    a.normal();
    const state = a.save();
    const expected = [a.next(), a.normal(), a.next()];
    const b = createRng(0);
    b.restore(state);
    expect([b.next(), b.normal(), b.next()]).toEqual(expected);
  });

  it('should resume from a state that went through JSON (no spare normal: NaN becomes null)', () => {
    const a = createRng(12);
    a.next();
    const state = JSON.parse(JSON.stringify(a.save())) as number[];
    expect(state[4]).toBeNull();
    const expected = [a.normal(), a.normal(), a.next()];
    const b = createRng(0);
    b.restore(state);
    expect([b.normal(), b.normal(), b.next()]).toEqual(expected);
  });

  it('should reject bad seeds and arguments with codes', () => {
    expect(() => createRng(Number.NaN)).toThrowError(
      expect.objectContaining({ code: 'ISING_INVALID_ARGUMENT' }),
    );
    expect(() => createRng(1).nextInt(0)).toThrowError(
      expect.objectContaining({ code: 'ISING_INVALID_ARGUMENT' }),
    );
  });
});
