// A run session's checkpoint: everything it needs to resume, written atomically (the format is
// results/checkpointFile.ts's), then handed to the session's onCheckpoint hook (the queue's Redis copy).
import { rmSync } from 'node:fs';
import { writeFileAtomic } from '@boltzmann/ising-core/internal';
import { encodeCheckpoint } from '../results/checkpointFile.js';
import { checkpointPath, legacyCheckpointPath } from '../results/runFiles.js';
import type { Checkpoint } from '../results/runFiles.js';
import { elapsed, gptEvalOf, hardwareSoFar } from './trainSession.js';
import type { TrainSession } from './trainSession.js';

/**
 * Writes the run's checkpoint atomically, then tells `hooks.onCheckpoint` (and waits for it)
 * unless `notify` is false (the one a finished run keeps at its cap: finishRun).
 */
export async function writeCheckpoint(run: TrainSession, notify = true): Promise<void> {
  const c = run.curves;
  const started = performance.now();
  const checkpoint: Checkpoint = {
    version: 1,
    id: run.id,
    config: run.config,
    step: c.step,
    startedAt: c.startedAt,
    elapsedSeconds: elapsed(run),
    trainLoss: c.trainLoss,
    evalMetric: c.evalMetric,
    openLoss: { sum: c.lossSum, count: c.lossCount },
    ...(c.totalConvergence || c.openConvergence
      ? {
          convergence: {
            points: c.convergencePoints,
            open: c.openConvergence,
            total: c.totalConvergence,
          },
        }
      : {}),
    ...gptEvalOf(run),
    ...(c.earlyStop === undefined ? {} : { earlyStop: c.earlyStop }),
    ...hardwareSoFar(run),
    timing: {
      evalSeconds: c.evalSeconds,
      checkpointSeconds: c.checkpointSeconds,
      loopMs: run.loopMs.map((ms) => Math.round(ms * 100) / 100),
    },
    ...(run.continuedFrom === undefined ? {} : { continuedFrom: run.continuedFrom }),
    dataState: run.data.saveState(),
    engine: run.model.save(),
  };
  const dir = run.settings.resultsDir;
  writeFileAtomic(checkpointPath(dir, run.id), encodeCheckpoint(checkpoint));
  // A JSON checkpoint of an earlier release, resumed from, is now behind the new one.
  rmSync(legacyCheckpointPath(dir, run.id), { force: true });
  if (notify) await run.hooks.onCheckpoint?.(checkpoint);
  c.checkpointSeconds += (performance.now() - started) / 1000;
}
