import { afterEach, describe, expect, it } from 'vitest';
import { matvec, matvecAndSquares } from './denseMatvec.js';
import { DenseProducts, useWasmMatvec } from './wasmMatvec.js';

const matrix = (stride: number, seed: number): Float64Array =>
  Float64Array.from({ length: stride * stride }, (_, i) => Math.sin(seed * 7.1 + i * 1.3));

describe('wasm dense products', () => {
  afterEach(() => void useWasmMatvec(true));

  it('run in wasm here and equal the JavaScript kernels to rounding for every n up to the stride (odd, even, n = stride)', () => {
    expect(useWasmMatvec(true)).toBe(true);
    const stride = 13;
    const sym = matrix(stride, 1);
    const products = new DenseProducts(sym, stride, stride);
    const x = Float64Array.from({ length: stride }, (_, i) => Math.cos(i));
    const y = Float64Array.from({ length: stride }, (_, i) => 1 - 0.5 * Math.sin(i) ** 2);
    for (let n = 1; n <= stride; n++) {
      const [a, b, c, d, e] = [0, 0, 0, 0, 0].map(() => new Float64Array(stride).fill(-3)) as [
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
        Float64Array,
      ];
      products.matvec(n, x, a);
      products.matvecAndSquares(n, x, y, b, c);
      matvec(sym, stride, n, x, d);
      matvecAndSquares(sym, stride, n, x, y, new Float64Array(stride), e);
      for (let j = 0; j < n; j++) {
        expect(Math.abs(a[j]! - d[j]!), `n ${n} row ${j}`).toBeLessThan(1e-14);
        expect(Math.abs(b[j]! - d[j]!)).toBeLessThan(1e-14);
        expect(Math.abs(c[j]! - e[j]!)).toBeLessThan(1e-14);
      }
      for (let j = n; j < stride; j++) expect([a[j], b[j], c[j]]).toEqual([-3, -3, -3]);
    }
  });

  it('reload their matrix when another one was used in between, and fall back to JavaScript when turned off', () => {
    const [s1, s2] = [matrix(6, 2), matrix(9, 3)];
    const [p1, p2] = [new DenseProducts(s1, 6, 6), new DenseProducts(s2, 9, 9)];
    const x = Float64Array.from({ length: 9 }, (_, i) => i - 4);
    const [o1, o2, r1, r2] = [
      new Float64Array(6),
      new Float64Array(9),
      new Float64Array(6),
      new Float64Array(9),
    ];
    matvec(s1, 6, 5, x, r1);
    matvec(s2, 9, 9, x, r2);
    for (let round = 0; round < 2; round++) {
      p1.matvec(5, x, o1);
      p2.matvec(9, x, o2);
      for (let j = 0; j < 5; j++) expect(Math.abs(o1[j]! - r1[j]!)).toBeLessThan(1e-13);
      for (let j = 0; j < 9; j++) expect(Math.abs(o2[j]! - r2[j]!)).toBeLessThan(1e-13);
    }
    expect(useWasmMatvec(false)).toBe(false);
    p1.matvec(5, x, o1);
    expect(Array.from(o1.subarray(0, 5))).toEqual(Array.from(r1.subarray(0, 5)));
  });
});
