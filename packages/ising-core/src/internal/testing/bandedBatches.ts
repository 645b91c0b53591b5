import { expect } from 'vitest';
import { createIsingBatch, createRng, floorScaledInt } from '../../index.js';
import type { IsingBatch, Rng } from '../../index.js';

// Test helpers of the transfer-matrix tests (transferMatrix*.test.ts): banded random problems and
// an entry-wise closeness check. Not part of the public API (only the package's own tests import it).

/** A stride × stride coupling matrix with random entries in the band `0 < k − j ≤ w`, zero elsewhere. */
export function bandedCouplings(rng: Rng, stride: number, w: number, scale: number): Float64Array {
  const couplings = new Float64Array(stride * stride);
  for (let j = 0; j < stride; j++)
    for (let k = j + 1; k <= Math.min(j + w, stride - 1); k++)
      couplings[j * stride + k] = rng.normal() * scale;
  return couplings;
}

/** |a − b| ≤ tol · max(1, |b|) at every used entry, with a message naming the first miss. */
export function expectClose(
  actual: Float64Array,
  expected: Float64Array,
  tol: number,
  what: string,
  used: (i: number) => boolean = () => true,
): void {
  for (let i = 0; i < expected.length; i++) {
    if (!used(i)) continue;
    const a = actual[i]!;
    const b = expected[i]!;
    expect(Math.abs(a - b), `${what}[${i}]: got ${a}, reference ${b}`).toBeLessThanOrEqual(
      tol * Math.max(1, Math.abs(b)),
    );
  }
}

/** Two problems (n spins and a shorter prefix) with banded couplings, fields of scale `fieldScale`. */
export function randomBanded(
  seed: number,
  n: number,
  w: number,
  fieldScale: number,
  couplingScale: number,
  beta: number,
): IsingBatch {
  const rng = createRng(seed);
  const spins = [n, 1 + floorScaledInt(rng, n)];
  const fields = Float64Array.from({ length: 2 * n }, () => (2 * rng.next() - 1) * fieldScale);
  return createIsingBatch({
    fields,
    couplings: bandedCouplings(rng, n, w, couplingScale),
    spins,
    stride: n,
    beta,
  });
}
