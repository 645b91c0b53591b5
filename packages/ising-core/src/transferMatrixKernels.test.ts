import { describe, expect, it } from 'vitest';
import { causalBatch, createRng, estimateTransferMatrix } from './index.js';
import { bandedCouplings, expectClose } from './internal/testing/bandedBatches.js';
import { useWasmTransfer } from './internal/kernels/transferWasm.js';

describe('estimateTransferMatrix', () => {
  it('should run a causal batch of T = 200 at w = 4 with magnetizations in [−1, 1], and give tanh(βh) and its exact VJP at J = 0', () => {
    const T = 200;
    const rng = createRng(41);
    const fields = Float64Array.from({ length: T * T }, () => rng.normal() * 2);
    const banded = causalBatch(
      fields,
      bandedCouplings(rng, T, 4, 0.5),
      { batch: 1, length: T },
      0.9,
    );
    const est = estimateTransferMatrix(banded, { bandwidth: 4 });
    for (let q = 0; q < T; q++) {
      for (let j = 0; j <= q; j++) {
        const v = est.magnetization[q * T + j]!;
        expect(Number.isFinite(v) && Math.abs(v) <= 1, `m[${q}, ${j}] = ${v}`).toBe(true);
      }
    }
    const grad = Float64Array.from({ length: T * T }, () => rng.normal());
    const g = est.vjp(grad);
    expect(g.fields.every(Number.isFinite) && g.couplings.every(Number.isFinite)).toBe(true);

    const free = causalBatch(fields, new Float64Array(T * T), { batch: 1, length: T }, 0.9);
    const indep = estimateTransferMatrix(free, { bandwidth: 4 });
    const { fields: dh, couplings: dJ } = indep.vjp(grad);
    const beta = 0.9;
    const want = new Float64Array(T * T);
    const wantJ = new Float64Array(T * T);
    for (let q = 0; q < T; q++) {
      const at = q * T;
      for (let j = 0; j <= q; j++) {
        const m = Math.tanh(beta * fields[at + j]!);
        expect(Math.abs(indep.magnetization[at + j]! - m), `m[${q}, ${j}]`).toBeLessThan(1e-12);
        want[at + j] = beta * grad[at + j]! * (1 - m * m);
      }
      // Independent spins: β Cov(G, s_k s_l) = β (g_k (1 − m_k²) m_l + g_l (1 − m_l²) m_k).
      for (let k = 0; k <= q; k++) {
        for (let l = k + 1; l <= Math.min(k + 4, q); l++) {
          const mk = Math.tanh(beta * fields[at + k]!);
          const ml = Math.tanh(beta * fields[at + l]!);
          wantJ[k * T + l]! +=
            beta * (grad[at + k]! * (1 - mk * mk) * ml + grad[at + l]! * (1 - ml * ml) * mk);
        }
      }
    }
    expectClose(dh, want, 1e-12, '∂L/∂h at J = 0');
    expectClose(dJ, wantJ, 1e-10, '∂L/∂J at J = 0');

    // Fields of hundreds (the log-domain path): still finite, in range, and tanh(βh) at J = 0.
    const strong = Float64Array.from(fields, (h) => h * 300);
    const hard = estimateTransferMatrix(
      causalBatch(strong, bandedCouplings(rng, T, 4, 50), { batch: 1, length: T }, 0.9),
      { bandwidth: 4 },
    );
    expect(hard.magnetization.every((v) => Number.isFinite(v) && Math.abs(v) <= 1)).toBe(true);
    const hardGrad = hard.vjp(grad);
    expect(
      hardGrad.fields.every(Number.isFinite) && hardGrad.couplings.every(Number.isFinite),
    ).toBe(true);
    const saturated = estimateTransferMatrix(
      causalBatch(strong, new Float64Array(T * T), { batch: 1, length: T }, 0.9),
      { bandwidth: 4 },
    );
    for (let q = 0; q < T; q++) {
      for (let j = 0; j <= q; j++)
        expect(saturated.magnetization[q * T + j], `saturated m[${q}, ${j}]`).toBeCloseTo(
          Math.tanh(0.9 * strong[q * T + j]!),
          12,
        );
    }
  });

  it('should give the same answer with the wasm and the JavaScript kernel (threads: threadedSamplers.test.ts)', () => {
    const T = 40;
    const w = 5;
    const rng = createRng(77);
    const batch = causalBatch(
      Float64Array.from({ length: 3 * T * T }, () => rng.normal()),
      bandedCouplings(rng, T, w, 0.4),
      { batch: 3, length: T },
      1.1,
    );
    const grad = Float64Array.from({ length: 3 * T * T }, () => rng.normal());
    const runs = (): {
      m: Float64Array;
      logZ: Float64Array;
      dh: Float64Array;
      dJ: Float64Array;
    } => {
      const est = estimateTransferMatrix(batch, { bandwidth: w });
      const { fields, couplings } = est.vjp(grad);
      return { m: est.magnetization, logZ: est.logPartition, dh: fields, dJ: couplings };
    };
    try {
      const wasm = runs();
      useWasmTransfer(false);
      const js = runs();
      expectClose(js.m, wasm.m, 1e-13, 'm');
      expectClose(js.logZ, wasm.logZ, 1e-13, 'log Z');
      expectClose(js.dh, wasm.dh, 1e-13, '∂L/∂h');
      expectClose(js.dJ, wasm.dJ, 1e-12, '∂L/∂J');
    } finally {
      useWasmTransfer(true);
    }
  });
});
