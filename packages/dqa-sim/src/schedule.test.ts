import { describe, expect, it } from 'vitest';
import { compileSchedule, effectiveTemperature, isDqaError } from './index.js';
import type { ScheduleSpec } from './index.js';

const codeOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return isDqaError(e) ? e.code : `not a DqaError: ${String(e)}`;
  }
  return 'no error';
};

describe('compileSchedule', () => {
  it('should compile presets and expressions into functions of u', () => {
    const linear = compileSchedule('linear');
    expect([linear.A(0.25), linear.B(0.25)]).toEqual([0.75, 0.25]);
    const dwave = compileSchedule('dwave');
    expect(dwave.A(0.5)).toBeCloseTo(0.125, 15);
    expect(dwave.B(0.5)).toBeCloseTo(0.25, 15);
    const custom = compileSchedule({ A: 'cos(pi * u / 2)', B: (u) => u * u });
    expect(custom.A(1 / 3)).toBeCloseTo(Math.cos(Math.PI / 6), 15);
    expect(custom.B(0.5)).toBe(0.25);
    expect(custom.label).toBe('A(u) = cos(pi * u / 2); B(u) = <function>');
  });

  it('should refuse schedules that are not finite real numbers on [0, 1] with DQA_BAD_SCHEDULE', () => {
    const bad: ScheduleSpec[] = [
      { A: '1 / (u - 0.5)', B: 'u' }, // infinite at u = 0.5
      { A: '1 - u', B: 'sqrt(u - 1)' }, // complex below 1
      { A: '1 - u +', B: 'u' }, // does not parse
      { A: '1 - u', B: 'v' }, // unknown symbol
      { A: () => Number.NaN, B: 'u' },
      { A: () => {
          throw new Error('boom');
        }, B: 'u' },
      'quadratic' as ScheduleSpec,
      { A: 3 as never, B: 'u' },
    ];
    for (const spec of bad) expect(codeOf(() => compileSchedule(spec))).toBe('DQA_BAD_SCHEDULE');
  });
});

describe('effectiveTemperature', () => {
  it('should be τ²/24 for the linear schedule and τ²/420 for the dwave preset', () => {
    for (const tau of [0, 0.3, 1, 2.5, 10]) {
      expect(effectiveTemperature(tau)).toBeCloseTo((tau * tau) / 24, 13);
      expect(Math.abs(effectiveTemperature(tau, 'dwave') - (tau * tau) / 420)).toBeLessThan(1e-14 * Math.max(1, tau * tau));
    }
  });

  it('should match the closed form for a trigonometric schedule', () => {
    // A = cos(πu/2), B = sin(πu/2): X/τ² = (2/π)(2/π − 1/2).
    const x = effectiveTemperature(1, { A: 'cos(pi * u / 2)', B: 'sin(pi * u / 2)' });
    expect(x).toBeCloseTo((2 / Math.PI) * (2 / Math.PI - 0.5), 13);
  });

  it('should agree with a brute-force double Riemann sum for a random-looking schedule', () => {
    const A = (u: number) => Math.exp(-3 * u) * (1 - u);
    const B = (u: number) => u ** 1.5;
    const m = 2000;
    let brute = 0;
    let inner = 0;
    for (let i = 0; i < m; i++) {
      const u = (i + 0.5) / m;
      // inner ∫_0^u B by the midpoint rule over the finished cells plus half of the current one
      brute += (A(u) * (inner + B(u) / (2 * m))) / m;
      inner += B(u) / m;
    }
    expect(effectiveTemperature(1, { A, B })).toBeCloseTo(brute, 6);
  });

  it('should refuse a negative or non-finite τ', () => {
    expect(codeOf(() => effectiveTemperature(-1))).toBe('DQA_INVALID_ARGUMENT');
    expect(codeOf(() => effectiveTemperature(Number.NaN))).toBe('DQA_INVALID_ARGUMENT');
  });
});
