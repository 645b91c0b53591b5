import { describe, expect, it } from 'vitest';
import { convergenceSpec, convergenceTable } from './convergenceReport.js';
import { couplingProfileSpec } from './plots/couplingProfilePlot.js';
import { syntheticRecords } from '../testing/fixtures.js';
import { renderSvg } from './plots/plots.js';
import type { RunRecord } from '../recordTypes.js';

const tap = syntheticRecords(
  [
    'shakespeare',
    '--lengths',
    '8,16',
    '--seeds',
    '0,1',
    '--variants',
    'softmax,boltzmann',
    '--sampler',
    'tap',
  ],
  () => 5,
).map((r): RunRecord => {
  if (r.config.variant !== 'boltzmann') return r;
  const point = (step: number, missed: number) => ({
    step,
    calls: 10,
    problems: 1000,
    missed,
    maxResidual: 1e-3 * missed,
    meanIterations: 20 + missed,
    maxIterations: 100 + missed,
  });
  const points = [point(10, r.config.seed), point(20, 2 * r.config.seed)];
  return {
    ...r,
    convergence: {
      points,
      total: {
        calls: 20,
        problems: 2000,
        missed: 3 * r.config.seed,
        maxResidual: 2e-3 * r.config.seed,
        meanIterations: 21,
        maxIterations: 100 + 2 * r.config.seed,
      },
    },
    couplingProfile: Array.from({ length: 2 }, (_, k) =>
      Array.from(
        { length: r.config.length - 1 },
        (_, i) => (i < 2 ? 0.1 : -0.02) * (k + 1) + 0.01 * r.config.seed,
      ),
    ),
  };
});

describe('convergence and coupling-profile report', () => {
  it('tables the samplers’ convergence per column, group and T (share missed: mean over seeds)', () => {
    const t = convergenceTable(tap)!;
    expect(t.head).toEqual([
      'variant',
      'group',
      'T',
      'runs',
      'problems per run',
      'missed the tolerance',
      'mean iterations',
      'max iterations',
      'max residual',
    ]);
    expect(t.body.map((r) => r.slice(0, 4))).toEqual([
      ['boltzmann (tap)', 'FFN on, d=64', '8', '2'],
      ['boltzmann (tap)', 'FFN on, d=64', '16', '2'],
    ]);
    // Seeds 0 and 1 missed 0 and 3 of 2000: 0.075 % on average; the largest count is 102.
    expect(t.body[0]!.slice(5)).toEqual(['0.075 %', '21.0', '102', '2.0e-3']);
    // Runs with and without the FFN stay apart.
    const noFfn = tap.map((r) => ({ ...r, config: { ...r.config, ffn: r.config.seed === 0 } }));
    expect(convergenceTable(noFfn)!.body.map((r) => r.slice(1, 4))).toEqual([
      ['FFN off, d=64', '8', '1'],
      ['FFN off, d=64', '16', '1'],
      ['FFN on, d=64', '8', '1'],
      ['FFN on, d=64', '16', '1'],
    ]);
    expect(convergenceTable(tap.filter((r) => r.config.variant === 'softmax'))).toBeNull();
  });

  it('plots convergence over training and J by distance per (layer, head)', async () => {
    expect(await renderSvg(convergenceSpec(tap)!)).toContain('mean iterations per problem');
    const profile = couplingProfileSpec(tap)!;
    const values = (
      profile.data as { values: { panel: string; head: string; d: number; J: number }[] }
    ).values;
    // heads = 1 in this grid, so the two profiles are layers 0 and 1: per T, 2 × (T − 1) points.
    expect(values).toHaveLength(2 * (7 + 15));
    const first = values.find((v) => v.panel === 'boltzmann (tap), T=8, layer 0' && v.d === 1)!;
    expect(first.J).toBeCloseTo(0.1 + 0.005, 12); // mean over seeds 0 and 1
    expect((profile as { facet: { sort: string[] } }).facet.sort[0]).toBe(
      'boltzmann (tap), T=8, layer 0',
    );
    expect(await renderSvg(profile)).toContain('distance');
    expect(couplingProfileSpec(tap.filter((r) => r.config.variant === 'softmax'))).toBeNull();
  });
});
