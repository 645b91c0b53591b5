import { describe, expect, it } from 'vitest';
import {
  causalBatch,
  createIsingBatch,
  createRng,
  estimateExact,
  estimateTransferMatrix,
  logPartition,
  transferMatrixSampler,
} from './index.js';
import type { BatchEstimate, IsingBatch, Rng } from './index.js';
import {
  bruteForceEstimate,
  bruteForceMoments,
  describeSamplerConformance,
  thrownBy,
} from './testing/index.js';
import { useWasmTransfer } from './internal/kernels/transferWasm.js';

/** A stride × stride coupling matrix with random entries in the band `0 < k − j ≤ w`, zero elsewhere. */
function bandedCouplings(rng: Rng, stride: number, w: number, scale: number): Float64Array {
  const couplings = new Float64Array(stride * stride);
  for (let j = 0; j < stride; j++)
    for (let k = j + 1; k <= Math.min(j + w, stride - 1); k++)
      couplings[j * stride + k] = rng.normal() * scale;
  return couplings;
}

/** |a − b| ≤ tol · max(1, |b|) at every used entry, with a message naming the first miss. */
function expectClose(
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

const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, v, i) => s + v * b[i]!, 0);

/** Two problems (n spins and a shorter prefix) with banded couplings, fields of scale `fieldScale`. */
function randomBanded(
  seed: number,
  n: number,
  w: number,
  fieldScale: number,
  couplingScale: number,
  beta: number,
): IsingBatch {
  const rng = createRng(seed);
  const spins = [n, 1 + rng.nextInt(n)];
  const fields = Float64Array.from({ length: 2 * n }, () => (2 * rng.next() - 1) * fieldScale);
  return createIsingBatch({
    fields,
    couplings: bandedCouplings(rng, n, w, couplingScale),
    spins,
    stride: n,
    beta,
  });
}

/**
 * Compares the transfer-matrix estimate with enumeration (`reference`: the brute-force one, or
 * `estimateExact` where brute force is too slow): m, log Z, ∂L/∂h, ∂L/∂J in the band and 0 outside.
 */
function expectMatchesEnumeration(
  batch: IsingBatch,
  w: number,
  seed: number,
  reference: 'brute-force' | 'exact' = 'brute-force',
): void {
  const { stride, size } = batch;
  const est = estimateTransferMatrix(batch, { bandwidth: w });
  const ref: BatchEstimate =
    reference === 'exact' ? estimateExact(batch, { threads: 1 }) : bruteForceEstimate(batch);
  const used = (i: number): boolean => i % stride < batch.spins[Math.floor(i / stride)]!;
  expectClose(est.magnetization, ref.magnetization, 1e-10, `m (w=${w})`);
  for (let q = 0; q < size; q++) {
    const { logPartition } = bruteForceMoments(
      batch.fields.subarray(q * stride),
      batch.couplings,
      batch.spins[q]!,
      batch.beta,
    );
    expect(
      Math.abs(est.logPartition[q]! - logPartition),
      `log Z of problem ${q}`,
    ).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(logPartition)));
  }
  const rng = createRng(seed + 1);
  const grad = Float64Array.from({ length: size * stride }, () => rng.normal());
  const got = est.vjp(grad);
  const want = ref.vjp(grad);
  expectClose(got.fields, want.fields, 1e-10, `∂L/∂h (w=${w})`, used);
  for (let k = 0; k < stride; k++) {
    for (let l = 0; l < stride; l++) {
      const i = k * stride + l;
      if (l > k && l - k <= w)
        expectClose(
          got.couplings.subarray(i, i + 1),
          want.couplings.subarray(i, i + 1),
          1e-10,
          `∂L/∂J[${k},${l}] (w=${w})`,
        );
      else expect(got.couplings[i], `∂L/∂J[${k},${l}] outside the band`).toBe(0);
    }
  }
}

describe('estimateTransferMatrix', () => {
  it('should equal enumeration (m, log Z, both VJP outputs to 1e-10) for every bandwidth 0..n−1, n ≤ 16', () => {
    let seed = 100;
    for (const n of [1, 2, 3, 4, 6, 9, 13, 16]) {
      for (let w = 0; w < n; w++) {
        seed++;
        const beta = seed % 2 === 0 ? 0.7 : 1.9;
        // Brute force (n² work per state) up to 9 spins, estimateExact beyond.
        expectMatchesEnumeration(
          randomBanded(seed, n, w, 2, 0.8, beta),
          w,
          seed,
          n <= 9 ? 'brute-force' : 'exact',
        );
      }
    }
  });

  it('should equal enumeration at n = 20 too (the largest size the exact sampler is fast at), for w = 2, 9 and 16 (its largest bandwidth)', () => {
    let seed = 900;
    for (const w of [2, 9, 16]) {
      seed++;
      const batch = randomBanded(seed, 20, w, 2, 0.6, 1.2);
      const est = estimateTransferMatrix(batch, { bandwidth: w });
      const ref = estimateExact(batch, { threads: 1 });
      const stride = 20;
      const used = (i: number): boolean => i % stride < batch.spins[Math.floor(i / stride)]!;
      expectClose(est.magnetization, ref.magnetization, 1e-10, `m (w=${w})`);
      for (let q = 0; q < batch.size; q++) {
        const fieldsQ = batch.fields.subarray(q * stride, q * stride + batch.spins[q]!);
        const logZ = logPartition(fieldsQ, batch.couplings, {
          spins: batch.spins[q]!,
          beta: batch.beta,
        });
        expect(
          Math.abs(est.logPartition[q]! - logZ),
          `log Z of problem ${q} (w=${w})`,
        ).toBeLessThanOrEqual(1e-10 * Math.max(1, Math.abs(logZ)));
      }
      const grad = Float64Array.from({ length: batch.size * stride }, (_, i) => Math.sin(i + w));
      const got = est.vjp(grad);
      const want = ref.vjp(grad);
      expectClose(got.fields, want.fields, 1e-10, `∂L/∂h (w=${w})`, used);
      expectClose(got.couplings, want.couplings, 1e-10, `∂L/∂J (w=${w})`, (i) => {
        const k = Math.floor(i / stride);
        const l = i % stride;
        return l > k && l - k <= w;
      });
    }
  });

  it('should stay exact for fields up to |h| = 1e3, strong couplings and β far from 1', () => {
    let seed = 500;
    for (const [n, fieldScale, couplingScale, beta] of [
      [10, 1e3, 1, 1.3],
      [12, 1e3, 3, 0.05],
      [11, 5, 2, 25],
      [9, 1e3, 1e3, 1], // past and future evidence disagree by thousands of nats
    ] as const) {
      for (const w of [0, 1, 3, n - 1]) {
        seed++;
        expectMatchesEnumeration(
          randomBanded(seed, n, w, fieldScale, couplingScale, beta),
          w,
          seed,
        );
      }
    }
  });

  it('should give the same answer with a wider bandwidth, and the true ∂L/∂J of the zero couplings it then covers', () => {
    const n = 14;
    const batch = randomBanded(7, n, 3, 1.5, 0.7, 1.1);
    const narrow = estimateTransferMatrix(batch, { bandwidth: 3 });
    const wide = estimateTransferMatrix(batch, { bandwidth: 9 });
    expectClose(wide.magnetization, narrow.magnetization, 1e-12, 'm');
    const grad = Float64Array.from({ length: batch.size * n }, (_, i) => Math.cos(i));
    expectClose(wide.vjp(grad).fields, narrow.vjp(grad).fields, 1e-12, '∂L/∂h');
    const exact = estimateExact(batch, { threads: 1 }).vjp(grad).couplings;
    const dJ = wide.vjp(grad).couplings;
    const narrowJ = narrow.vjp(grad).couplings;
    for (let k = 0; k < n; k++) {
      for (let l = k + 1; l < n; l++) {
        const i = k * n + l;
        if (l - k <= 3)
          expect(Math.abs(dJ[i]! - narrowJ[i]!), `∂L/∂J[${k},${l}] in both bands`).toBeLessThan(
            1e-12,
          );
        if (l - k <= 9)
          expect(Math.abs(dJ[i]! - exact[i]!), `∂L/∂J[${k},${l}] against enumeration`).toBeLessThan(
            1e-10,
          );
        else expect(dJ[i], `∂L/∂J[${k},${l}] outside the band`).toBe(0);
      }
    }
  });

  it('should match central finite differences of L = Σ g·m in h and in every banded J', () => {
    const n = 10;
    const w = 3;
    const rng = createRng(31);
    const base = causalBatch(
      Float64Array.from({ length: 2 * n * n }, () => rng.normal()),
      bandedCouplings(rng, n, w, 0.6),
      { batch: 2, length: n },
      1.4,
    );
    const grad = Float64Array.from({ length: base.size * n }, () => rng.normal());
    const { fields: dh, couplings: dJ } = estimateTransferMatrix(base, { bandwidth: w }).vjp(grad);
    const loss = (fields: Float64Array, couplings: Float64Array): number =>
      dot(
        estimateTransferMatrix(causalBatch(fields, couplings, { batch: 2, length: n }, 1.4), {
          bandwidth: w,
        }).magnetization,
        grad,
      );
    const eps = 1e-5;
    for (let i = 0; i < base.fields.length; i++) {
      if (i % n > Math.floor(i / n) % n) continue; // beyond the prefix: not a spin
      const plus = Float64Array.from(base.fields);
      const minus = Float64Array.from(base.fields);
      plus[i]! += eps;
      minus[i]! -= eps;
      const fd = (loss(plus, base.couplings) - loss(minus, base.couplings)) / (2 * eps);
      expect(Math.abs(fd - dh[i]!), `∂L/∂h[${i}]: fd ${fd}, vjp ${dh[i]}`).toBeLessThan(1e-7);
    }
    for (let k = 0; k < n; k++) {
      for (let l = k + 1; l <= Math.min(k + w, n - 1); l++) {
        const plus = Float64Array.from(base.couplings);
        const minus = Float64Array.from(base.couplings);
        plus[k * n + l]! += eps;
        minus[k * n + l]! -= eps;
        const fd = (loss(base.fields, plus) - loss(base.fields, minus)) / (2 * eps);
        expect(
          Math.abs(fd - dJ[k * n + l]!),
          `∂L/∂J[${k},${l}]: fd ${fd}, vjp ${dJ[k * n + l]}`,
        ).toBeLessThan(1e-7);
      }
    }
  });

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

  it('should refuse a nonzero coupling outside the band, naming (j, k) and the bandwidth', () => {
    const couplings = new Float64Array(36);
    couplings[0 * 6 + 2] = 0.5; // in band for w = 2
    couplings[1 * 6 + 4] = -0.25; // k − j = 3
    const batch = createIsingBatch({
      fields: new Float64Array(6),
      couplings,
      spins: [6],
      stride: 6,
    });
    const e = thrownBy(() => estimateTransferMatrix(batch, { bandwidth: 2 }));
    expect(e.code).toBe('ISING_INVALID_ARGUMENT');
    expect(e.message).toContain('J[1][4] = -0.25');
    expect(e.message).toContain('bandwidth 2');
    expect(
      thrownBy(() => transferMatrixSampler.create({ bandwidth: 2 }).estimate!(batch)).code,
    ).toBe('ISING_INVALID_ARGUMENT');
    // Only the block the problems use is read: a prefix of 4 spins never sees J[1][4].
    const prefix = createIsingBatch({
      fields: new Float64Array(6),
      couplings,
      spins: [4],
      stride: 6,
    });
    expect(thrownBy(() => estimateTransferMatrix(prefix, { bandwidth: 2 })).message).toBe(
      'no error',
    );
  });

  it('should default to bandwidth 8', () => {
    const n = 12;
    const couplings = new Float64Array(n * n);
    couplings[2 * n + 10] = 0.3; // k − j = 8
    const inBand = createIsingBatch({
      fields: new Float64Array(n).fill(0.1),
      couplings,
      spins: [n],
      stride: n,
    });
    expect(thrownBy(() => transferMatrixSampler.create().estimate!(inBand)).message).toBe(
      'no error',
    );
    couplings[1 * n + 10] = 0.3; // k − j = 9
    const outside = createIsingBatch({
      fields: new Float64Array(n),
      couplings,
      spins: [n],
      stride: n,
    });
    expect(thrownBy(() => estimateTransferMatrix(outside)).message).toContain(
      'J[1][10] = 0.3 lies outside bandwidth 8',
    );
  });

  it('should refuse bandwidth 17 naming the dense alternatives, and bad or unknown options', () => {
    const wide = thrownBy(() => transferMatrixSampler.create({ bandwidth: 17 }));
    expect(wide.code).toBe('ISING_INVALID_ARGUMENT');
    expect(wide.message).toMatch(/'tap'.*'mean-field'/);
    for (const bandwidth of [-1, 1.5, Number.NaN, '4']) {
      expect(
        thrownBy(() => transferMatrixSampler.create({ bandwidth } as never)).code,
        `bandwidth ${String(bandwidth)}`,
      ).toBe('ISING_INVALID_ARGUMENT');
    }
    const unknown = thrownBy(() => transferMatrixSampler.create({ bandwith: 4 } as never));
    expect(unknown.code).toBe('ISING_INVALID_ARGUMENT');
    expect(unknown.message).toContain('bandwith');
    expect(
      thrownBy(() => estimateTransferMatrix(randomBanded(1, 3, 1, 1, 1, 1), { width: 2 } as never))
        .code,
    ).toBe('ISING_INVALID_ARGUMENT');
    expect(transferMatrixSampler.create({ bandwidth: 16 }).capabilities).toEqual({
      exact: true,
      maxSpins: 4096,
      async: false,
      deterministic: true,
    });
  });

  it('should check the upstream gradient of its VJP', () => {
    const est = estimateTransferMatrix(randomBanded(3, 4, 1, 1, 1, 1), { bandwidth: 1 });
    expect(thrownBy(() => est.vjp(new Float64Array(3))).code).toBe('ISING_SHAPE_MISMATCH');
    expect(thrownBy(() => est.vjp(Float64Array.of(Number.NaN, 0, 0, 0, 0, 0, 0, 0))).code).toBe(
      'ISING_NOT_FINITE',
    );
  });
});

// Exact: held to rounding error, at the default bandwidth and at the narrowest one the B = 2, T = 4 random batch fits.
describeSamplerConformance(transferMatrixSampler, {
  tolerance: { magnetization: 1e-12, gradient: 1e-12 },
});
describeSamplerConformance(transferMatrixSampler, {
  createOptions: { bandwidth: 3 },
  tolerance: { magnetization: 1e-12, gradient: 1e-12 },
  seed: 2,
});
