import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { randomCausal, TOKEN } from './testing/dwaveHarness.js';
import { fakeChimeraSolver } from './testing/fakeSolvers.js';
import { rejection } from '../shared/testing/rejection.js';
import { ADVANTAGE_4_1_TIMING, dwaveAccessTime } from './dwaveTiming.js';
import { dwaveCostEstimate } from './dwaveCost.js';
import { createDwaveSampler } from '../index.js';
import type { SapiSolver } from './sapiTypes.js';

const chimera = fakeChimeraSolver({ rows: 2, columns: 2, shore: 4 });

/** The 2×2 Chimera fake with `timing` as its problem_timing_data (none when undefined). */
function withTiming(
  timing: Record<string, unknown> | undefined,
  top: Record<string, unknown> = {},
) {
  const properties = { ...chimera.properties, ...top };
  if (timing !== undefined) properties.problem_timing_data = timing;
  return { ...chimera, properties } as SapiSolver;
}

/** A linear readout model whose figures are easy by hand: 100 µs at 0 qubits, 200 µs at 1,000. */
const handTiming = {
  ...ADVANTAGE_4_1_TIMING,
  typical_programming_time: 10_000,
  default_programming_thermalization: 1_000,
  default_annealing_time: 20,
  readout_time_model: 'pwl_linear',
  readout_time_model_parameters: [0, 1000, 100, 200],
  qpu_delay_time_per_sample: 20,
  default_readout_thermalization: 0,
};

describe('dwave QPU access time', () => {
  it("should match dwave-cloud-client's own test figures on Advantage 4.1's timing data", () => {
    // dwavesystems/dwave-cloud-client@27cd70ef7444 tests/test_solver_utils.py, test_mock_estimations.
    const advantage = withTiming({ ...ADVANTAGE_4_1_TIMING });
    const cases: [Record<string, unknown>, number][] = [
      [{}, 15341],
      [{ num_reads: 500 }, 149225],
      [{ annealing_time: 400 }, 15721],
      [
        {
          anneal_schedule: [
            [0.0, 0.0],
            [800.0, 0.5],
          ],
        },
        16121,
      ],
      [
        {
          anneal_schedule: [
            [0.0, 1.0],
            [2, 0.45],
            [102, 0.45],
            [102, 1.0],
          ],
        },
        15427,
      ],
    ];
    for (const [params, us] of cases) {
      const t = dwaveAccessTime(advantage, 1000, params);
      expect(Math.trunc(t.microseconds)).toBe(us);
      expect(t.assumptions).toEqual([]);
    }
  });

  it('should follow T = T_p + R·(T_a + T_r + T_d) by hand on a linear readout model', () => {
    const solver = withTiming(handTiming);
    // T_r at 500 qubits = 100 + 0.5·(200 − 100) = 150; T_p = 10,000 + 1,000;
    // per read 50 (anneal) + 150 + 20 (delay) = 220; 10 reads: 2,200 + 11,000 = 13,200 µs.
    const t = dwaveAccessTime(solver, 500, { num_reads: 10, annealing_time: 50 });
    expect(t.readoutUs).toBeCloseTo(150, 12);
    expect(t.programmingUs).toBe(11_000);
    expect(t.samplingPerReadUs).toBeCloseTo(220, 12);
    expect(t.microseconds).toBeCloseTo(13_200, 9);
    // Readout thermalization 100 and programming thermalization 500 given: 10·320 + 10,500.
    const p = { num_reads: 10, annealing_time: 50, readout_thermalization: 100 };
    expect(
      dwaveAccessTime(solver, 500, { ...p, programming_thermalization: 500 }).microseconds,
    ).toBeCloseTo(13_700, 9);
    // Decorrelation: 50/2000·(10,000 − 500) + 500 = 737.5 µs a read instead of 100.
    expect(
      dwaveAccessTime(solver, 500, { ...p, reduce_intersample_correlation: true }).microseconds,
    ).toBeCloseTo(10 * (220 + 737.5) + 11_000, 9);
    // Outside the breakpoints the readout time is clamped, as numpy.interp.
    expect(dwaveAccessTime(solver, 5000, {}).readoutUs).toBe(200);
  });

  it('should say which figures it took from elsewhere when properties are missing', () => {
    const none = dwaveAccessTime(withTiming(undefined), 1000, {});
    expect(Math.trunc(none.microseconds)).toBe(15341);
    expect(none.assumptions).toEqual([
      expect.stringContaining('has no problem_timing_data: every timing figure is Advantage 4.1'),
    ]);
    const { typical_programming_time: _, default_annealing_time: __, ...partial } = handTiming;
    const some = dwaveAccessTime(withTiming(partial, { default_annealing_time: 50 }), 500, {
      num_reads: 10,
    });
    // T_p = 14,072.88 (Advantage 4.1) + 1,000; the anneal from the top-level property.
    expect(some.microseconds).toBeCloseTo(10 * 220 + 15_072.88, 9);
    expect(some.assumptions).toEqual([
      "default_annealing_time from the solver's top-level property (50 µs)",
      expect.stringContaining('problem_timing_data lacks typical_programming_time:'),
    ]);
    const odd = dwaveAccessTime(
      withTiming({ ...handTiming, version: '1.1.0', readout_time_model: 'cubic' }),
      1000,
      {},
    );
    expect(odd.assumptions).toEqual([
      expect.stringContaining('timing model version 1.1.0'),
      expect.stringContaining(
        "readout_time_model cubic with 4 parameters is not one the formula knows: Advantage 4.1's",
      ),
    ]);
  });

  it('should estimate a call problem by problem from the qubits of its chains', () => {
    const solver = withTiming(handTiming);
    // Chains of 1, 2 and 3 qubits: problems of 2 and 3 spins use 3 and 6 qubits.
    const embedding = [[0], [4, 12], [1, 5, 13]];
    const e = dwaveCostEstimate({ solver, embedding, spins: [2, 3], params: { num_reads: 10 } });
    const us = (q: number) => 10 * (20 + 100 + q / 10 + 20) + 11_000;
    expect(e.provider).toBe('dwave');
    expect(e.perProblem.qpuSeconds).toBeCloseTo((us(3) + us(6)) / 2 / 1e6, 15);
    expect(e.call).toEqual({ problems: 2, jobs: 1, qpuSeconds: expect.any(Number) });
    expect(e.call.qpuSeconds).toBeCloseTo((us(3) + us(6)) / 1e6, 15);
    expect(e).toMatchObject({ perJob: {}, problemsPerJob: 20, limits: [] });
    expect(e.assumptions.join('\n')).toContain('3–6 qubits');
    expect(
      dwaveCostEstimate({ solver, embedding, spins: new Array(41).fill(1), params: {} }).call.jobs,
    ).toBe(3);
  });

  it("should write estimate.json in a dry run's call directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dwave-cost-'));
    const solver = withTiming(handTiming);
    const sampler = createDwaveSampler({
      dryRun: { dir },
      token: TOKEN,
      numReads: 10,
      solverDefinition: solver,
    });
    const batch = randomCausal(5, 3);
    expect((await rejection(sampler.sample(batch))).code).toBe('ADAPTER_DRY_RUN');
    const read = (f: string) => JSON.parse(readFileSync(join(dir, 'dwave-0001', f), 'utf8'));
    const written = read('estimate.json');
    const { chains } = read('embedding.json') as { chains: number[][] };
    const spins = Array.from(batch.spins);
    expect(written).toEqual(
      JSON.parse(
        JSON.stringify(
          dwaveCostEstimate({ solver, embedding: chains, spins, params: { num_reads: 10 } }),
        ),
      ),
    );
    // By hand: problem q has spins[q] spins, each chain of the Chimera clique layout.
    let total = 0;
    for (const n of spins) {
      const qubits = chains.slice(0, n).flat().length;
      total += 10 * (20 + 100 + qubits / 10 + 20) + 11_000;
    }
    expect(written.call.qpuSeconds).toBeCloseTo(total / 1e6, 12);
    expect(written.call.problems).toBe(batch.size);
  });
});
