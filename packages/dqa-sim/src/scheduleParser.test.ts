import { describe, expect, it } from 'vitest';
import { thrownBy, withoutNodeBuiltins } from '@boltzmann/ising-core/testing';
import { annealDistribution, compileSchedule, SCHEDULE_PRESETS } from './index.js';
import { scheduleParserLoaded } from './scheduleParser.js';

describe('mathjs is loaded only for schedule strings', () => {
  it('presets and function schedules never load it; the first string schedule does', () => {
    const problem = {
      fields: Float64Array.from([0.3, -0.2]),
      couplings: Float64Array.from([0, 0.5, 0, 0]),
      n: 2,
    };
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
    // A second, fresh copy of the loader (nothing loaded yet), in an environment without Node's modules.
    const path = './scheduleParser.js?browser';
    const fresh = (await import(/* @vite-ignore */ path)) as typeof import('./scheduleParser.js');
    await withoutNodeBuiltins(async () => {
      const error = thrownBy(() => fresh.scheduleMath());
      expect(error.code).toBe('DQA_SCHEDULE_PARSER_NOT_LOADED');
      expect(error.message).toContain('await loadScheduleParser()');
      await fresh.loadScheduleParser();
      expect(fresh.scheduleMath().parse('u + 1').toString()).toBe('u + 1');
    });
  });
});
