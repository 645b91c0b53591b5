import { describe, expect, it } from 'vitest';
import { createRng, floorScaledInt } from './index.js';
import { exactInt } from './rng.js';

// Replays given 32-bit words, to pin the rejection rule.
const scripted = (words: number[]) => () => words.shift()!;

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
    for (const n of [0, 1.5, 2 ** 32 + 1])
      expect(() => createRng(1).nextInt(n)).toThrowError(
        expect.objectContaining({ code: 'ISING_INVALID_ARGUMENT' }),
      );
    expect(() => floorScaledInt(createRng(1), 0)).toThrowError(
      expect.objectContaining({ code: 'ISING_INVALID_ARGUMENT' }),
    );
  });
});

describe('Rng.nextU32 and Rng.nextInt', () => {
  it('should give the words next() divides by 2^32', () => {
    const a = createRng(21);
    const b = createRng(21);
    for (let i = 0; i < 1000; i++) {
      const w = a.nextU32();
      expect(Number.isInteger(w) && w >= 0 && w < 2 ** 32).toBe(true);
      expect(b.next()).toBe(w / 2 ** 32);
    }
  });

  it('should map a word to word mod n and consume one word when it is accepted', () => {
    const a = createRng(22);
    const b = createRng(22);
    // Small n (rejection odds ≤ n/2^32) and powers of two (no incomplete block): no redraw here.
    for (const n of [1, 2, 3, 7, 65, 1000, 999_983, 2 ** 31, 2 ** 32]) {
      const k = a.nextInt(n);
      expect(k).toBe(n === 1 ? 0 : b.nextU32() % n);
    }
    expect(a.next()).toBe(b.next());
  });

  it('should reject the incomplete top block so every residue has equal mass', () => {
    // n = 3: 2^32 mod 3 = 1, so exactly the word 2^32 − 1 is rejected.
    expect(exactInt(scripted([4294967295, 4]), 3)).toBe(1);
    expect(exactInt(scripted([4294967294]), 3)).toBe(4294967294 % 3);
    // n = 1_000_000: 2^32 mod n = 967296 words at the top are rejected.
    expect(exactInt(scripted([4294967296 - 967296, 4294967296 - 967297]), 1_000_000)).toBe(
      (4294967296 - 967297) % 1_000_000,
    );
    expect(exactInt(scripted([]), 1)).toBe(0);
  });

  it('should stay in range for random n', () => {
    const rng = createRng(1);
    for (let i = 0; i < 1000; i++) {
      const n = 1 + Math.floor(rng.next() * 4294967295);
      const x = rng.nextInt(n);
      expect(Number.isInteger(x) && x >= 0 && x < n).toBe(true);
    }
  });

  it('should keep the old floor(u·n) mapping under floorScaledInt', () => {
    const a = createRng(23);
    const b = createRng(23);
    for (const n of [1, 6, 256, 5000])
      expect(floorScaledInt(a, n)).toBe(Math.floor((b.nextU32() / 2 ** 32) * n));
  });
});
