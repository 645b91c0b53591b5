import { codeOf } from '@boltzmann/ising-core/testing';
import { createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { sampleShots } from './index.js';

describe('sampleShots', () => {
  it('should merge repeats into weights, in index order, with ±1 spins', () => {
    const set = sampleShots(Float64Array.of(0, 0.25, 0, 0.75), 2, 1000, createRng(2));
    expect(set.spins).toBe(2);
    expect(Array.from(set.states)).toEqual([1, -1, 1, 1]); // index 1 = (s0 = +1, s1 = −1), index 3 = (+1, +1)
    expect(set.weights.length).toBe(2);
    expect(set.weights[0]! + set.weights[1]!).toBe(1000);
    expect(Math.abs(set.weights[1]! / 1000 - 0.75)).toBeLessThan(
      5 * Math.sqrt((0.75 * 0.25) / 1000),
    );
  });

  it('should never return a state of zero probability, even with unnormalized weights', () => {
    const set = sampleShots(Float64Array.of(3, 0, 0, 0, 0, 0, 0, 1), 3, 500, createRng(9));
    const indices = Array.from({ length: set.weights.length }, (_, r) =>
      [0, 1, 2].reduce((acc, j) => acc | (set.states[r * 3 + j] === 1 ? 1 << j : 0), 0),
    );
    expect(indices.every((s) => s === 0 || s === 7)).toBe(true);
  });

  it('should refuse bad inputs with coded errors', () => {
    const rng = createRng(1);
    expect(codeOf(() => sampleShots(Float64Array.of(0.5, 0.5), 1, 0, rng))).toBe(
      'DQA_INVALID_ARGUMENT',
    );
    expect(codeOf(() => sampleShots(Float64Array.of(0.5, 0.5), 2, 10, rng))).toBe(
      'DQA_INVALID_ARGUMENT',
    );
    expect(codeOf(() => sampleShots(Float64Array.of(0, 0), 1, 10, rng))).toBe(
      'DQA_INVALID_ARGUMENT',
    );
    expect(codeOf(() => sampleShots(Float64Array.of(-0.5, 1.5), 1, 10, rng))).toBe(
      'DQA_NOT_FINITE',
    );
    expect(codeOf(() => sampleShots(Float64Array.of(Number.NaN, 1), 1, 10, rng))).toBe(
      'DQA_NOT_FINITE',
    );
  });
});
