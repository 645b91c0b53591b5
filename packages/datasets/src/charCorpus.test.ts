import { createRng } from '@boltzmann/ising-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createCharCorpus,
  createCharVocab,
  fixedWindows,
  isDatasetError,
  sampleWindows,
} from './index.js';

const TEXT =
  'First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n';

function expectCode(fn: () => unknown, code: string, pattern?: RegExp): void {
  try {
    fn();
  } catch (error) {
    expect(isDatasetError(error), String(error)).toBe(true);
    expect((error as { code: string }).code).toBe(code);
    if (pattern) expect((error as Error).message).toMatch(pattern);
    return;
  }
  throw new Error(`expected a DatasetError ${code}`);
}

describe('createCharVocab', () => {
  it('should list the distinct characters sorted by code point', () => {
    const vocab = createCharVocab('banana!');
    expect(vocab.chars).toEqual(['!', 'a', 'b', 'n']);
    expect(vocab.size).toBe(4);
    expect(vocab.idOf('n')).toBe(3);
    expect(vocab.idOf('z')).toBe(-1);
  });

  it('should round-trip any text over its own alphabet', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'grapheme' }), (text) => {
        const vocab = createCharVocab(text);
        const ids = vocab.encode(text);
        expect(ids.length).toBe([...text].length);
        expect(vocab.decode(ids)).toBe(text);
        for (const id of ids) expect(id >= 0 && id < vocab.size).toBe(true);
        for (let i = 1; i < vocab.size; i++)
          expect(vocab.chars[i - 1]!.codePointAt(0)! < vocab.chars[i]!.codePointAt(0)!).toBe(true);
      }),
    );
  });

  it('should reject unknown characters, bad ids and empty text with a coded error', () => {
    const vocab = createCharVocab('abc');
    expectCode(() => vocab.encode('abz'), 'DATASET_INVALID_ARGUMENT', /"z" at code point index 2/);
    expectCode(() => vocab.decode([0, 3]), 'DATASET_INVALID_ARGUMENT', /id 3 at index 1/);
    expectCode(() => vocab.decode([0.5]), 'DATASET_INVALID_ARGUMENT', /id 0.5/);
    expectCode(() => createCharVocab(''), 'DATASET_INVALID_ARGUMENT', /non-empty/);
  });

  it('should count code points, not UTF-16 units, after an astral character (the slower path)', () => {
    const vocab = createCharVocab('ab\u{1F600}');
    expect([...vocab.encode('ba\u{1F600}ab')]).toEqual([1, 0, 2, 0, 1]);
    expectCode(
      () => vocab.encode('ab\u{1F600}az'),
      'DATASET_INVALID_ARGUMENT',
      /"z" at code point index 4/,
    );
    // A lone surrogate is a character of its own, as the string iterator reads it.
    const lone = createCharVocab('a\ud800');
    expect([...lone.encode('\ud800a')]).toEqual([1, 0]);
  });
});

describe('createCharCorpus', () => {
  it('should put the first floor(0.9 n) characters in train and the rest in validation', () => {
    const corpus = createCharCorpus(TEXT);
    const cut = Math.floor(0.9 * TEXT.length);
    expect(corpus.train.length).toBe(cut);
    expect(corpus.vocab.decode(corpus.train)).toBe(TEXT.slice(0, cut));
    expect(corpus.vocab.decode(corpus.validation)).toBe(TEXT.slice(cut));
    expect(createCharCorpus(TEXT, { trainFraction: 0.5 }).train.length).toBe(
      Math.floor(TEXT.length / 2),
    );
  });

  it('should sample windows whose targets are the inputs shifted by one character', () => {
    const corpus = createCharCorpus(TEXT);
    const T = 7;
    const batch = corpus.sampleBatch('train', 50, T, createRng(3));
    expect(batch.inputs.length).toBe(50 * T);
    expect(batch.targets.length).toBe(50 * T);
    const train = corpus.vocab.decode(corpus.train);
    for (let b = 0; b < 50; b++) {
      const s = batch.starts[b]!;
      expect(s >= 0 && s + T + 1 <= corpus.train.length).toBe(true);
      expect(corpus.vocab.decode(batch.inputs.subarray(b * T, (b + 1) * T))).toBe(
        train.slice(s, s + T),
      );
      expect(corpus.vocab.decode(batch.targets.subarray(b * T, (b + 1) * T))).toBe(
        train.slice(s + 1, s + T + 1),
      );
    }
  });

  it('should draw the window start uniformly over every admissible offset', () => {
    const tokens = Int32Array.from({ length: 12 }, (_, i) => i);
    const T = 3; // starts 0..8
    const n = 45_000;
    const counts = new Array<number>(9).fill(0);
    const batch = sampleWindows(tokens, n, T, createRng(11));
    for (const s of batch.starts) counts[s]!++;
    const expected = n / 9;
    const chi2 = counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
    // df = 8: mean 8, sd 4; 40 is far in the tail yet far below what a biased sampler gives.
    expect(chi2).toBeLessThan(40);
    expect(Math.min(...counts)).toBeGreaterThan(0);
  });

  it('should give the same validation windows for the same (T, count, seed) and others for another seed', () => {
    const corpus = createCharCorpus(TEXT.repeat(20));
    const a = corpus.validationWindows(8, 32, 1234);
    const b = corpus.validationWindows(8, 32, 1234);
    const c = corpus.validationWindows(8, 32, 1235);
    expect(a.inputs).toEqual(b.inputs);
    expect(a.targets).toEqual(b.targets);
    expect(a.starts).not.toEqual(c.starts);
    expect(fixedWindows(corpus.validation, 8, 32, 1234).starts).toEqual(a.starts);
    for (const s of a.starts) expect(s + 9 <= corpus.validation.length).toBe(true);
  });

  it('should reject bad splits, sizes, T and rng with a coded error naming the value', () => {
    const corpus = createCharCorpus(TEXT);
    const rng = createRng(0);
    expectCode(
      () => corpus.sampleBatch('test' as 'train', 4, 4, rng),
      'DATASET_INVALID_ARGUMENT',
      /"test"/,
    );
    expectCode(
      () => corpus.sampleBatch('train', 0, 4, rng),
      'DATASET_INVALID_ARGUMENT',
      /batchSize.*got 0/,
    );
    expectCode(
      () => corpus.sampleBatch('train', 2.5, 4, rng),
      'DATASET_INVALID_ARGUMENT',
      /batchSize.*got 2.5/,
    );
    expectCode(
      () => corpus.sampleBatch('train', 4, 0, rng),
      'DATASET_INVALID_ARGUMENT',
      /T must.*got 0/,
    );
    expectCode(
      () => corpus.sampleBatch('validation', 4, 1000, rng),
      'DATASET_INVALID_ARGUMENT',
      /T = 1000 needs at least 1001/,
    );
    expectCode(
      () => corpus.sampleBatch('train', 4, 4, {} as never),
      'DATASET_INVALID_ARGUMENT',
      /rng/,
    );
    expectCode(
      () => corpus.validationWindows(4, 4, Number.NaN),
      'DATASET_INVALID_ARGUMENT',
      /seed.*NaN/,
    );
    expectCode(
      () => createCharCorpus(TEXT, { trainFraction: 1 }),
      'DATASET_INVALID_ARGUMENT',
      /trainFraction/,
    );
    expectCode(() => createCharCorpus('abc'), 'DATASET_INVALID_ARGUMENT', /shorter than 2/);
  });
});
