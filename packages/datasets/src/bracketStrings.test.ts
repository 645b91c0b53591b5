import { createRng } from '@boltzmann/ising-core';
import fc from 'fast-check';
import type { Rng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import {
  bracketStringAt,
  bracketStringRank,
  countBracketStrings,
  enumerateBracketStrings,
  isDatasetError,
  sampleBracketString,
} from './index.js';
import type { BracketMode, BracketTypes } from './index.js';

const PAIRS = ['()', '[]', '{}'];

// Reference: a stack check of one candidate string.
function isValid(s: string, mode: BracketMode): boolean {
  const stack: string[] = [];
  for (const c of s) {
    const open = PAIRS.find((p) => p[0] === c);
    if (open) {
      stack.push(open[1]!);
      continue;
    }
    if (stack.pop() !== c) return false;
  }
  return mode === 'prefix' || stack.length === 0;
}

// Reference: every string over the 2k characters, filtered.
function bruteForce(T: number, mode: BracketMode, types: BracketTypes): string[] {
  const alphabet = PAIRS.slice(0, types).join('');
  const out: string[] = [];
  const total = alphabet.length ** T;
  for (let code = 0; code < total; code++) {
    let s = '';
    for (let i = 0, c = code; i < T; i++, c = Math.floor(c / alphabet.length))
      s = alphabet[c % alphabet.length]! + s;
    if (isValid(s, mode)) out.push(s);
  }
  return out;
}

function binomial(n: number, k: number): bigint {
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
const catalan = (n: number) => binomial(2 * n, n) / BigInt(n + 1);

function chiSquare(
  draw: (rng: Rng) => string,
  space: readonly string[],
  n: number,
  seed: number,
): number {
  const counts = new Map(space.map((s) => [s, 0]));
  const rng = createRng(seed);
  for (let i = 0; i < n; i++) {
    const s = draw(rng);
    const c = counts.get(s);
    if (c === undefined) throw new Error(`drew ${s}, not in the space`);
    counts.set(s, c + 1);
  }
  const expected = n / space.length;
  let chi2 = 0;
  for (const c of counts.values()) chi2 += (c - expected) ** 2 / expected;
  return chi2;
}
// A generous bound: mean df, about 6 standard deviations above it, plus slack.
const chiBound = (df: number) => df + 6 * Math.sqrt(2 * df) + 10;

describe('countBracketStrings', () => {
  it('should give the counts of METHOD.md §5 for one bracket type', () => {
    expect([8, 12, 16].map((T) => countBracketStrings(T, 'balanced'))).toEqual([14n, 132n, 1430n]);
    expect([8, 12, 16].map((T) => countBracketStrings(T, 'prefix'))).toEqual([70n, 924n, 12870n]);
    expect(countBracketStrings(6, 'balanced')).toBe(5n);
    expect(countBracketStrings(6, 'prefix')).toBe(20n);
  });

  it('should match the closed forms k^(T/2)·Catalan(T/2) and C(T, floor(T/2)) exactly, beyond 2^53', () => {
    for (const T of [2, 10, 40, 64, 100]) {
      for (const k of [1, 2, 3] as const)
        expect(countBracketStrings(T, 'balanced', k)).toBe(
          BigInt(k) ** BigInt(T / 2) * catalan(T / 2),
        );
    }
    for (const T of [2, 3, 17, 64, 101])
      expect(countBracketStrings(T, 'prefix')).toBe(binomial(T, Math.floor(T / 2)));
    expect(countBracketStrings(64, 'balanced', 3) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('should equal a brute-force count of all (2k)^T strings', () => {
    const cases: Array<[number, BracketTypes]> = [
      [2, 1],
      [3, 1],
      [6, 1],
      [9, 1],
      [12, 1],
      [4, 2],
      [7, 2],
      [8, 2],
      [5, 3],
      [6, 3],
    ];
    for (const [T, k] of cases) {
      for (const mode of ['balanced', 'prefix'] as const) {
        if (mode === 'balanced' && T % 2 === 1) continue;
        const reference = bruteForce(T, mode, k);
        expect(countBracketStrings(T, mode, k)).toBe(BigInt(reference.length));
        const listed = enumerateBracketStrings(T, mode, k);
        expect(new Set(listed).size).toBe(listed.length);
        expect([...listed].sort()).toEqual([...reference].sort());
      }
    }
  });
});

describe('enumerateBracketStrings and bracketStringAt', () => {
  it('should list strings in rank order, the order bracketStringAt unranks', () => {
    expect(enumerateBracketStrings(6)).toEqual(['((()))', '(()())', '(())()', '()(())', '()()()']);
    for (const [T, mode, k] of [
      [8, 'prefix', 2],
      [6, 'balanced', 3],
      [7, 'prefix', 1],
    ] as const) {
      const listed = enumerateBracketStrings(T, mode, k);
      listed.forEach((s, r) => expect(bracketStringAt(T, mode, k, BigInt(r))).toBe(s));
    }
    expect(bracketStringAt(4, 'balanced', 1, 1)).toBe('()()');
  });

  it('should invert bracketStringAt with bracketStringRank, also in spaces far beyond 2^53', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<[number, BracketMode, BracketTypes]>(
          [100, 'balanced', 3],
          [101, 'prefix', 2],
          [64, 'prefix', 3],
          [10, 'balanced', 1],
        ),
        fc.bigInt({ min: 0n, max: 2n ** 400n }),
        ([T, mode, k], raw) => {
          const rank = raw % countBracketStrings(T, mode, k);
          const s = bracketStringAt(T, mode, k, rank);
          expect(isValid(s, mode)).toBe(true);
          expect(s.length).toBe(T);
          expect(bracketStringRank(s, mode, k)).toBe(rank);
        },
      ),
    );
    const listed = enumerateBracketStrings(8, 'prefix', 2);
    listed.forEach((s, r) => expect(bracketStringRank(s, 'prefix', 2)).toBe(BigInt(r)));
    expect(() => bracketStringRank('(()', 'balanced', 1)).toThrow(/even T/);
    expect(() => bracketStringRank('(())((', 'balanced', 1)).toThrow(/2 bracket\(s\) left open/);
    expect(() => bracketStringRank('([])', 'prefix', 1)).toThrow(/not among the first 1 type/);
    expect(() => bracketStringRank('(]', 'prefix', 2)).toThrow(/no matching opener/);
  });

  it('should refuse spaces above the limit and ranks out of range', () => {
    expect(() => enumerateBracketStrings(16, 'prefix', 1, 1000)).toThrow(
      /12870 strings, more than the limit 1000/,
    );
    expect(() => bracketStringAt(6, 'balanced', 1, 5n)).toThrow(/\[0, 5\)/);
    expect(() => bracketStringAt(6, 'balanced', 1, -1)).toThrow(/got -1/);
  });
});

describe('sampleBracketString', () => {
  const cases: Array<[number, BracketMode, BracketTypes, number]> = [
    [6, 'balanced', 1, 50_000],
    [6, 'prefix', 1, 50_000],
    [6, 'balanced', 2, 50_000],
    [6, 'prefix', 2, 60_000],
    [5, 'prefix', 3, 60_000],
  ];
  it.each(cases)(
    'should be uniform over every typed string (T = %i, %s, %i type(s), chi-square)',
    (T, mode, k, n) => {
      const space = enumerateBracketStrings(T, mode, k);
      const chi2 = chiSquare(
        (rng) => sampleBracketString(T, mode, k, rng),
        space,
        n,
        1000 + T * 10 + k,
      );
      expect(chi2).toBeLessThan(chiBound(space.length - 1));
    },
  );

  it('should make the chi-square test fail for a plausible but non-uniform sampler', () => {
    // Untyped shape uniform, then one type per *pair*: prefixes with unclosed openers get too little mass.
    const space = enumerateBracketStrings(6, 'prefix', 2);
    const naive = (rng: Rng): string => {
      const shape = sampleBracketString(6, 'prefix', 1, rng);
      const stack: string[] = [];
      let out = '';
      for (const c of shape) {
        if (c === '(') {
          const p = PAIRS[rng.nextInt(2)]!;
          stack.push(p[1]!);
          out += p[0];
        } else out += stack.pop();
      }
      return out;
    };
    expect(chiSquare(naive, space, 60_000, 5)).toBeGreaterThan(10 * chiBound(space.length - 1));
  });

  it('should be deterministic under a seed and produce valid strings of length T for long T', () => {
    const a = createRng(9);
    const b = createRng(9);
    for (let i = 0; i < 50; i++) {
      const s = sampleBracketString(200, 'balanced', 3, a);
      expect(sampleBracketString(200, 'balanced', 3, b)).toBe(s);
      expect(s.length).toBe(200);
      expect(isValid(s, 'balanced')).toBe(true);
    }
    expect(isValid(sampleBracketString(33, 'prefix', 2, a), 'prefix')).toBe(true);
  });

  it('should reject bad specs with DATASET_INVALID_ARGUMENT naming the value', () => {
    const rng = createRng(0);
    const bad: Array<[unknown, unknown, unknown, RegExp]> = [
      [7, 'balanced', 1, /even T, got T = 7/],
      [1, 'prefix', 1, /T must be an integer in \[2, 1024\], got 1/],
      [8.5, 'prefix', 1, /got 8.5/],
      [8, 'dyck', 1, /mode.*"dyck"/],
      [8, 'balanced', 4, /types must be 1, 2 or 3.*got 4/],
      [8, 'balanced', 0, /got 0/],
    ];
    for (const [T, mode, types, pattern] of bad) {
      for (const call of [
        () => countBracketStrings(T as number, mode as BracketMode, types as BracketTypes),
        () => sampleBracketString(T as number, mode as BracketMode, types as BracketTypes, rng),
        () => enumerateBracketStrings(T as number, mode as BracketMode, types as BracketTypes),
      ]) {
        let caught: unknown;
        try {
          call();
        } catch (error) {
          caught = error;
        }
        expect(isDatasetError(caught, 'DATASET_INVALID_ARGUMENT'), String(caught)).toBe(true);
        expect((caught as Error).message).toMatch(pattern);
      }
    }
  });
});
