import { createSamplerRegistry } from '@boltzmann/ising-core';
import type { IsingBatch } from '@boltzmann/ising-core';
import type { IbmRunInfo, StepChoice } from '@boltzmann/quantum-adapters';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { expandGrid } from '../grid/expandGrid.js';
import { checkpointProblem } from '../results/checkpointValidation.js';
import type { Checkpoint } from '../results/checkpointValidation.js';
import { tinyRunFlags } from '../testing/fixtures.js';
import { ibmRunTally, mergeIbmRuns } from './ibmRuns.js';
import { trainRun } from './trainRun.js';

const choice = (spins: number, steps: number, fidelity: number): StepChoice => ({
  spins,
  steps,
  tau: steps / 4,
  fidelity,
  source: 'fidelity',
  belowThreshold: fidelity < 0.25,
});
const info = (jobs: number, steps: StepChoice[]): IbmRunInfo => ({
  backend: 'ibm_fez',
  jobIds: Array.from({ length: jobs }, (_, j) => `job-${j}`),
  shots: 100,
  layouts: {},
  steps,
});

describe('the IBM figures of a run', () => {
  it('counts calls and jobs and keeps the latest step choice of each spin count', () => {
    const tally = ibmRunTally();
    expect(tally.total()).toBeUndefined();
    tally.onRun(info(2, [choice(1, 64, 0.97), choice(2, 40, 0.3)]));
    tally.onRun(info(1, [choice(2, 38, 0.31), choice(3, 20, 0.2)]));
    expect(tally.total()).toEqual({
      backend: 'ibm_fez',
      calls: 2,
      jobs: 3,
      shots: 100,
      steps: [choice(1, 64, 0.97), choice(2, 38, 0.31), choice(3, 20, 0.2)],
    });
    expect(mergeIbmRuns(undefined, tally.total())).toEqual(tally.total());
  });

  it("puts the ibm sampler's calls in the run record and its checkpoint, across a resume", async () => {
    // A stand-in for the ibm plugin: all spins up, and one job a call with a 0.5-fidelity choice per size.
    const capabilities = { exact: false, maxSpins: 16, async: true, deterministic: true };
    const plugin = {
      name: 'ibm' as const,
      version: '0.0.0',
      capabilities,
      create: (options: { onRun?: (i: IbmRunInfo) => void }) => ({
        name: 'ibm',
        capabilities,
        async sample(batch: IsingBatch) {
          const sizes = Array.from({ length: batch.size }, (_, q) => batch.spins[q]!);
          options.onRun?.(
            info(
              1,
              [...new Set(sizes)].map((n) => choice(n, 8, 0.5)),
            ),
          );
          const sets = sizes.map((n) => ({
            spins: n,
            states: new Int8Array(n).fill(1),
            weights: Float64Array.of(1),
          }));
          return { kind: 'samples' as const, sets };
        },
      }),
    };
    const registry = createSamplerRegistry().register(plugin).freeze();
    const argv = ['shakespeare', ...tinyRunFlags(2), '--lengths', '3', '--variants', 'boltzmann'];
    const [config] = expandGrid(parseBenchArgs([...argv, '--sampler', 'ibm'])!);
    const settings = (resultsDir: string) => ({
      checkpointEvery: 1,
      logEvery: 1,
      resultsDir,
      plugins: [],
    });
    const tmp = () => mkdtempSync(join(tmpdir(), 'bench-ibm-runs-'));
    const whole = await trainRun(config!, settings(tmp()), registry);
    if (whole === 'stopped') throw new Error('the run stopped');
    expect(whole.ibm?.steps.map((s) => s.spins)).toEqual([1, 2, 3]);
    expect(whole.ibm?.jobs).toBe(whole.ibm?.calls);
    const dir = tmp();
    const saved: Checkpoint[] = [];
    let stop = true;
    expect(
      await trainRun(config!, settings(dir), registry, {
        shouldStop: () => stop,
        onCheckpoint: (c) => void saved.push(c),
      }),
    ).toBe('stopped');
    const ckpt = JSON.parse(JSON.stringify(saved.at(-1))) as Checkpoint;
    expect(checkpointProblem(ckpt, ckpt.id, config)).toBeUndefined();
    const damaged = {
      ...ckpt,
      ibm: { ...ckpt.ibm!, steps: [{ ...ckpt.ibm!.steps[0]!, fidelity: 3 }] },
    };
    expect(checkpointProblem(damaged, ckpt.id, config)).toBe('its ibm figures are malformed');
    stop = false;
    const resumed = await trainRun(config!, settings(dir), registry);
    if (resumed === 'stopped') throw new Error('the run stopped');
    expect(resumed.ibm).toEqual(whole.ibm);
  });
});
