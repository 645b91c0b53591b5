import { createSamplerRegistry } from '@boltzmann/ising-core';
import type { IsingBatch } from '@boltzmann/ising-core';
import type { DwaveRunInfo } from '@boltzmann/quantum-adapters';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { checkpointProblem } from '../results/checkpointValidation.js';
import type { Checkpoint } from '../results/checkpointValidation.js';
import { expandGrid } from '../grid/expandGrid.js';
import { tinyRunFlags } from '../testing/fixtures.js';
import { dwaveRunTally, mergeDwaveRuns } from './dwaveRuns.js';
import { trainRun } from './trainRun.js';

const info = (fractions: number[], reads: number, extra: Partial<DwaveRunInfo> = {}) =>
  ({
    solver: 'fake',
    problemIds: fractions.map((_, q) => `p${q}`),
    chainStrengths: fractions.map(() => 1),
    chainBreakFractions: fractions,
    // Every problem has reads / fractions.length reads: the call's fraction is their mean.
    chainBreakFraction: fractions.reduce((a, b) => a + b, 0) / fractions.length,
    reads,
    qpuAccessTimeUs: 1000,
    maxChainLength: 2,
    ...extra,
  }) satisfies DwaveRunInfo;

describe('the D-Wave figures of a run', () => {
  it('should sum the calls, weighting each chain-break fraction by its reads', () => {
    const tally = dwaveRunTally();
    expect(tally.total()).toBeUndefined();
    tally.onRun(info([0.1, 0.3], 200));
    tally.onRun(info([0.6], 50, { maxChainLength: 3, qpuAccessTimeUs: 500 }));
    // (0.2 · 200 + 0.6 · 50) / 250 = 70 / 250.
    expect(tally.total()).toEqual({
      calls: 2,
      problems: 3,
      reads: 250,
      chainBreakFraction: expect.closeTo(70 / 250, 15),
      maxProblemChainBreakFraction: 0.6,
      maxChainLength: 3,
      qpuAccessTimeUs: 1500,
    });
    // Two sessions merged: the same figures as one tally of both calls.
    const [a, b] = [dwaveRunTally(), dwaveRunTally()];
    a.onRun(info([0.1, 0.3], 200));
    b.onRun(info([0.6], 50, { maxChainLength: 3, qpuAccessTimeUs: 500 }));
    expect(mergeDwaveRuns(a.total(), b.total())).toEqual(tally.total());
    expect(mergeDwaveRuns(undefined, b.total())).toEqual(b.total());
  });

  it("should put the dwave sampler's calls in the run record, a resumed run's earlier sessions too", async () => {
    const { registry, calls } = standIn();
    const argv = ['shakespeare', ...tinyRunFlags(2), '--lengths', '3', '--variants', 'boltzmann'];
    const [config] = expandGrid(parseBenchArgs([...argv, '--sampler', 'dwave'])!);
    const settings = (resultsDir: string) => ({
      checkpointEvery: 1,
      logEvery: 1,
      resultsDir,
      plugins: [],
    });
    const whole = await trainRun(config!, settings(tmp()), registry);
    if (whole === 'stopped') throw new Error('the run stopped');
    const problems = calls.reduce((a, b) => a + b, 0);
    expect(calls.length).toBeGreaterThan(2);
    // Each call: one problem at 0.5 of its one read, the rest at 0: 0.5 · calls / problems reads.
    expect(whole.dwave).toEqual({
      calls: calls.length,
      problems,
      reads: problems,
      chainBreakFraction: expect.closeTo((0.5 * calls.length) / problems, 12),
      maxProblemChainBreakFraction: 0.5,
      maxChainLength: 2,
      qpuAccessTimeUs: 1000 * calls.length,
    });
    // Stopped after step 1 and resumed from its checkpoint: the same figures.
    const dir = tmp();
    let stop = true;
    const saved: Checkpoint[] = [];
    const first = await trainRun(config!, settings(dir), registry, {
      shouldStop: () => stop,
      onCheckpoint: (c) => void saved.push(c),
    });
    expect(first).toBe('stopped');
    // The checkpoint keeps the figures, and one whose figures are damaged is not resumed.
    const ckpt = JSON.parse(JSON.stringify(saved.at(-1))) as Checkpoint;
    expect(ckpt.dwave?.calls).toBeGreaterThan(0);
    expect(checkpointProblem(ckpt, ckpt.id, config)).toBeUndefined();
    const damaged = { ...ckpt, dwave: { ...ckpt.dwave!, chainBreakFraction: 2 } };
    expect(checkpointProblem(damaged, ckpt.id, config)).toBe('its dwave figures are malformed');
    stop = false;
    const starts: number[] = [];
    const resumed = await trainRun(config!, settings(dir), registry, {
      onStart: (step) => void starts.push(step),
    });
    if (resumed === 'stopped') throw new Error('the run stopped');
    expect(starts).toEqual([1]);
    expect(resumed.dwave).toEqual(whole.dwave);
  });
});

const tmp = () => mkdtempSync(join(tmpdir(), 'bench-dwave-runs-'));

/**
 * A stand-in for the dwave plugin: every problem answers all spins up, once; its first problem
 * reports half its chains broken, the others none. `calls` gets each call's problem count.
 */
function standIn() {
  const calls: number[] = [];
  const capabilities = { exact: false, maxSpins: 16, async: true, deterministic: true };
  const plugin = {
    name: 'dwave' as const,
    version: '0.0.0',
    capabilities,
    create: (options: { onRun?: (i: DwaveRunInfo) => void }) => ({
      name: 'dwave',
      capabilities,
      async sample(batch: IsingBatch) {
        calls.push(batch.size);
        const sizes = Array.from({ length: batch.size }, (_, q) => batch.spins[q]!);
        options.onRun?.(
          info(
            sizes.map((_, q) => (q === 0 ? 0.5 : 0)),
            batch.size,
          ),
        );
        return {
          kind: 'samples' as const,
          sets: sizes.map((n) => ({
            spins: n,
            states: new Int8Array(n).fill(1),
            weights: Float64Array.of(1),
          })),
        };
      },
    }),
  };
  return { registry: createSamplerRegistry().register(plugin).freeze(), calls };
}
