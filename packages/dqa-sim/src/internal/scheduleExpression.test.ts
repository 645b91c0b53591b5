import { describe, expect, it } from 'vitest';
import { isDqaError } from '../index.js';
import { CHECK_BUDGET_MS, checkSchedule, MAX_EXPRESSION_LENGTH } from './scheduleExpression.js';

describe('checkSchedule time budget', () => {
  it('gives up with DQA_BAD_SCHEDULE once the 1001-point check exceeds its budget', () => {
    const slow = (u: number): number => {
      const until = performance.now() + 1;
      while (performance.now() < until);
      return u;
    };
    const started = performance.now();
    let caught: unknown;
    try {
      checkSchedule(slow, 'A', '"slow"', CHECK_BUDGET_MS);
    } catch (error) {
      caught = error;
    }
    const elapsed = performance.now() - started;
    expect(isDqaError(caught, 'DQA_BAD_SCHEDULE')).toBe(true);
    expect((caught as Error).message).toMatch(
      /took more than 250 ms to evaluate at \d+ of the 1001 check points/,
    );
    expect(elapsed).toBeLessThan(CHECK_BUDGET_MS + 200);
    expect(() => checkSchedule((u) => u, 'B', '"u"', CHECK_BUDGET_MS)).not.toThrow();
    expect(MAX_EXPRESSION_LENGTH).toBe(1000);
  });
});
