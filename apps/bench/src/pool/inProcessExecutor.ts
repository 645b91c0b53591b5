import { rmSync } from 'node:fs';
import { redactSecrets } from '@boltzmann/ising-core/internal';
import type { SamplerRegistry } from '@boltzmann/ising-core';
import { formatError, hasErrorCode } from '../benchError.js';
import { catchStrays, strayText } from './strayErrors.js';
import type { Stray } from './strayErrors.js';
import { formatDuration } from '../grid/progress.js';
import { modelPath, recordPath } from '../results/runFiles.js';
import { runLabel } from '../grid/expandGrid.js';
import { runOrder } from '../grid/eta.js';
import { logEngineLine } from '../grid/engineLine.js';
import { runDetail } from '../grid/whatRuns.js';
import { gridOutcome, localPlanLine } from '../grid/plan.js';
import type {
  GridExecutor,
  GridOptions,
  PendingRun,
  PlannedGrid,
  RunFailure,
} from '../grid/types.js';
import { trainRun } from '../training/trainRun.js';
import type { RunRecord } from '../recordTypes.js';

/** How long a run hit by a stray error may take to reach its next step (and stop) before it is given up. */
export const STRAY_GRACE_MS = 5000;

/** The run a stray error is charged to, and how to tell its waiter. */
interface Slot {
  stray?: Stray;
  wake?: () => void;
}

/**
 * The executor of a grid in the calling process (`--workers 0`, debugging and tests): the runs
 * one after another in runOrder's order (resumed runs, then the longest first), with the same
 * checkpoints and records as the worker pool, stopped by the abort signal.
 *
 * @param options run settings, progress display, stop signal.
 * @param registry the command's sampler registry (its plugins already loaded), which the runs share.
 * @example
 * const outcome = await runGrid(expandGrid(cmd), inProcessExecutor(options, registry), options);
 */
export function inProcessExecutor(options: GridOptions, registry: SamplerRegistry): GridExecutor {
  return {
    resumesLocalCheckpoints: true,
    slots: () => 0,
    announce: async (grid, etaSeconds) =>
      localPlanLine(grid, etaSeconds, 'in-process (no workers)'),
    run: async (grid) => {
      const failures: RunFailure[] = [];
      await runInProcess(runOrder(grid.pending), options, registry, grid.done, failures);
      options.progress.stop();
      return gridOutcome(grid, failures, options.signal?.aborted === true);
    },
  };
}

/**
 * Runs the pending runs one after another in the calling process, stopped by the abort signal.
 *
 * An error thrown or rejected outside a run's promise chain while it trains (a plugin's timer,
 * a promise nobody awaited) fails that run (BENCH_RUN_FAILED, saying so) instead of killing the
 * process: the run checkpoints and stops at its next step, and writes no record. If it does not
 * stop within {@link STRAY_GRACE_MS}, it is given up and the remaining runs are not started.
 */
async function runInProcess(
  pending: readonly PendingRun[],
  options: GridOptions,
  registry: SamplerRegistry,
  done: PlannedGrid['done'],
  failures: RunFailure[],
): Promise<void> {
  let slot: Slot | undefined;
  const secrets = options.settings.samplerSecrets ?? {};
  const release = catchStrays((stray) => {
    if (slot) {
      slot.stray ??= stray;
      slot.wake?.();
    } else
      options.progress.log(
        redactSecrets(`warning: between runs, ${strayText(stray)}; ignored`, secrets),
      );
  });
  let givenUp: { label: string; training: Promise<unknown> } | undefined;
  try {
    for (const t of pending) {
      if (options.signal?.aborted) break;
      if (givenUp) {
        const message = `not run: run ${givenUp.label} was given up still in flight in this process; rerun the grid`;
        failures.push({ id: t.id, label: runLabel(t.config), code: 'BENCH_RUN_FAILED', message });
        continue;
      }
      slot = {};
      const inFlight = await runOne(t, options, registry, slot, done, failures);
      slot = undefined;
      if (inFlight) givenUp = { label: runLabel(t.config), training: inFlight.training };
    }
  } finally {
    // A run given up may still throw from its timers: keep catching until it settles (if ever).
    if (givenUp) void givenUp.training.finally(release);
    else release();
  }
}

/**
 * Trains one run, charging stray errors to `slot`.
 *
 * @returns the run's training when it was given up still in flight (boxed: an async function
 *   returning a bare promise would wait for it), else undefined.
 */
async function runOne(
  t: PendingRun,
  options: GridOptions,
  registry: SamplerRegistry,
  slot: Slot,
  done: Map<string, RunRecord>,
  failures: RunFailure[],
): Promise<{ training: Promise<unknown> } | undefined> {
  const label = runLabel(t.config);
  const secrets = options.settings.samplerSecrets ?? {};
  // The start line waits for the run's own verdict on its checkpoint (trainRun's onStart).
  let started = false;
  let engineLine: string | undefined;
  const begin = (startStep: number): void => {
    const detail = runDetail(t.config, engineLine);
    if (!started) options.progress.start(t.id, label, t.config.steps, startStep, detail);
    started = true;
  };
  const fail = (code: string, line: string): void => {
    begin(0);
    const redacted = redactSecrets(line, secrets);
    failures.push({ id: t.id, label, code, message: redacted.replace(/^error \[[^\]]+\]: /, '') });
    options.progress.end(t.id, `failed: ${redacted}`);
  };
  const training = trainRun(t.config, options.settings, registry, {
    onProgress: (p) => options.progress.update(p),
    // A stray error stops the run at its next step, as Ctrl-C does (it checkpoints).
    shouldStop: () => options.signal?.aborted === true || slot.stray !== undefined,
    warn: (m) => options.progress.log(`warning: ${redactSecrets(m, secrets)}`),
    onStart: (startStep, engine) => {
      logEngineLine(options.progress, engine);
      engineLine = engine;
      begin(startStep);
    },
  }).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  const settled = await new Promise<Awaited<typeof training> | 'given up'>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    slot.wake = () => {
      timer ??= setTimeout(() => resolve('given up'), STRAY_GRACE_MS);
    };
    if (slot.stray) slot.wake();
    void training.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
  if (slot.stray) {
    if (settled !== 'given up' && 'result' in settled && settled.result !== 'stopped') {
      // It finished while the error came in: no record of a failed run (the rerun trains it).
      rmSync(recordPath(options.settings.resultsDir, t.id), { force: true });
      rmSync(modelPath(options.settings.resultsDir, t.id), { force: true });
    }
    const after =
      settled === 'given up'
        ? `; the run did not stop within ${STRAY_GRACE_MS / 1000} s and was given up`
        : '; the run was stopped at its last checkpoint';
    fail('BENCH_RUN_FAILED', `error [BENCH_RUN_FAILED]: ${strayText(slot.stray)}${after}`);
    return settled === 'given up' ? { training } : undefined;
  }
  if (settled === 'given up') return { training }; // unreachable: only a stray error gives up
  if ('error' in settled) {
    const { error } = settled;
    fail(hasErrorCode(error) ? error.code : 'BENCH_RUN_FAILED', formatError(error));
  } else if (settled.result === 'stopped') options.progress.end(t.id, 'checkpointed');
  else {
    done.set(t.id, settled.result);
    options.progress.end(
      t.id,
      `${settled.result.metricName} ${settled.result.finalMetric.toFixed(4)} (${formatDuration(settled.result.wallSeconds)})`,
    );
  }
  return undefined;
}
