import { codeOf } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { compileSchedule, effectiveTemperature } from './index.js';
import type { ScheduleSpec } from './index.js';

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
      {
        A: () => {
          throw new Error('boom');
        },
        B: 'u',
      },
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
      expect(Math.abs(effectiveTemperature(tau, 'dwave') - (tau * tau) / 420)).toBeLessThan(
        1e-14 * Math.max(1, tau * tau),
      );
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

describe('compileSchedule: restricted expressions', () => {
  const refusal = (spec: ScheduleSpec): { code?: string; message: string; ms: number } => {
    const started = performance.now();
    try {
      compileSchedule(spec);
    } catch (error) {
      return {
        ...(error as { code?: string; message: string }),
        message: (error as Error).message,
        ms: performance.now() - started,
      };
    }
    return { message: 'no error', ms: performance.now() - started };
  };

  it('refuses the out-of-memory expression before evaluating it, quickly, naming the offending part', () => {
    // Before: a fatal V8 out-of-memory (a 20000 × 20000 matrix). Refused from the parse tree now.
    const error = refusal({ A: '1-u+0*size(zeros(20000,20000))[1]', B: 'u' });
    expect(error.code).toBe('DQA_BAD_SCHEDULE');
    expect(error.ms).toBeLessThan(200);
    expect(error.message).toMatch(
      /^schedule A = "1-u\+0\*size\(zeros\(20000,20000\)\)\[1\]" uses /,
    );
    expect(error.message).toMatch(/which schedules do not allow; allowed: numbers, u, pi, e/);
  });

  it('refuses zeros(2000,2000) quickly (it took 30 s: the check evaluated it at 1001 points)', () => {
    for (const A of [
      '1-u+0*sum(zeros(2000,2000))',
      'zeros(2000,2000)',
      '1 - u + 0 * ones(2000)[1]',
    ]) {
      const error = refusal({ A, B: 'u' });
      expect(error.code, A).toBe('DQA_BAD_SCHEDULE');
      expect(error.ms, A).toBeLessThan(200);
    }
  });

  it('refuses everything outside numbers, u, pi, e, + - * / ^ and the allowed functions', () => {
    const bad = [
      'evaluate("1")',
      'parse("u")',
      'import({})',
      'createUnit("x")',
      'range(1, 9)',
      'matrix([1])',
      '[1, 2]',
      'u[1]',
      'x = 2',
      'f(x) = x',
      'u > 0.5 ? 1 : 0',
      'u == 1',
      '"u"',
      '1:3',
      '{a: 1}',
      'u mod 2',
      'u!',
      'u; 1',
      '5 cm',
      'cos.name',
      'sin',
      'v',
      'tau',
      'u(2)',
      '(sin)(u)',
    ];
    for (const A of bad) expect(refusal({ A, B: 'u' }).code, A).toBe('DQA_BAD_SCHEDULE');
  });

  it('gives a short message for a 200,000-character schedule', () => {
    const huge = `1 - u + ${'0*'.repeat(100_000)}u`;
    const error = refusal({ A: '1 - u', B: huge });
    expect(error.code).toBe('DQA_BAD_SCHEDULE');
    expect(error.message.length).toBeLessThan(500);
    expect(error.message).toMatch(/^schedule B is 200,\d{3} characters long \(limit 1,000\)/);
    const unparsable = refusal({ A: `zeros(${'9'.repeat(200_000)})`, B: 'u' });
    expect(unparsable.message.length).toBeLessThan(500);
    expect(refusal({ A: 'u', B: `${'x'.repeat(900)}(u)` }).message.length).toBeLessThan(500);
    expect(refusal('y'.repeat(200_000) as ScheduleSpec).message.length).toBeLessThan(500);
  });

  it('still compiles the presets, the README and test schedules, and the allowed functions', () => {
    const cases: [ScheduleSpec, number, number][] = [
      [{ A: '1-u', B: 'u' }, 0.75, 0.25],
      [
        { A: 'cos(pi*u/2)^2', B: 'sin(pi*u/2)^2' },
        Math.cos(Math.PI / 8) ** 2,
        Math.sin(Math.PI / 8) ** 2,
      ],
      [{ A: '1 - u^2', B: 'u^2' }, 1 - 1 / 16, 1 / 16],
      [{ A: '(1 - u)^3', B: '2u' }, 0.421875, 0.5],
      [
        { A: 'exp(-3u) * (1 - u)', B: 'sqrt(u) + abs(u - 1) + min(u, 0.1) + max(u, 0.2, 0.3)' },
        Math.exp(-0.75) * 0.75,
        0.5 + 0.75 + 0.1 + 0.3,
      ],
      [
        {
          A: 'log(1 + u) + log(8, 2) + pow(u, 2) + e - e',
          B: 'tanh(u) + atan2(u, 1) + cbrt(8) - sign(u) + floor(u) + ceil(u)',
        },
        Math.log(1.25) + 3 + 1 / 16,
        Math.tanh(0.25) + Math.atan2(0.25, 1) + 2 - 1 + 0 + 1,
      ],
      [{ A: '-u + +1', B: '((u))' }, 0.75, 0.25],
    ];
    for (const [spec, a, b] of cases) {
      const s = compileSchedule(spec);
      expect(s.A(0.25), JSON.stringify(spec)).toBeCloseTo(a, 13);
      expect(s.B(0.25), JSON.stringify(spec)).toBeCloseTo(b, 13);
    }
    expect(compileSchedule({ A: `1 - u${' + 0'.repeat(240)}`, B: 'u' }).A(0.5)).toBe(0.5);
  });
});
