import { describe, expect, it } from 'vitest';
import {
  boltzmannDistribution,
  causalBoltzmann,
  causalBatch,
  causalBoltzmannAsync,
  correlations,
  createIsingBatch,
  createRng,
  energies,
  estimateBatch,
  estimateExact,
  estimateExactAsync,
  estimateTransferMatrix,
  exactSampler,
  logPartition,
  magnetizations,
  sampleExact,
} from './index.js';
import { codeOf } from './testing/thrownErrors.js';

interface Model {
  readonly name: string;
  readonly h: readonly number[];
  /** Strict upper triangle, row-major: J01, J02, …, J12, … */
  readonly upper?: readonly number[];
  readonly beta?: number;
}

function couplingsOf(n: number, upper: readonly number[] = []): Float64Array {
  const J = new Float64Array(n * n);
  let t = 0;
  for (let j = 0; j < n; j++) for (let k = j + 1; k < n; k++) J[j * n + k] = upper[t++] ?? 0;
  return J;
}

/**
 * Brute force, term by term: `−βE(s)` of every state, then log-sum-exp with the largest
 * subtracted. `undefined` when some `−βE(s)` itself is not a finite float64.
 */
function reference(h: Float64Array, J: Float64Array, beta: number) {
  const n = h.length;
  const logW: number[] = [];
  const energy: number[] = [];
  for (let s = 0; s < 2 ** n; s++) {
    const spin = (j: number) => ((s >> j) & 1 ? 1 : -1);
    let e = 0;
    for (let j = 0; j < n; j++) e -= h[j]! * spin(j);
    for (let j = 0; j < n; j++)
      for (let k = j + 1; k < n; k++) e -= J[j * n + k]! * spin(j) * spin(k);
    energy.push(e);
    logW.push(-beta * e);
  }
  if (!logW.every(Number.isFinite)) return undefined;
  const top = Math.max(...logW);
  const w = logW.map((v) => Math.exp(v - top));
  const z = w.reduce((a, b) => a + b, 0);
  const m = Array.from({ length: n }, (_, j) =>
    w.reduce((acc, x, s) => acc + (x / z) * ((s >> j) & 1 ? 1 : -1), 0),
  );
  return { energy, logZ: top + Math.log(z), p: w.map((x) => x / z), m };
}

const MODELS: readonly Model[] = [
  { name: 'h = 1e300', h: [1e300, -2e299, 0] },
  { name: 'three tied ground states at 1e306', h: [1e306, -1e306], upper: [1e306] },
  { name: 'h = 1e306 with J = 1e306', h: [1e306, 5e305, -1e306], upper: [1e306, -1e306, 2e305] },
  { name: 'beta = 1e300, O(1) model', h: [1, -0.5, 0.25], upper: [0.5, -0.25, 0.125], beta: 1e300 },
  { name: 'h = 1e308', h: [1e308, 0] },
  { name: 'h = -1e308', h: [-1e308, 0] },
  { name: 'h = 1e308 and -1e308', h: [1e308, -1e308] },
  { name: 'h = 1.7e308', h: [1.7e308] },
  { name: 'J = 1e308', h: [1, 0.5], upper: [1e308] },
  { name: 'J = -1e308 with h = 1e308', h: [1e308, 0.5, 0], upper: [-1e308, 0, 1e308] },
  { name: 'beta = 1e300, h = 1e10', h: [1e10, -1], beta: 1e300 },
  { name: 'beta = 1e308, J = 10', h: [0, 0], upper: [10], beta: 1e308 },
];

const close = (a: number, b: number) =>
  Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));

/** Runs `run`; the answer must be all finite and `check` must pass, or it must throw ISING_NOT_FINITE. */
function finiteOrRefused<T>(
  label: string,
  run: () => T,
  values: (r: T) => ArrayLike<number>,
  check: (r: T) => void,
): 'ok' | 'refused' {
  let result: T;
  try {
    result = run();
  } catch (e) {
    expect((e as { code?: string }).code, `${label}: ${String(e)}`).toBe('ISING_NOT_FINITE');
    expect(String(e)).toMatch(/float64|overflow/);
    return 'refused';
  }
  expect(Array.from(values(result)).every(Number.isFinite), `${label}: every value finite`).toBe(
    true,
  );
  check(result);
  return 'ok';
}

/** Checks one model with every single-model helper against the brute-force reference. */
function checkModel({ name, h: hs, upper, beta = 1 }: Model): void {
  const n = hs.length;
  const h = Float64Array.from(hs);
  const J = couplingsOf(n, upper);
  const ref = reference(h, J, beta);
  const outcomes = [
    finiteOrRefused(
      `${name}: energies`,
      () => energies(h, J),
      (e) => e,
      (e) => {
        const r = reference(h, J, 1)!;
        for (let s = 0; s < e.length; s++) expect(close(e[s]!, r.energy[s]!)).toBe(true);
      },
    ),
    finiteOrRefused(
      `${name}: logPartition`,
      () => [logPartition(h, J, { beta })],
      (v) => v,
      ([v]) => {
        if (ref) expect(close(v!, ref.logZ), `${v} vs ${ref.logZ}`).toBe(true);
      },
    ),
    finiteOrRefused(
      `${name}: magnetizations`,
      () => magnetizations(h, J, { beta }),
      (m) => m,
      (m) => {
        if (ref) m.forEach((v, j) => expect(close(v, ref.m[j]!)).toBe(true));
      },
    ),
    finiteOrRefused(
      `${name}: boltzmannDistribution`,
      () => boltzmannDistribution(h, J, { beta }),
      (p) => p,
      (p) => {
        if (ref) p.forEach((v, s) => expect(close(v, ref.p[s]!)).toBe(true));
      },
    ),
    finiteOrRefused(
      `${name}: correlations`,
      () => correlations(h, J, { beta }),
      (c) => c,
      () => {},
    ),
    finiteOrRefused(
      `${name}: sampleExact`,
      () => sampleExact(h, J, 16, createRng(1), { beta }).states,
      (s) => s,
      () => {},
    ),
  ];
  // Below the documented range every helper answers; it never answers with NaN.
  if (
    ref !== undefined &&
    Math.max(1, beta) * [...hs, ...(upper ?? [])].reduce((a, v) => a + Math.abs(v), 0) < 1e307
  )
    expect(outcomes.slice(1), name).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
}

describe('exact helpers at huge fields, couplings and beta: exact or a coded refusal, never NaN', () => {
  it('every single-model helper, from 1e300 (answered exactly) to 1.7e308', () => {
    for (const model of MODELS) checkModel(model);
  });

  it('the batch entry points (sync, async, threads, causal op, exact sampler, transfer matrix) refuse too', async () => {
    const fields = Float64Array.of(1e308, 0, -0.5, 1e308);
    const J = couplingsOf(2, [0.25]);
    const batch = createIsingBatch({ fields, couplings: J, spins: [2, 2], stride: 2 });
    const shape = { batch: 1, length: 2 };
    const codes = [
      await codeOf(() => estimateExact(batch)),
      await codeOf(() => estimateExact(batch, { threads: 2 })),
      await codeOf(() => estimateExactAsync(batch, { threads: 2 })),
      await codeOf(() => estimateExactAsync(batch, { threads: 1 })),
      await codeOf(() => causalBoltzmann(fields, J, shape)),
      await codeOf(() => causalBoltzmannAsync(fields, J, shape)),
      await codeOf(() => estimateBatch(exactSampler.create(), batch)),
      await codeOf(() => estimateTransferMatrix(batch, { bandwidth: 1 })),
      // A coupling of 1e308 with O(1) fields: the transfer matrix returned NaN here.
      await codeOf(() =>
        estimateTransferMatrix(
          causalBatch(Float64Array.of(1, 0, 1, 1), couplingsOf(2, [1e308]), shape),
          {
            bandwidth: 1,
          },
        ),
      ),
    ];
    expect(codes).toEqual(Array(codes.length).fill('ISING_NOT_FINITE'));
  });

  it('a VJP whose gradient would overflow is refused rather than NaN', () => {
    const batch = createIsingBatch({
      fields: Float64Array.of(1, -1),
      couplings: couplingsOf(2, [0.5]),
      spins: [2],
      stride: 2,
      beta: 1e300,
    });
    const est = estimateExact(batch);
    expect(Array.from(est.magnetization).every(Number.isFinite)).toBe(true);
    let outcome: string;
    try {
      const g = est.vjp(Float64Array.of(1e300, -1e300));
      outcome = [...g.fields, ...g.couplings].every(Number.isFinite) ? 'finite' : 'NaN';
    } catch (e) {
      outcome = (e as { code?: string }).code ?? 'uncoded';
    }
    expect(outcome).toBe('ISING_NOT_FINITE');
  });
});
