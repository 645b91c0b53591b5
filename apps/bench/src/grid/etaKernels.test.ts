import { engineBackendInfo } from '@boltzmann/attention';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { estimateStepMs } from './eta.js';
import type { EtaEngine } from './eta.js';
import { etaEngineHere } from './etaKernels.js';
import { BANDED_FLOAT32 } from '../experiments/longContextConvergedSlices.js';
import { expandGrid } from './expandGrid.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { readRecords } from '../results/runFiles.js';

const grid = (...argv: string[]) => expandGrid(parseBenchArgs(argv, () => undefined)!);
const on = (name: 'native' | 'wasm', isa: string): EtaEngine => ({
  name: 'wasm',
  threads: 1,
  kernels: { name, isa },
});
const mqar = (variant: string, length: number) =>
  grid(
    'recall',
    '--preset',
    'paper',
    '--vocab-size',
    '256',
    '--lengths',
    String(length),
    '--kv-pairs',
    '16',
    '--variants',
    variant,
    ...BANDED_FLOAT32,
  )[0]!;

/** When NATIVE_SCALES was fitted: records finished later are not its data. */
const FITTED_ON = '2026-12-07T17:00:00Z';

describe('the ETA on the native backend', () => {
  it('scales the engine by the instruction set: the model part, and the transfer kernels apart', () => {
    const softmax = mqar('softmax', 128);
    const wasm = estimateStepMs(softmax);
    expect(estimateStepMs(softmax, on('wasm', 'f32x4'))).toBe(wasm);
    expect(estimateStepMs(softmax, on('native', 'avx512')) / wasm).toBeCloseTo(0.22, 10);
    expect(estimateStepMs(softmax, on('native', 'avx2')) / wasm).toBeCloseTo(0.5, 10);
    // An instruction set without a fit keeps the WebAssembly one (an upper bound).
    expect(estimateStepMs(softmax, on('native', 'neon'))).toBe(wasm);
    // The transfer kernels' own scale (0.32 on AVX-512) weighs more as T grows.
    const ratio = (T: number) =>
      estimateStepMs(mqar('boltzmann', T), on('native', 'avx512')) /
      estimateStepMs(mqar('boltzmann', T));
    expect(ratio(64)).toBeGreaterThan(0.22);
    expect(ratio(256)).toBeGreaterThan(ratio(64));
    expect(ratio(256)).toBeLessThan(0.32);
    // tfjs has no engine kernels.
    const tfjs = { name: 'tfjs', threads: 1 } as const;
    expect(estimateStepMs(softmax, { ...tfjs, kernels: { name: 'native', isa: 'avx512' } })).toBe(
      estimateStepMs(softmax, tfjs),
    );
  });

  it("keeps its ±50 % against the converged experiment's records, per cell and instruction set", () => {
    const root = fileURLToPath(
      new URL('../../../../docs/results/long-context-converged/', import.meta.url),
    );
    const cells = new Map<string, number[]>();
    for (const part of ['recall', 'shakespeare'])
      for (const r of readRecords(`${root}${part}`)) {
        const { engine, timing } = r;
        if (engine?.backend !== 'native' || !engine.isa || !timing?.medianStepMs) continue;
        // The records the scales were fitted to (grid/eta.ts NATIVE_SCALES), not later landings.
        if (r.finishedAt > FITTED_ON) continue;
        const estimate = estimateStepMs(r.config, on('native', engine.isa));
        const key = `${part} ${engine.isa} ${r.config.variant} T=${r.config.length}`;
        cells.set(key, [...(cells.get(key) ?? []), timing.medianStepMs / estimate]);
      }
    expect(cells.size).toBeGreaterThanOrEqual(15);
    for (const [key, ratios] of cells) {
      const sorted = ratios.sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      expect([key, median > 2 / 3 && median < 1.5]).toEqual([key, true]);
    }
  });

  it('resolves the kernels the runs get here, or none for tfjs', () => {
    const here = engineBackendInfo('auto');
    expect(etaEngineHere(undefined).kernels).toEqual({ name: here.name, isa: here.isa });
    expect(etaEngineHere({ name: 'wasm', threads: 2, backend: 'wasm' })).toEqual({
      name: 'wasm',
      threads: 2,
      backend: 'wasm',
      kernels: { name: 'wasm', isa: 'f32x4' },
    });
    expect(etaEngineHere({ name: 'tfjs', threads: 1 })).toEqual({ name: 'tfjs', threads: 1 });
  });
});
