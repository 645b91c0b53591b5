import { echo } from '@boltzmann/ising-core/internal';
import { DqaError } from './errors.js';
import { compileSchedule } from './schedule.js';
import type { CompiledSchedule, ScheduleSpec } from './schedule.js';

// 5-point Gauss–Legendre on [-1, 1]: exact for polynomials of degree ≤ 9 per panel.
const GL_X = [-0.906179845938664, -0.5384693101056831, 0, 0.5384693101056831, 0.906179845938664];
const GL_W = [
  0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665,
  0.2369268850561891,
];

/** Panels of the composite rule; 512 × 5-point Gauss–Legendre is far below 1e-12 relative error for smooth schedules. */
const PANELS = 512;

function gauss(f: (u: number) => number, a: number, b: number): number {
  const mid = (a + b) / 2;
  const half = (b - a) / 2;
  let sum = 0;
  for (let i = 0; i < 5; i++) sum += GL_W[i]! * f(mid + half * GL_X[i]!);
  return sum * half;
}

/**
 * The effective-temperature integral of a diabatic anneal (METHOD.md §4): `X = ∫_0^τ dt1 ∫_0^t1
 * dt2 A(t1/τ) B(t2/τ) = τ² ∫_0^1 du1 A(u1) ∫_0^u1 du2 B(u2)`.
 *
 * For a short anneal the output distribution is `P(s) ≈ 2^-n [1 + 4X Σ h s + 8X Σ J s s]`, i.e.
 * fields feel an inverse temperature `4X` and couplings `8X`.
 *
 * Computed by a composite 5-point Gauss–Legendre rule on 512 panels (outer integral), with
 * the inner integral accumulated panel by panel plus a Gauss–Legendre rule on the partial
 * panel, so it is exact for piecewise polynomials up to degree 9 (`τ²/24` for `'linear'`,
 * `τ²/420` for `'dwave'`).
 *
 * @param tau total anneal time `τ ≥ 0` (dimensionless: energies are in the units of `h`, `J`).
 * @param schedule the schedule (default `'linear'`).
 * @returns `X` (≥ 0 for non-negative schedules).
 * @throws {DqaError} DQA_INVALID_ARGUMENT when `tau` is negative or not finite; DQA_BAD_SCHEDULE for a bad
 *   schedule, one that is not finite at a quadrature node, or an integral that overflows float64.
 * @example
 * import { effectiveTemperature } from '@boltzmann/dqa-sim';
 *
 * console.log(effectiveTemperature(2)); // 4 / 24 = 0.1666…
 * @category Calibration
 */
export function effectiveTemperature(
  tau: number,
  schedule: ScheduleSpec | CompiledSchedule = 'linear',
): number {
  if (typeof tau !== 'number' || !Number.isFinite(tau) || tau < 0) {
    throw new DqaError('DQA_INVALID_ARGUMENT', `tau must be a finite number ≥ 0, got ${echo(tau)}`);
  }
  const compiled = compileSchedule(schedule);
  const A = atNodes(compiled.A, 'A', compiled.label);
  const B = atNodes(compiled.B, 'B', compiled.label);
  const width = 1 / PANELS;
  let inner = 0; // ∫_0^{panel start} B
  let total = 0;
  for (let p = 0; p < PANELS; p++) {
    const a = p * width;
    const b = a + width;
    const mid = (a + b) / 2;
    const half = width / 2;
    for (let i = 0; i < 5; i++) {
      const u = mid + half * GL_X[i]!;
      total += GL_W[i]! * half * A(u) * (inner + gauss(B, a, u));
    }
    inner += gauss(B, a, b);
  }
  const x = tau * tau * total;
  if (!Number.isFinite(x)) {
    throw new DqaError(
      'DQA_BAD_SCHEDULE',
      `the effective-temperature integral X of ${echo(compiled.label)} at tau = ${tau} is ${x}: the schedule is too large for float64`,
    );
  }
  return x;
}

/**
 * `f` refusing, with DQA_BAD_SCHEDULE naming `u`, any value that is not a finite number: the
 * quadrature nodes are points the 1001-point grid check never sees.
 */
function atNodes(f: (u: number) => number, which: 'A' | 'B', label: string): (u: number) => number {
  return (u) => {
    const v = f(u);
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new DqaError(
        'DQA_BAD_SCHEDULE',
        `schedule ${which} is ${echo(v)} at u = ${u}, a quadrature node of the effective-temperature integral X; ` +
          `it must be finite there (${echo(label)})`,
      );
    }
    return v;
  };
}
