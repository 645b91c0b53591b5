import { describe, expect, it } from 'vitest';
import { costOf } from './costEstimate.js';
import type { CostEstimate } from './costEstimate.js';

const base: CostEstimate = {
  provider: 'ibm',
  perProblem: { qpuSeconds: 0.25 },
  perJob: { qpuSeconds: 3 },
  problemsPerJob: 300,
  call: { problems: 0, jobs: 0 },
  limits: [],
  assumptions: [],
};

describe('costOf', () => {
  it('scales the unit costs by problems and jobs, per unit, and leaves out units nobody priced', () => {
    expect(costOf(base, 600, 2)).toEqual({ qpuSeconds: 0.25 * 600 + 3 * 2 });
    const braket = { ...base, perProblem: { usd: 0.3 + 100 * 0.0009 }, perJob: {} };
    expect(costOf(braket, 10, 10).usd).toBeCloseTo(3.9, 12);
    expect(costOf(braket, 10, 10)).not.toHaveProperty('qpuSeconds');
  });
});
