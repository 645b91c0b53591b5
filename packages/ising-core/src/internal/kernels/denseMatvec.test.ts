import { describe, expect, it } from 'vitest';
import { matvec, matvecAndSquares } from './denseMatvec.js';

describe('dense matvec kernels', () => {
  it('equal the plain row loops bit for bit on every block size 1..9 of a larger stride', () => {
    const stride = 11;
    const sym = Float64Array.from({ length: stride * stride }, (_, i) => Math.sin(7 * i + 0.3));
    const x = Float64Array.from({ length: stride }, (_, i) => Math.cos(3 * i));
    const y = Float64Array.from({ length: stride }, (_, i) => 1 - Math.sin(i) ** 2);
    for (let n = 1; n <= 9; n++) {
      const jx = new Float64Array(stride).fill(-7);
      const jx2 = new Float64Array(stride).fill(-7);
      const wy = new Float64Array(stride).fill(-7);
      matvec(sym, stride, n, x, jx);
      matvecAndSquares(sym, stride, n, x, y, jx2, wy);
      for (let j = 0; j < n; j++) {
        let s = 0;
        let t = 0;
        for (let k = 0; k < n; k++) {
          s += sym[j * stride + k]! * x[k]!;
          t += sym[j * stride + k]! * sym[j * stride + k]! * y[k]!;
        }
        expect(jx[j]).toBe(s);
        expect(jx2[j]).toBe(s);
        expect(wy[j]).toBe(t);
      }
      for (let j = n; j < stride; j++) expect([jx[j], jx2[j], wy[j]]).toEqual([-7, -7, -7]);
    }
  });
});
