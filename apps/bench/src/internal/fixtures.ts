import { expandGrid } from '../grid.js';
import { runId } from '../grid.js';
import { parseBenchArgs } from '../options.js';
import type { RunRecord } from '../types.js';

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
    const couplings =
      config.variant === 'boltzmann' || config.variant === 'coupling'
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
