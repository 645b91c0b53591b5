import { redactSecrets } from '@boltzmann/ising-core';
import { formatError, hasErrorCode } from '../benchError.js';
import { createBenchRegistry } from '../registry.js';
import { formatDuration } from '../progress.js';
import { runLabel } from '../runGrid.js';
import type { GridRunOptions, RunFailure } from '../runGrid.js';
import { trainRun } from '../trainRun.js';
import type { RunConfig, RunRecord } from '../types.js';

/**
 * Runs queued runs one after another in the calling process (`--workers 0`): same
 * checkpoints and records as the worker pool, stopped by the abort signal.
 */
export async function runInProcess(
  pending: readonly { config: RunConfig; id: string; startStep: number }[],
  options: GridRunOptions,
  done: Map<string, RunRecord>,
  failures: RunFailure[],
): Promise<void> {
  const registry = await createBenchRegistry(options.settings.plugins);
  for (const t of pending) {
    if (options.signal?.aborted) break;
    const label = runLabel(t.config);
    options.progress.start(t.id, label, t.config.steps, t.startStep);
    try {
      const result = await trainRun(t.config, options.settings, registry, {
        onProgress: (p) => options.progress.update(p),
        shouldStop: () => options.signal?.aborted === true,
        warn: (m) =>
          options.progress.log(
            `warning: ${redactSecrets(m, options.settings.samplerSecrets ?? {})}`,
          ),
      });
      if (result === 'stopped') options.progress.end(t.id, 'checkpointed');
      else {
        done.set(t.id, result);
        options.progress.end(
          t.id,
          `${result.metricName} ${result.finalMetric.toFixed(4)} (${formatDuration(result.wallSeconds)})`,
        );
      }
    } catch (error) {
      const code = hasErrorCode(error) ? error.code : 'BENCH_RUN_FAILED';
      const line = redactSecrets(formatError(error), options.settings.samplerSecrets ?? {});
      failures.push({ id: t.id, label, code, message: line.replace(/^error \[[^\]]+\]: /, '') });
      options.progress.end(t.id, `failed: ${line}`);
    }
  }
}
