import { createRng } from '@boltzmann/ising-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bracketTask,
  bracketVocab,
  encodeBracketStrings,
  enumerateBracketStrings,
  isDatasetError,
  isHeldOutBracketString,
  matchBrackets,
  sampleBracketString,
} from './index.js';
import type { BracketBatch, BracketMode, BracketTypes } from './index.js';

// Reference matcher: scan left from each closer, counting depth, until the depth returns to 0.
function referenceMatch(s: string): number[] {
  const closers = ')]}';
  return [...s].map((c, p) => {
    if (!closers.includes(c)) return -1;
    let depth = 0;
    for (let q = p; q >= 0; q--) {
      depth += closers.includes(s[q]!) ? 1 : -1;
      if (depth === 0) return q;
    }
    return -2;
  });
}

function checkBatch(batch: BracketBatch, types: BracketTypes): void {
  const vocab = bracketVocab(types);
  const { T } = batch;
  let closing = 0;
  batch.strings.forEach((s, b) => {
    expect([...batch.tokens.subarray(b * T, (b + 1) * T)].map((id) => vocab[id]).join('')).toBe(s);
    const ref = referenceMatch(s);
    expect([...batch.targets.subarray(b * T, (b + 1) * T)]).toEqual(ref);
    expect([...batch.mask.subarray(b * T, (b + 1) * T)]).toEqual(ref.map((r) => (r >= 0 ? 1 : 0)));
    closing += ref.filter((r) => r >= 0).length;
  });
  expect(batch.closingCount).toBe(closing);
}

describe('matchBrackets and encodeBracketStrings', () => {
  it('should agree with a depth-scan reference on random valid strings of every mode and type count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom<BracketMode>('balanced', 'prefix'),
        fc.constantFrom<BracketTypes>(1, 2, 3),
        fc.integer(),
        (half, mode, types, seed) => {
          const T = mode === 'balanced' ? 2 * half : half + 1;
          const rng = createRng(seed);
          const strings = Array.from({ length: 3 }, () => sampleBracketString(T, mode, types, rng));
          expect([...matchBrackets(strings[0]!)]).toEqual(referenceMatch(strings[0]!));
          checkBatch(encodeBracketStrings(strings), types);
        },
      ),
    );
  });

  it('should give the documented tokens, targets and mask', () => {
    const batch = encodeBracketStrings(['(())', '()()']);
    expect([...batch.tokens]).toEqual([0, 0, 1, 1, 0, 1, 0, 1]);
    expect([...batch.targets]).toEqual([-1, -1, 1, 0, -1, 0, -1, 2]);
    expect([...batch.mask]).toEqual([0, 0, 1, 1, 0, 1, 0, 1]);
    expect([...matchBrackets('([]){}(')]).toEqual([-1, -1, 1, 0, -1, 4, -1]);
    expect(bracketVocab(3)).toEqual(['(', ')', '[', ']', '{', '}']);
  });

  it('should reject invalid strings and batches with DATASET_INVALID_ARGUMENT', () => {
    for (const [input, pattern] of [
      ['(]', /closing "\]" at position 1/],
      ['())', /closing "\)" at position 2/],
      ['(a)', /"a" at position 1/],
    ] as const) {
      expect(() => matchBrackets(input)).toThrow(pattern);
    }
    expect(() => encodeBracketStrings([])).toThrow(/non-empty array/);
    expect(() => encodeBracketStrings(['()', '(())'])).toThrow(/string 1 .* length 2/);
    let caught: unknown;
    try {
      bracketVocab(5 as BracketTypes);
    } catch (error) {
      caught = error;
    }
    expect(isDatasetError(caught, 'DATASET_INVALID_ARGUMENT')).toBe(true);
  });
});

describe('bracketTask', () => {
  it('should hold out by FNV-1a: known hash values decide the split', () => {
    // FNV-1a 32-bit reference values: "" → 0x811c9dc5 (2166136261, ≡ 1 mod 5), "a" → 0xe40c292c (3826002220, ≡ 0).
    expect(isHeldOutBracketString('')).toBe(false);
    expect(isHeldOutBracketString('a')).toBe(true);
    const all = enumerateBracketStrings(16, 'prefix');
    const share = all.filter(isHeldOutBracketString).length / all.length;
    expect(share).toBeGreaterThan(0.18);
    expect(share).toBeLessThan(0.22);
  });

  it('should test on exactly the held-out strings when the space is enumerable, whatever the seed', () => {
    for (const [T, mode, types] of [
      [8, 'balanced', 1],
      [16, 'prefix', 1],
      [8, 'prefix', 2],
    ] as const) {
      const all = enumerateBracketStrings(T, mode, types);
      const heldOut = all.filter(isHeldOutBracketString);
      const a = bracketTask({ T, mode, types, seed: 1 });
      const b = bracketTask({ T, mode, types, seed: 2 });
      expect(a.enumerated).toBe(true);
      expect(a.test.strings).toEqual(heldOut);
      expect(b.test.strings).toEqual(heldOut);
      expect(a.trainCount).toBe(all.length - heldOut.length);
      expect(a.totalCount).toBe(BigInt(all.length));
      checkBatch(a.test, types);
    }
  });

  it('should never train on a held-out string and draw the training strings uniformly', () => {
    const T = 8;
    const train = enumerateBracketStrings(T, 'prefix').filter((s) => !isHeldOutBracketString(s));
    const task = bracketTask({ T, mode: 'prefix', seed: 3 });
    const counts = new Map(train.map((s) => [s, 0]));
    const n = 30_000;
    for (let i = 0; i < n / 100; i++) {
      const batch = task.nextBatch(100);
      if (i < 5) checkBatch(batch, 1);
      for (const s of batch.strings) {
        const c = counts.get(s);
        expect(c, `drew the held-out or invalid string ${s}`).toBeDefined();
        counts.set(s, c! + 1);
      }
    }
    const expected = n / train.length;
    let chi2 = 0;
    for (const c of counts.values()) chi2 += (c - expected) ** 2 / expected;
    const df = train.length - 1;
    expect(chi2).toBeLessThan(df + 6 * Math.sqrt(2 * df) + 10);
  });

  it('should sample a fixed, distinct, held-out test set when the space is too large, independent of the training seed', () => {
    const options = { T: 24, mode: 'prefix' as const, types: 2 as const, testSize: 300 };
    const a = bracketTask({ ...options, seed: 1 });
    const b = bracketTask({ ...options, seed: 99 });
    const c = bracketTask({ ...options, seed: 1, testSeed: 5 });
    expect(a.enumerated).toBe(false);
    expect(a.trainCount).toBeUndefined();
    expect(a.test.batchSize).toBe(300);
    expect(new Set(a.test.strings).size).toBe(300);
    expect(a.test.strings.every(isHeldOutBracketString)).toBe(true);
    expect(b.test.strings).toEqual(a.test.strings);
    expect(c.test.strings).not.toEqual(a.test.strings);
    checkBatch(a.test, 2);
    for (let i = 0; i < 20; i++)
      expect(a.nextBatch(64).strings.some(isHeldOutBracketString)).toBe(false);
  });

  it('should reproduce its stream from a seed and resume from a saved state', () => {
    const a = bracketTask({ T: 12, mode: 'balanced', types: 3, seed: 4 });
    const b = bracketTask({ T: 12, mode: 'balanced', types: 3, seed: 4 });
    expect(a.nextBatch(16).strings).toEqual(b.nextBatch(16).strings);
    const state = a.saveState();
    const next = a.nextBatch(16).strings;
    b.restoreState(state);
    expect(b.nextBatch(16).strings).toEqual(next);
    expect(a.vocab).toEqual(['(', ')', '[', ']', '{', '}']);
  });

  it('should reject bad options and spaces whose train or test side is empty', () => {
    const bad: Array<[object, RegExp]> = [
      [{ T: 2 }, /1 string\(s\), [01] held out/],
      [{ T: 9 }, /even T, got T = 9/],
      [{ T: 8, types: 4 }, /types must be 1, 2 or 3/],
      [{ T: 8, seed: Number.NaN }, /seed must be a finite number, got NaN/],
      [{ T: 8, testSize: 0 }, /testSize/],
    ];
    for (const [options, pattern] of bad) {
      let caught: unknown;
      try {
        bracketTask(options as never);
      } catch (error) {
        caught = error;
      }
      expect(isDatasetError(caught, 'DATASET_INVALID_ARGUMENT'), String(caught)).toBe(true);
      expect((caught as Error).message).toMatch(pattern);
    }
    expect(() => bracketTask({ T: 8 }).nextBatch(0)).toThrow(/batchSize.*got 0/);
  });
});
