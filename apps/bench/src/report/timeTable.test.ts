import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import type { RunRecord } from '../recordTypes.js';
import { environmentNote } from './environmentNote.js';
import { msPerStep, timeBasisNote, timeTable } from './timeTable.js';

const argv = [
  'shakespeare',
  '--variants',
  'softmax,boltzmann',
  '--lengths',
  '8,16',
  '--seeds',
  '0,1',
  '--steps',
  '100',
];

describe('timeTable', () => {
  it('should give ms per step, mean ± std over seeds, and each column over the baseline', () => {
    // softmax: 10 s per run at T = 8 and 20 s at T = 16; boltzmann three times that, seed 1 +2 s.
    const records = syntheticRecords(argv, () => 5).map((r) => ({
      ...r,
      wallSeconds:
        (r.config.length === 8 ? 10 : 20) * (r.config.variant === 'boltzmann' ? 3 : 1) +
        (r.config.variant === 'boltzmann' ? 2 * r.config.seed : 0),
    }));
    expect(msPerStep(records[0]!)).toBe((1000 * records[0]!.wallSeconds) / 100);
    const table = timeTable(records, ['softmax', 'boltzmann'], 'softmax')!;
    expect(table.head).toEqual(['T', 'softmax', 'boltzmann']);
    // boltzmann at T = 8: 300 and 320 ms → 310 ± 14 (sample std); softmax 100 ± 0.
    expect(table.body).toEqual([
      ['8', '100 ± 0', '310 ± 14 · 3.10×'],
      ['16', '200 ± 0', '610 ± 14 · 3.05×'],
    ]);
  });

  it('should print (n = 1) for one seed, — for a missing cell, and return null without timed runs', () => {
    const one = syntheticRecords([...argv.slice(0, 5), '--seeds', '0', '--steps', '100'], () => 5)
      .filter((r) => !(r.config.variant === 'softmax' && r.config.length === 16))
      .map((r) => ({ ...r, wallSeconds: 1 }));
    const table = timeTable(one, ['softmax', 'boltzmann'], 'softmax')!;
    expect(table.body).toEqual([
      ['8', '10.0 (n = 1)', '10.0 (n = 1) · 1.00×'],
      ['16', '—', '10.0 (n = 1)'],
    ]);
    expect(
      timeTable(
        one.map((r) => ({ ...r, wallSeconds: 0 })),
        ['softmax'],
        'softmax',
      ),
    ).toBeNull();
  });
  it('should give each machine its own rows, so no cell averages two machines and ratios stay within one', () => {
    // Seed 0 trained on an 8-lane machine (first), seed 1 on a 16-lane one twice as fast.
    const engineOf = (seed: number) => ({
      line: `engine: native ${seed === 0 ? 'avx2 (8' : 'avx512 (16'} lanes), 1 thread`,
    });
    const records = syntheticRecords(argv, () => 5).map((r) => ({
      ...r,
      engine: engineOf(r.config.seed) as RunRecord['engine'],
      finishedAt: `2026-12-0${r.config.seed + 1}T00:00:00.000Z`,
      wallSeconds:
        (r.config.variant === 'boltzmann' ? 4 : 1) *
        (r.config.seed === 0 ? 10 : 5) *
        (r.config.length / 8),
    }));
    const table = timeTable(records, ['softmax', 'boltzmann'], 'softmax')!;
    expect(table.head).toEqual(['T', 'machine', 'softmax', 'boltzmann']);
    expect(table.body).toEqual([
      ['8', 'A', '100 (n = 1)', '400 (n = 1) · 4.00×'],
      ['8', 'B', '50.0 (n = 1)', '200 (n = 1) · 4.00×'],
      ['16', 'A', '200 (n = 1)', '800 (n = 1) · 4.00×'],
      ['16', 'B', '100 (n = 1)', '400 (n = 1) · 4.00×'],
    ]);
  });

  it('should letter machines over every run, as the environment note does, timed or not', () => {
    // The first run to finish (an untimed one) is on a machine of its own, which is then A; the
    // two timed machines are B and C in the table as in the note.
    const lanes = (seed: number) => (seed === 0 ? 'avx2 (8' : 'avx512 (16');
    const records = syntheticRecords(argv, () => 5).map((r) => ({
      ...r,
      engine: { line: `engine: native ${lanes(r.config.seed)} lanes), 1 thread` },
      finishedAt: `2026-12-0${r.config.seed + 2}T00:00:00.000Z`,
      wallSeconds: 10,
    })) as RunRecord[];
    const untimed: RunRecord = {
      ...records[0]!,
      engine: { line: 'engine: wasm (4 lanes), 1 thread' } as RunRecord['engine'],
      finishedAt: '2026-12-01T00:00:00.000Z',
      wallSeconds: 0,
    };
    const table = timeTable([...records, untimed], ['softmax', 'boltzmann'], 'softmax')!;
    expect(table.body.map((row) => row[1])).toEqual(['B', 'C', 'B', 'C']);
    expect(environmentNote([...records, untimed])).toMatch(/A: .*wasm.*B: .*avx2.*C: .*avx512/s);
  });

  it("should time a run by its median step and its evaluations' share, not by wall time that counts pauses", () => {
    // 100 steps; 1,000 s of wall time, most of it a pause; median 50 ms, evaluations 2 s, checkpoints 1 s.
    const paused = syntheticRecords(
      [...argv.slice(0, 5), '--seeds', '0', '--steps', '100'],
      () => 5,
    ).map((r) => ({
      ...r,
      wallSeconds: 1000,
      timing: {
        stepSeconds: 997,
        evalSeconds: 2,
        checkpointSeconds: 1,
        medianStepMs: r.config.variant === 'boltzmann' ? 150 : 50,
      },
    }));
    expect(msPerStep(paused[0]!)).toBeCloseTo(paused[0]!.timing!.medianStepMs! + 30, 9);
    expect(timeTable(paused, ['softmax', 'boltzmann'], 'softmax')!.body).toEqual([
      ['8', '80.0 (n = 1)', '180 (n = 1) · 2.25×'],
      ['16', '80.0 (n = 1)', '180 (n = 1) · 2.25×'],
    ]);
    expect(timeBasisNote(paused)).toMatch(
      /^Milliseconds per step: each run's median training step/,
    );
    // A record without a median falls back to wall time, and the note says for how many.
    const mixed = [
      ...paused,
      { ...paused[0]!, timing: { stepSeconds: 997, evalSeconds: 2, checkpointSeconds: 1 } },
    ];
    expect(msPerStep(mixed.at(-1)!)).toBe(10000);
    expect(timeBasisNote(mixed)).toMatch(
      /for the one run whose record keeps no median step, wall time/,
    );
    expect(timeBasisNote([mixed.at(-1)!])).toMatch(/wall time of each run over its steps/);
  });
});
