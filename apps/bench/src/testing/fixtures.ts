import { usesSampler } from '@boltzmann/ising-core';
import { expandGrid } from '../grid/expandGrid.js';
import { runId } from '../grid/expandGrid.js';
import { BenchError } from '../benchError.js';
import { main } from '../cli/main.js';
import { parseBenchArgs } from '../cli/parseArgs.js';
import type { ProgressDisplay } from '../grid/progress.js';
import type { RunProgress } from '../types.js';
import type { RunRecord } from '../recordTypes.js';

/**
 * Synthetic finished-run records for tests of the summary, plots and report: the real grid
 * expansion of `argv`, with `metric(config)` as the final metric and a distance-shaped J.
 */
export function syntheticRecords(
  argv: string[],
  metric: (c: RunRecord['config']) => number,
): RunRecord[] {
  return expandGrid(parseBenchArgs(argv, () => undefined)!).map((config) => {
    const T = config.length;
    const couplings = usesSampler(config.variant)
      ? Array.from({ length: T * T }, (_, k) => {
          const j = Math.floor(k / T);
          const l = k % T;
          return l > j ? (l - j <= 3 ? 0.1 * (l - j) : -0.05) + 0.001 * config.seed : 0;
        })
      : null;
    const value = metric(config);
    return {
      id: runId(config),
      config,
      gitCommit: null,
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:01:00.000Z',
      metricName: config.dataset === 'shakespeare' ? 'perplexity' : 'accuracy',
      finalMetric: value,
      finalLoss: config.dataset === 'shakespeare' ? Math.log(value) : 0.5,
      trainLoss: [
        { step: 10, value: 3 },
        { step: 20, value: 2.5 },
      ],
      evalMetric: [
        { step: 10, value: value * 1.1 },
        { step: 20, value },
      ],
      wallSeconds: 60,
      stepsPerSecond: 1,
      couplings,
    };
  });
}

/**
 * The flags of one tiny in-process run for tests: `steps` steps of an 8-wide model without FFN,
 * batch 4, 8 validation windows, evaluated once at the end, no worker processes.
 */
export function tinyRunFlags(steps: number): string[] {
  const s = String(steps);
  return [
    '--steps',
    s,
    '--d-model',
    '8',
    '--ffn',
    'off',
    '--batch-size',
    '4',
    '--eval-windows',
    '8',
    '--eval-every',
    s,
    '--workers',
    '0',
  ];
}

/**
 * The flags of a tiny real Tiny Shakespeare grid for tests: softmax and sigmoid at T = 4, an
 * 8-wide model without FFN, batch 8, 16 validation windows, a train-loss point every 5 steps.
 */
export function tinyShakespeareArgs(
  resultsDir: string,
  o: { steps: number; evalEvery: number; checkpointEvery: number; seeds?: string },
): string[] {
  return [
    'shakespeare',
    '--lengths',
    '4',
    '--variants',
    'softmax,sigmoid',
    ...(o.seeds === undefined ? [] : ['--seeds', o.seeds]),
    '--steps',
    String(o.steps),
    '--d-model',
    '8',
    '--ffn',
    'off',
    '--batch-size',
    '8',
    '--eval-windows',
    '16',
    '--eval-every',
    String(o.evalEvery),
    '--checkpoint-every',
    String(o.checkpointEvery),
    '--log-every',
    '5',
    '--results',
    resultsDir,
  ];
}

/** A progress display that records what the grid showed. */
export function progressRecorder(onUpdate?: (p: RunProgress) => void) {
  const starts: { id: string; startStep: number }[] = [];
  const ends: { id: string; status: string }[] = [];
  const lines: string[] = [];
  const progress: ProgressDisplay = {
    start: (id, _label, _steps, startStep) => void starts.push({ id, startStep }),
    update: (p) => onUpdate?.(p),
    end: (id, status) => void ends.push({ id, status }),
    log: (l) => void lines.push(l),
    stop: () => undefined,
  };
  return { starts, ends, lines, progress };
}

/** A progress display that shows nothing. */
export const quiet: ProgressDisplay = {
  start: () => undefined,
  update: () => undefined,
  end: () => undefined,
  log: () => undefined,
  stop: () => undefined,
};

/** Runs `bench …argv` in process, quietly: the exit code and everything it printed. */
export async function bench(...argv: string[]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await main(argv, {
    out: (l) => void lines.push(l),
    err: (l) => void lines.push(l),
    progress: quiet,
  });
  return { code, text: lines.join('\n') };
}

/**
 * Source of `fixedSamples(batch)` for plugin files the tests write: two weighted states per
 * problem (all up, 3×; alternating, 1×), a valid `sample` answer that costs nothing.
 */
export const FIXED_SAMPLES_JS = `function fixedSamples(batch) {
  const sets = [];
  for (let q = 0; q < batch.size; q++) {
    const n = batch.spins[q];
    const states = new Int8Array(2 * n).fill(1);
    for (let j = 0; j < n; j++) states[n + j] = j % 2 ? 1 : -1;
    sets.push({ spins: n, states, weights: Float64Array.of(3, 1) });
  }
  return { kind: 'samples', sets };
}`;

/** `CODE: message` of the BenchError `f` throws, or undefined when it throws none (other errors rethrown). */
export function benchErrorText(f: () => unknown): string | undefined {
  try {
    f();
  } catch (error) {
    if (error instanceof BenchError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return undefined;
}
