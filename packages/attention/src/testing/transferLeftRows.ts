/**
 * What the transfer-matrix kernels leave to the caller (sums = −1, the row untouched) while the
 * rest of a call runs, on a {@link TransferRunner}: non-finite fields, and rows whose couplings
 * pass the bounds, against the rule itself computed here in float64 (each key's β Σ|J| over its
 * band both ways to the row's own keys within the backend's step bound, 2β Σ of those over W + 1
 * consecutive keys within its window bound: {@link TransferBounds}); natively also which rows
 * the float32 pass took and which the float64 one.
 */
import { expect } from 'vitest';
import { checkRun } from './transferChecks.js';
import type { TransferBounds, TransferCase, TransferRunner } from './transferKernels.js';

/**
 * What the kernels leave to the caller, untouched, while the rest of the call runs: rows with a
 * NaN or infinite field, and every row that has a key past the coupling bound (β Σ_b
 * |J_{t−W+b,t}| above the backend's step bound: key 6 of head 1, so its rows 6 … 11).
 */
export function checkLeftRows(run: TransferRunner, bounds: TransferBounds): void {
  const c: TransferCase = {
    batch: 3,
    heads: 2,
    length: 12,
    window: 3,
    beta: 1,
    fieldScale: 2,
    couplingScale: 0.5,
    prepare: ({ h, j }) => {
      const t = 12;
      h[3 * t + 1] = Number.NaN; // head 0's rows 3, 5, 7 (batch 0)
      h[5 * t + 4] = Number.POSITIVE_INFINITY;
      h[7 * t] = Number.NEGATIVE_INFINITY;
      j[(t + 4) * t + 6] = bounds.step + 1; // head 1: key 6's band Σ|J| past the bound
    },
  };
  const out = run(c, 77);
  const t = c.length;
  const expected = Array.from({ length: c.batch * c.heads * t }, (_, p) => {
    const head = Math.floor(p / t) % c.heads;
    return (head === 1 && p % t >= 6) || p === 3 || p === 5 || p === 7;
  });
  expect(Array.from(out.sums, (s) => s === -1)).toEqual(expected);
  expect(out.left).toBe(expected.filter(Boolean).length);
  checkRun(c, out, 'left rows');
  checkBesideOverflow(run);
}

/**
 * Rows kept beside rows whose couplings are far past every bound (uniform in ±40, W = 4: step
 * factors to e^±320, past float32's range and near float64's): what the dead lanes compute there
 * (inf, NaN) must not reach the kept rows' sums (natively they were multiplied by 0 until
 * 6 Dec 2026, which made every ∂L/∂J of such a head NaN). Every entry finite, the kept rows
 * against ising-core.
 */
function checkBesideOverflow(run: TransferRunner): void {
  const c: TransferCase = {
    batch: 3,
    heads: 1,
    length: 10,
    window: 4,
    beta: 1,
    fieldScale: 3,
    couplingScale: 40,
  };
  const out = run(c, 2);
  expect(out.left, 'rows left').toBeGreaterThan(0);
  expect(out.left, 'rows kept').toBeLessThan(c.batch * c.length);
  for (const [name, v] of Object.entries({ w: out.w, gh: out.gh, gj: out.gj }))
    expect(v.every(Number.isFinite), `${name} finite beside overflowing rows`).toBe(true);
  checkRun(c, out, 'beside overflowing rows');
}

/** Whether row p's couplings pass the bounds, by the rule (float64, O(n·W)). */
function passesBounds(
  c: TransferCase,
  j: Float32Array,
  p: number,
  bounds: { step: number; window: number; pair?: number },
): boolean {
  const t = c.length;
  const n = (p % t) + 1;
  const at = (Math.floor(p / t) % c.heads) * t * t;
  const key = Array.from({ length: n }, (_, k) => {
    let sum = 0;
    for (let r = Math.max(0, k - c.window); r < k; r++) sum += Math.abs(j[at + r * t + k]!);
    for (let u = k + 1; u < Math.min(n, k + c.window + 1); u++) sum += Math.abs(j[at + k * t + u]!);
    return c.beta * sum;
  });
  let window = 0;
  for (let e = 0; e < n; e++) {
    let sum = 0;
    for (let k = Math.max(0, e - c.window); k <= e; k++) sum += key[k]!;
    window = Math.max(window, sum);
  }
  let pair = 0;
  for (let r = 0; r < n; r++)
    for (let k = r + 1; k < Math.min(n, r + c.window + 1); k++)
      pair = Math.max(pair, c.beta * Math.abs(j[at + r * t + k]!));
  const pairs = bounds.pair !== undefined && pair > bounds.pair;
  return Math.max(...key) > bounds.step || 2 * window > bounds.window || pairs;
}

/**
 * The banded pattern of the bound checks (bandwidth `window`, 8 unless told): head 0's couplings
 * ±15/16, head 1's ±3/4, times `scale`.
 */
function boundsCase(scale: number, edit?: (j: Float32Array) => void, window = 8): TransferCase {
  return {
    batch: 2,
    heads: 2,
    length: 24,
    window,
    beta: 1,
    fieldScale: 1,
    couplingScale: 1,
    prepare: ({ j }) => {
      for (let hd = 0; hd < 2; hd++)
        for (let r = 0; r < 24; r++)
          for (let k = r + 1; k <= Math.min(23, r + window); k++)
            j[(hd * 24 + r) * 24 + k] =
              scale * (hd === 0 ? 15 / 16 : 3 / 4) * ((r * 7 + k * 3) % 5 < 2 ? -1 : 1);
      edit?.(j);
    },
  };
}

/**
 * Rows left by the coupling bounds exactly where the rule says: head 0's band couplings all
 * 15/16 (each inner key's β Σ|J| 15: the window's 2β Σ, up to 270, decides in the WAT's float32,
 * and rows end within it at different keys), head 1's all 3/4 (every key within 12, every window
 * within 216: all kept), both times `scale` (2.5 natively: the float64 pass's bounds decide the
 * same way). The kept rows against ising-core; natively also which pass ran each row.
 */
export function checkCouplingBounds(run: TransferRunner, bounds: TransferBounds): void {
  const c = boundsCase(Math.max(1, bounds.step / 16));
  const out = run(c, 5);
  const rows = Array.from({ length: c.batch * c.heads * c.length }, (_, p) => p);
  const expected = rows.map((p) => passesBounds(c, out.j, p, bounds));
  expect(Array.from(out.sums, (s) => s === -1)).toEqual(expected);
  expect(expected.some(Boolean) && !expected.every(Boolean)).toBe(true);
  checkRun(c, out, 'coupling bounds');
  if (bounds.pair !== undefined) checkPairBound(run, bounds);
  if (bounds.float32 !== undefined)
    for (const window of [8, 6]) checkPasses(run, bounds.float32, window);
}

/** The pattern at scale 1 with one coupling of head 1 at 1.6: past a bound of 1.5 a coupling. */
const onePairCase = (window = 8) =>
  boundsCase(
    1,
    (j) => {
      j[(24 + 2) * 24 + 3] = 1.6;
    },
    window,
  );

/**
 * A backend with a bound on every coupling (the WAT's) leaves exactly the rows the whole rule
 * says, some of them by that one coupling alone. The kept rows against ising-core.
 */
function checkPairBound(run: TransferRunner, bounds: TransferBounds): void {
  const c = onePairCase();
  const out = run(c, 6);
  const rows = Array.from({ length: c.batch * c.heads * c.length }, (_, p) => p);
  const left = rows.map((p) => passesBounds(c, out.j, p, bounds));
  expect(Array.from(out.sums, (s) => s === -1)).toEqual(left);
  const byPair = rows.filter(
    (p) => left[p] && !passesBounds(c, out.j, p, { ...bounds, pair: undefined }),
  );
  expect(byPair.length, 'rows left by one coupling alone').toBeGreaterThan(0);
  checkRun(c, out, 'one coupling past the bound');
}

/**
 * The native kernels' two passes at bandwidth `window`: the float32 one runs exactly the rows
 * within its rule (sums ≥ 0), the float64 one the rest (−2). The pattern at scale 1 (keys' β Σ|J|
 * from under 8 to 15 at W = 8, past the float32 pass's 12 on head 0; to 11.25 at W = 6) with one
 * coupling at 1.6 (onePairCase), past the float32 pass's 1.5 for every coupling, so that some
 * rows go to float64 by that coupling alone. Every row against ising-core.
 */
function checkPasses(
  run: TransferRunner,
  single: NonNullable<TransferBounds['float32']>,
  window: number,
): void {
  const c = onePairCase(window);
  const out = run(c, 6);
  const rows = Array.from({ length: c.batch * c.heads * c.length }, (_, p) => p);
  const float32 = rows.map((p) => !passesBounds(c, out.j, p, single));
  expect(Array.from(out.sums, (s) => s >= 0)).toEqual(float32);
  expect(Array.from(out.sums, (s) => s === -2)).toEqual(float32.map((f) => !f));
  const byPair = rows.filter(
    (p) => !passesBounds(c, out.j, p, { ...single, pair: undefined }) && !float32[p],
  );
  expect(byPair.length, 'rows in float64 by one coupling alone').toBeGreaterThan(0);
  expect(float32.some(Boolean)).toBe(true);
  checkRun(c, out, `float32 and float64 passes, W = ${window}`);
}
