import { describe, expect, it } from 'vitest';
import { expandGrid } from './expandGrid.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { plainProgress } from './progress.js';
import { runDetail, whatRunsLine } from './whatRuns.js';

const grid = (...flags: string[]) =>
  expandGrid(parseBenchArgs(['shakespeare', '--lengths', '4', ...flags], () => undefined)!);

describe('what runs, on screen', () => {
  it('the header names each sampler with its options, the variants on it, and the engine asked for', () => {
    const configs = grid(
      '--variants',
      'softmax,boltzmann',
      '--sampler',
      'dqa',
      '--sampler-options',
      '{"shots":256}',
    );
    expect(whatRunsLine(configs, { name: 'wasm', backend: 'native', threads: 2 })).toBe(
      'samplers: softmax on no sampler; boltzmann on dqa {"shots":256}; fused engine (--engine wasm), backend native, 2 threads a run',
    );
    expect(whatRunsLine(grid('--variants', 'boltzmann'), { name: 'tfjs', threads: 1 })).toBe(
      'samplers: boltzmann on exact; engine tfjs, 1 thread a run',
    );
  });

  it("each run's start line names its sampler and the engine it got, so dqa never looks exact", () => {
    const [dqa] = grid('--variants', 'boltzmann', '--sampler', 'dqa');
    const lines: string[] = [];
    const progress = plainProgress((l) => void lines.push(l));
    progress.start(
      'a',
      'shakespeare boltzmann T=4',
      300,
      0,
      runDetail(dqa!, 'engine: native avx2 (8 lanes), 1 thread'),
    );
    expect(lines).toEqual([
      'start  shakespeare boltzmann T=4 (300 steps) · dqa · native avx2 (8 lanes), 1 thread',
    ]);
  });
});
