import { afterAll, describe, expect, it } from 'vitest';
import { causalBoltzmann, disposeExactWorkers, magnetizations } from './index.js';
import type { CausalVariant } from './index.js';
import { randomInputs } from './internal/testing/causalInputs.js';
import { close } from './internal/testing/close.js';

// Threads and input errors: exactCausalAttentionThreadsAndErrors.test.ts.
afterAll(() => disposeExactWorkers());

describe('causalBoltzmann', () => {
  it('computes each query exactly on its causal prefix, zero above the diagonal', () => {
    const B = 2;
    const T = 6;
    const { fields, couplings } = randomInputs(1, B, T, 2, 1);
    const { magnetization, weights } = causalBoltzmann(
      fields,
      couplings,
      { batch: B, length: T },
      { beta: 0.7 },
    );
    for (let b = 0; b < B; b++) {
      for (let i = 0; i < T; i++) {
        const row = (b * T + i) * T;
        const m = magnetizations(fields.subarray(row, row + T), couplings, {
          spins: i + 1,
          beta: 0.7,
        });
        let sum = 0;
        for (let j = 0; j < T; j++) {
          if (j > i) {
            expect(magnetization[row + j]).toBe(0);
            expect(weights[row + j]).toBe(0);
            continue;
          }
          expect(magnetization[row + j]).toBeCloseTo(m[j]!, 14);
          sum += weights[row + j]!;
        }
        expect(sum).toBeCloseTo(1, 14);
        const alphaSum = Array.from(m).reduce((a, v) => a + (v + 1) / 2, 0);
        expect(weights[row]).toBeCloseTo((m[0]! + 1) / 2 / alphaSum, 14);
      }
    }
  });

  for (const variant of ['boltzmann', 'sigmoid', 'coupling'] as CausalVariant[]) {
    it(`backward equals central finite differences (${variant})`, () => {
      const B = 2;
      const T = 5;
      const beta = 1.3;
      const { fields, couplings, upstream } = randomInputs(7, B, T, 1.5, 0.8);
      const loss = (f: Float64Array, J: Float64Array) =>
        causalBoltzmann(f, J, { batch: B, length: T }, { variant, beta }).weights.reduce(
          (a, w, i) => a + w * upstream[i]!,
          0,
        );
      const grads = causalBoltzmann(
        fields,
        couplings,
        { batch: B, length: T },
        { variant, beta },
      ).backward(upstream);
      const eps = 1e-5;
      for (let i = 0; i < fields.length; i++) {
        const [i0, j] = [Math.floor(i / T) % T, i % T];
        if (j > i0) {
          expect(grads.fields[i]).toBe(0);
          continue;
        }
        const up = fields.slice();
        const down = fields.slice();
        up[i]! += eps;
        down[i]! -= eps;
        const fd = (loss(up, couplings) - loss(down, couplings)) / (2 * eps);
        expect(Math.abs(grads.fields[i]! - fd)).toBeLessThan(1e-8 + 1e-6 * Math.abs(fd));
      }
      for (let i = 0; i < T * T; i++) {
        if (Math.floor(i / T) >= i % T) {
          expect(grads.couplings[i]).toBe(0);
          continue;
        }
        const up = couplings.slice();
        const down = couplings.slice();
        up[i]! += eps;
        down[i]! -= eps;
        const fd = (loss(fields, up) - loss(fields, down)) / (2 * eps);
        expect(Math.abs(grads.couplings[i]! - fd)).toBeLessThan(1e-8 + 1e-6 * Math.abs(fd));
      }
    });
  }

  it('sigmoid equals boltzmann at J = 0 and m = tanh(βh)', () => {
    const B = 3;
    const T = 7;
    const { fields, upstream } = randomInputs(4, B, T, 4, 0);
    const zero = new Float64Array(T * T);
    const sig = causalBoltzmann(
      fields,
      zero,
      { batch: B, length: T },
      { variant: 'sigmoid', beta: 0.6 },
    );
    const boltz = causalBoltzmann(fields, zero, { batch: B, length: T }, { beta: 0.6 });
    close(sig.weights, boltz.weights, 1e-14);
    close(sig.magnetization, boltz.magnetization, 1e-14);
    for (let i = 0; i < fields.length; i++) {
      const above = i % T > Math.floor(i / T) % T;
      expect(sig.magnetization[i]).toBe(above ? 0 : Math.tanh(0.6 * fields[i]!));
    }
    close(sig.backward(upstream).fields, boltz.backward(upstream).fields, 1e-12, 1e-14);
    // Sigmoid ignores J: its forward and its J-gradient do not depend on it.
    const J = randomInputs(5, 1, T, 0, 2).couplings;
    const sigJ = causalBoltzmann(
      fields,
      J,
      { batch: B, length: T },
      { variant: 'sigmoid', beta: 0.6 },
    );
    expect(Array.from(sigJ.weights)).toEqual(Array.from(sig.weights));
    expect(sigJ.backward(upstream).couplings.every((v) => v === 0)).toBe(true);
  });

  it('coupling ignores the fields: m = 0, uniform weights, zero gradients; boltzmann at h = 0 agrees', () => {
    const B = 2;
    const T = 6;
    const { fields, couplings, upstream } = randomInputs(8, B, T, 3, 2);
    const out = causalBoltzmann(
      fields,
      couplings,
      { batch: B, length: T },
      { variant: 'coupling' },
    );
    const atZero = causalBoltzmann(new Float64Array(fields.length), couplings, {
      batch: B,
      length: T,
    });
    for (let i = 0; i < fields.length; i++) {
      const [q, j] = [Math.floor(i / T) % T, i % T];
      expect(out.magnetization[i]).toBe(0);
      expect(out.weights[i]).toBe(j <= q ? 1 / (q + 1) : 0);
      expect(Math.abs(atZero.magnetization[i]!)).toBeLessThan(1e-15);
    }
    const g = out.backward(upstream);
    expect(g.fields.every((v) => v === 0) && g.couplings.every((v) => v === 0)).toBe(true);
    close(atZero.backward(upstream).couplings, new Float64Array(T * T), 0, 1e-14);
  });

  it('stays finite and correct for huge fields (|h| = 1e3) and large couplings (|J| ~ 50)', () => {
    const T = 8;
    for (const [hs, js] of [
      [1e3, 1],
      [0.5, 50],
      [1e3, 50],
    ] as const) {
      const { fields, couplings, upstream } = randomInputs(hs + js, 2, T, hs, js);
      const out = causalBoltzmann(fields, couplings, { batch: 2, length: T });
      const g = out.backward(upstream);
      for (const arr of [out.magnetization, out.weights, g.fields, g.couplings])
        expect(arr.every(Number.isFinite)).toBe(true);
      for (let row = 0; row < 2 * T; row++) {
        const i = row % T;
        const m = magnetizations(fields.subarray(row * T, row * T + T), couplings, {
          spins: i + 1,
        });
        close(out.magnetization.subarray(row * T, row * T + i + 1), m, 1e-12, 1e-12);
      }
    }
  });

  it('gives a row whose every α underflows zero weights and zero gradient, not NaN', () => {
    const T = 3;
    const fields = Float64Array.of(-1e3, 0, 0, 0.5, 0.2, 0, -1e3, -900, -800);
    const out = causalBoltzmann(fields, new Float64Array(T * T), { batch: 1, length: T });
    expect(Array.from(out.weights.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(Array.from(out.weights.subarray(6, 9))).toEqual([0, 0, 0]);
    expect(out.weights[3]! + out.weights[4]!).toBeCloseTo(1, 15);
    const g = out.backward(Float64Array.from({ length: 9 }, (_, i) => i + 1));
    expect(Array.from(g.fields.subarray(6, 9))).toEqual([0, 0, 0]);
    expect(g.fields[3]).not.toBe(0);
    expect(g.fields.every(Number.isFinite) && g.couplings.every(Number.isFinite)).toBe(true);
  });

  it('accepts Float32Array inputs', () => {
    const { fields, couplings, upstream } = randomInputs(12, 1, 4, 1, 1);
    const f32 = causalBoltzmann(Float32Array.from(fields), Float32Array.from(couplings), {
      batch: 1,
      length: 4,
    });
    const f64 = causalBoltzmann(
      Float64Array.from(Float32Array.from(fields)),
      Float64Array.from(Float32Array.from(couplings)),
      { batch: 1, length: 4 },
    );
    expect(Array.from(f32.weights)).toEqual(Array.from(f64.weights));
    expect(Array.from(f32.backward(Float32Array.from(upstream)).fields)).toEqual(
      Array.from(f64.backward(Float64Array.from(Float32Array.from(upstream))).fields),
    );
  });
});
