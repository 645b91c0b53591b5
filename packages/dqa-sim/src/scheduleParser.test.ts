import { describe, expect, it } from 'vitest';
import { annealDistribution, compileSchedule, isDqaError, SCHEDULE_PRESETS } from './index.js';
import { scheduleParserLoaded } from './scheduleParser.js';

describe('mathjs is loaded only for schedule strings', () => {
  it('presets and function schedules never load it; the first string schedule does', () => {
    const problem = { fields: Float64Array.from([0.3, -0.2]), couplings: Float64Array.from([0, 0.5, 0, 0]), n: 2 };
    annealDistribution(problem as never, { steps: 8 });
    compileSchedule({ A: (u: number) => 1 - u, B: (u: number) => u });
    expect(scheduleParserLoaded()).toBe(false);
    const s = compileSchedule({ A: '1 - u', B: 'u^2' });
    expect(scheduleParserLoaded()).toBe(true);
    expect(s.B(0.5)).toBeCloseTo(0.25, 15);
  });

  it('the presets, now JS functions, equal their mathjs expressions bit for bit', () => {
    for (const name of ['linear', 'dwave'] as const) {
      const native = compileSchedule(name);
      const parsed = compileSchedule(SCHEDULE_PRESETS[name]);
      expect(native.label).toBe(parsed.label);
      for (let i = 0; i <= 1000; i++) {
        expect(native.A(i / 1000)).toBe(parsed.A(i / 1000));
        expect(native.B(i / 1000)).toBe(parsed.B(i / 1000));
      }
    }
  });

  it('without a synchronous require (a browser), a string schedule says to await loadScheduleParser(), which then makes it work', async () => {
    const proc = globalThis.process as { getBuiltinModule?: unknown };
    const saved = proc.getBuiltinModule;
    // A second, fresh copy of the loader, in an environment without process.getBuiltinModule.
    const path = './scheduleParser.js?browser';
    const fresh = (await import(/* @vite-ignore */ path)) as typeof import('./scheduleParser.js');
    proc.getBuiltinModule = undefined;
    try {
      let error: unknown;
      try {
        fresh.scheduleMath();
      } catch (e) {
        error = e;
      }
      expect(isDqaError(error, 'DQA_SCHEDULE_PARSER_NOT_LOADED')).toBe(true);
      expect(String(error)).toContain('await loadScheduleParser()');
      await fresh.loadScheduleParser();
      expect(fresh.scheduleMath().parse('u + 1').toString()).toBe('u + 1');
    } finally {
      proc.getBuiltinModule = saved;
    }
  });
});
