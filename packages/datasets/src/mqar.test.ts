import { thrownBy } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { mqar, mqarBatch, mqarGapWeights } from './index.js';
import type { MqarExamples } from './index.js';

/**
 * Zoology's definition, checked sequence by sequence the slow way: the pairs, then each key
 * queried once at `2n + 2g`, its target the paired value, nothing else scored, the rest filler.
 */
function checkAgainstDefinition(set: MqarExamples, V: number, randomFill: boolean): void {
  const { length: T, numKvPairs: n } = set;
  const half = Math.floor(V / 2);
  const b = mqarBatch(set);
  for (let r = 0; r < set.count; r++) {
    const row = (p: number) => b.inputs[r * T + p]!;
    const valueByKey = new Map<number, number>();
    for (let k = 0; k < n; k++) {
      const key = row(2 * k);
      const value = row(2 * k + 1);
      expect(key >= 1 && key < half, `row ${r} key ${key}`).toBe(true);
      expect(value >= half && value < V, `row ${r} value ${value}`).toBe(true);
      expect(valueByKey.has(key), `row ${r}: key ${key} twice`).toBe(false);
      expect([...valueByKey.values()].includes(value), `row ${r}: value ${value} twice`).toBe(
        false,
      );
      valueByKey.set(key, value);
    }
    const queried = new Set<number>();
    for (let p = 0; p < T; p++) {
      const scored = b.mask[r * T + p] === 1;
      const target = b.targets[r * T + p]!;
      if (!scored) {
        expect(b.mask[r * T + p]).toBe(0);
        expect(target).toBe(-1);
        if (p >= 2 * n && !randomFill) expect(row(p)).toBe(0);
        expect(row(p) >= 0 && row(p) < V).toBe(true);
        continue;
      }
      expect(p >= 2 * n && (p - 2 * n) % 2 === 0 && p <= T - 2, `row ${r} query at ${p}`).toBe(
        true,
      );
      expect(valueByKey.has(row(p)), `row ${r}: query ${row(p)} is no key of the pairs`).toBe(true);
      expect(target).toBe(valueByKey.get(row(p)));
      queried.add(row(p));
    }
    expect(queried.size).toBe(n);
    for (let k = 0; k < n; k++) expect(row(set.queryPositions[r * n + k]!)).toBe(row(2 * k));
  }
}

/** The gap slot of each query of pair 0 … `pairs − 1`, per row. */
function gapSlots(set: MqarExamples, pairs: number): number[][] {
  const n = set.numKvPairs;
  return Array.from({ length: set.count }, (_, r) =>
    Array.from({ length: pairs }, (_, k) => (set.queryPositions[r * n + k]! - 2 * n) / 2),
  );
}

/** Exact probability of an ordered draw under successive sampling from the weights left. */
function successiveProbability(weights: Float64Array, draw: readonly number[]): number {
  let left = weights.reduce((a, w) => a + w, 0);
  let p = 1;
  for (const i of draw) {
    p *= weights[i]! / left;
    left -= weights[i]!;
  }
  return p;
}

/** Pearson's χ² of observed counts against expected probabilities. */
function chiSquare(observed: Map<string, number>, expected: Map<string, number>, N: number) {
  let chi = 0;
  for (const [key, p] of expected) chi += ((observed.get(key) ?? 0) - N * p) ** 2 / (N * p);
  return chi;
}

describe('mqar', () => {
  it("should draw every sequence as Zoology's definition says", () => {
    for (const [V, T, n, fill] of [
      [64, 16, 4, true],
      [20, 32, 4, true],
      [10, 24, 4, false],
      [8192, 64, 16, true],
      [12, 16, 2, false],
    ] as const) {
      const task = mqar({
        vocabSize: V,
        length: T,
        numKvPairs: n,
        randomNonQueries: fill,
        trainExamples: 300,
        testExamples: 50,
        seed: 3,
      });
      checkAgainstDefinition(task.train, V, fill);
      checkAgainstDefinition(task.test, V, fill);
    }
  });

  it('should place the queries by successive sampling from the power law (χ² bound)', () => {
    // 4 gap slots, 3 pairs: every ordered draw (24) against its exact probability.
    for (const powerA of [0.01, 0.5, 1]) {
      const N = 24_000;
      const set = mqar({
        vocabSize: 32,
        length: 2 * 3 + 2 * 4,
        numKvPairs: 3,
        powerA,
        trainExamples: N,
        testExamples: 1,
      }).train;
      const weights = mqarGapWeights(4, powerA);
      const observed = new Map<string, number>();
      for (const g of gapSlots(set, 3)) observed.set(g.join(), (observed.get(g.join()) ?? 0) + 1);
      const expected = new Map<string, number>();
      for (let i = 0; i < 4; i++)
        for (let j = 0; j < 4; j++)
          for (let k = 0; k < 4; k++)
            if (i !== j && j !== k && i !== k)
              expected.set([i, j, k].join(), successiveProbability(weights, [i, j, k]));
      expect([...observed.keys()].every((key) => expected.has(key))).toBe(true);
      // 23 degrees of freedom: mean 23, sd 6.8; 60 is beyond the 1-in-10^6 tail.
      expect(chiSquare(observed, expected, N), `powerA ${powerA}`).toBeLessThan(60);
    }
  });

  it("should give the first query's slot the normalized power law g^(a−1) over many slots", () => {
    const N = 20_000;
    const set = mqar({
      vocabSize: 64,
      length: 2 * 2 + 2 * 32,
      numKvPairs: 2,
      trainExamples: N,
    }).train;
    const w = mqarGapWeights(32, 0.01);
    const total = w.reduce((a, x) => a + x, 0);
    // Zoology's p = a · g^(a−1) / Σ …, g = 1 … 32: the factor a cancels.
    let zoologyTotal = 0;
    for (let g = 1; g <= 32; g++) zoologyTotal += 0.01 * g ** -0.99;
    for (let g = 1; g <= 32; g++)
      expect(w[g - 1]! / total).toBeCloseTo((0.01 * g ** -0.99) / zoologyTotal, 12);
    const observed = new Map<string, number>();
    for (const [g] of gapSlots(set, 1)) observed.set(String(g), (observed.get(String(g)) ?? 0) + 1);
    const expected = new Map(Array.from(w, (x, g) => [String(g), x / total] as const));
    expect(chiSquare(observed, expected, N)).toBeLessThan(80); // 31 degrees of freedom
  });

  it('should be deterministic per seed, and draw the test set from its own stream', () => {
    const options = { vocabSize: 128, length: 32, numKvPairs: 4, trainExamples: 200 };
    const a = mqar({ ...options, testExamples: 40, seed: 5 });
    expect(mqar({ ...options, testExamples: 40, seed: 5 })).toEqual(a);
    expect(mqar({ ...options, testExamples: 40, seed: 6 }).train.inputs).not.toEqual(
      a.train.inputs,
    );
    // The test set is the stream of testSeed (default seed + 10) alone: it does not depend on
    // the training set, and the training set does not depend on it.
    const testStream = mqar({ ...options, trainExamples: 40, testExamples: 1, seed: 15 }).train;
    expect(a.test).toEqual(testStream);
    expect(mqar({ ...options, testExamples: 7, seed: 5, testSeed: 99 }).train).toEqual(a.train);
    const trainRows = new Set<string>();
    for (let r = 0; r < a.train.count; r++)
      trainRows.add(a.train.inputs.subarray(r * 32, (r + 1) * 32).join());
    for (let r = 0; r < a.test.count; r++)
      expect(trainRows.has(a.test.inputs.subarray(r * 32, (r + 1) * 32).join())).toBe(false);
  });

  it('should take the rows asked for, in order', () => {
    const set = mqar({ vocabSize: 64, length: 16, numKvPairs: 2, trainExamples: 5 }).train;
    const all = mqarBatch(set);
    const some = mqarBatch(set, [3, 0, 3]);
    expect(some.batchSize).toBe(3);
    expect(some.inputs.subarray(0, 16)).toEqual(all.inputs.subarray(48, 64));
    expect(some.targets.subarray(16, 32)).toEqual(all.targets.subarray(0, 16));
    expect(some.mask.subarray(32, 48)).toEqual(all.mask.subarray(48, 64));
    expect(thrownBy(() => mqarBatch(set, [5])).code).toBe('DATASET_INVALID_ARGUMENT');
  });

  it('should refuse impossible settings with coded errors naming the value', () => {
    const ok = { vocabSize: 64, length: 16, numKvPairs: 4, trainExamples: 2, testExamples: 2 };
    const cases: [Record<string, unknown>, string][] = [
      [{ length: 15 }, 'length must be even'],
      [{ numKvPairs: 5 }, 'at least 4 · 5 = 20'],
      [{ numKvPairs: 0 }, 'numKvPairs must be'],
      [{ vocabSize: 9 }, 'vocabSize 9 has 3 key ids'],
      [{ powerA: 0 }, 'powerA must be > 0'],
      [{ powerA: Number.NaN }, 'powerA must be a finite number'],
      [{ trainExamples: 0 }, 'trainExamples must be'],
      [{ testExamples: 1.5 }, 'testExamples must be'],
      [{ trainExamples: 2 ** 24 }, 'above 134,217,728 tokens'],
      [{ seed: 4, testSeed: 4 }, 'testSeed must differ from seed'],
      [{ randomNonQueries: 'yes' }, 'randomNonQueries must be a boolean'],
    ];
    for (const [change, message] of cases) {
      const thrown = thrownBy(() => mqar({ ...ok, ...change } as never));
      expect(thrown.code, message).toBe('DATASET_INVALID_ARGUMENT');
      expect(thrown.message).toContain(message);
    }
    expect(thrownBy(() => mqar(null as never)).message).toContain('options must be an object');
  });

  it('should draw the same first sequence for seed 0 (committed runs depend on it)', () => {
    const set = mqar({ vocabSize: 64, length: 16, numKvPairs: 3, trainExamples: 1 }).train;
    expect(Array.from(set.inputs).join(',')).toMatchInlineSnapshot(
      `"10,35,2,42,16,63,5,31,16,43,2,39,47,12,10,57"`,
    );
  });
});
