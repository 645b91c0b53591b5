import { echo } from '@boltzmann/ising-core/internal';
import type { SamplerRegistry } from '@boltzmann/ising-core';
import { runId } from '../grid/expandGrid.js';
import { createTaskData } from '../experiments/taskData.js';
import type { TaskData } from '../experiments/taskData.js';
import { checkpointPath, readCheckpoint, rejectCheckpoint } from '../results/runFiles.js';
import { familyCheckpoint } from '../grid/capFamily.js';
import type { Checkpoint } from '../results/runFiles.js';
import { DEFAULT_ENGINE } from '../types.js';
import type { RunConfig, RunSettings } from '../types.js';
import type { RunRecord } from '../recordTypes.js';
import { createRunModel } from './runModel.js';
import type { RunModel } from './runModelTypes.js';
import { onPlateau, outOfPatience } from './earlyStop.js';
import { finishRun } from './finishRun.js';
import { evaluateAt, markLoop, recordStep, sessionRate, startSession } from './trainSession.js';
import { writeCheckpoint } from './sessionCheckpoint.js';
import type { TrainHooks, TrainSession } from './trainSession.js';

export { finalMetricOf } from './trainSession.js';
export type { TrainHooks } from './trainSession.js';

/**
 * The model of a run: restored from its checkpoint when that checkpoint fits the run, else
 * fresh. A checkpoint the model or data cannot take (weights of another shape, a foreign
 * optimizer state) is set aside by path and the run restarts from step 0; it is never trusted.
 */
async function resume(
  config: RunConfig,
  settings: RunSettings,
  registry: SamplerRegistry,
  warn: (message: string) => void = () => undefined,
): Promise<{ model: RunModel; data: TaskData; ckpt: Checkpoint | null }> {
  const id = runId(config);
  const run = {
    secrets: settings.samplerSecrets ?? {},
    ...(settings.samplerTimeoutMs === undefined
      ? {}
      : { samplerTimeoutMs: settings.samplerTimeoutMs }),
  };
  const engine = settings.engine ?? DEFAULT_ENGINE;
  const fresh = async (): Promise<{ model: RunModel; data: TaskData; ckpt: null }> => {
    const data = await createTaskData(config, settings.dataPath);
    return {
      model: await createRunModel(config, data, registry, undefined, run, engine),
      data,
      ckpt: null,
    };
  };
  // No checkpoint of its own: the run may continue its cap family's (grid/capFamily.ts).
  const ckpt =
    readCheckpoint(settings.resultsDir, id, warn, true, config) ??
    familyCheckpoint(settings.resultsDir, config, warn);
  if (ckpt === null) return fresh();
  const data = await createTaskData(config, settings.dataPath);
  let model: RunModel | undefined;
  try {
    model = await createRunModel(config, data, registry, ckpt.engine, run, engine);
    data.restoreState(ckpt.dataState);
    return { model, data, ckpt };
  } catch (error) {
    model?.dispose();
    // If a fresh model fails too, the fault is not the checkpoint's: keep it and report that error.
    const started = await fresh();
    const why = error instanceof Error ? error.message : String(error);
    if (ckpt.id !== id) {
      warn(
        `checkpoint ${checkpointPath(settings.resultsDir, ckpt.id)} of this run's cap family does not fit run ${id} (${echo(why, 300)}); starting from step 0`,
      );
      return started;
    }
    const aside = rejectCheckpoint(settings.resultsDir, id);
    warn(
      `checkpoint ${checkpointPath(settings.resultsDir, id)} does not fit run ${id} (${echo(why, 300)}); set aside as ${aside}, restarting from step 0`,
    );
    return started;
  }
}

/**
 * Early stopping after an evaluation at `step`: out of patience, the run decays its rate (while
 * it has decays left) and goes on, or ends here (true), its record reporting its best evaluation.
 */
function plateauEnds(run: TrainSession, step: number): boolean {
  const { curves, config } = run;
  if (!outOfPatience(curves.earlyStop, config.earlyStop)) return false;
  const next = onPlateau(curves.earlyStop!, config.earlyStop!, step);
  if (next.lrFactor === null) return true;
  curves.earlyStop = next.state;
  run.model.scaleLr(next.lrFactor);
  return false;
}

/**
 * Trains one run of a grid to its end, the one training loop every executor uses (the local
 * pool's worker processes, `--workers 0`, a queue worker's processor). It resumes from the run's
 * checkpoint in `settings.resultsDir` when one fits the run (else it restarts from step 0 and says
 * why) or, without one, continues its cap family's latest (grid/capFamily.ts), checkpoints
 * every `settings.checkpointEvery` steps, evaluates every `config.evalEvery`,
 * and writes `runs/<id>.json` (and `models/<id>.safetensors` with `saveModels`) atomically at the end.
 *
 * @param config the run (its hash is the run id).
 * @param settings how it executes: results folder, checkpoint and log intervals, data path,
 *   credentials and the sampler's per-call timeout (never written).
 * @param registry resolves `config.sampler`.
 * @param hooks progress, stop polling, warnings and checkpoint notifications.
 * @returns the finished record, or `'stopped'` when `hooks.shouldStop` asked for a stop (the run
 *   checkpointed first).
 * @throws the packages' coded errors (bad data, a sampler's failure or timeout, …).
 * @example
 * const rec = await trainRun(config, { checkpointEvery: 100, logEvery: 10, resultsDir, plugins: [] }, registry);
 */
export async function trainRun(
  config: RunConfig,
  settings: RunSettings,
  registry: SamplerRegistry,
  hooks: TrainHooks = {},
): Promise<RunRecord | 'stopped'> {
  const { model, data, ckpt } = await resume(config, settings, registry, hooks.warn);
  let run: TrainSession | undefined;
  try {
    hooks.onStart?.(ckpt?.step ?? 0, model.engine?.().line);
    run = startSession(config, settings, model, data, ckpt, hooks);
    const { curves } = run;
    // nanoGPT's protocol evaluates before the first step too, so a gpt curve starts at the
    // untrained model's loss (about ln 65 per character).
    if (curves.step === 0 && data.trainEvalBatches && curves.evalMetric.length === 0)
      await evaluateAt(run, 0);
    // A family run's checkpoint kept at its cap was written after that step's evaluation and
    // before early stopping looked at it: look now, as an uncapped run would have there.
    const atFamilyCap = ckpt !== null && ckpt.id !== run.id && ckpt.step === ckpt.config.steps;
    let ended = atFamilyCap && plateauEnds(run, curves.step);
    while (!ended && curves.step < config.steps) {
      const result = await model.step(data.next(config.batchSize));
      const { loss, convergence } = result;
      const step = recordStep(run, result);
      if (step % config.evalEvery === 0 && step < config.steps) await evaluateAt(run, step);
      hooks.onProgress?.({
        id: run.id,
        step,
        steps: config.steps,
        loss,
        stepsPerSecond: sessionRate(run),
        ...(convergence ? { convergence } : {}),
      });
      ended = plateauEnds(run, step);
      if (ended) break;
      // A synchronous sampler makes every await resolve at once: yield to the event loop so
      // stop messages, signals and IPC are seen between steps.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const stop = hooks.shouldStop?.() === true;
      // The open loss interval is saved with the checkpoint, not closed: a resumed run's curve
      // is then the curve of an uninterrupted one.
      if (step < config.steps && (stop || step % settings.checkpointEvery === 0))
        await writeCheckpoint(run);
      if (stop && step < config.steps) return 'stopped';
      markLoop(run);
    }
    return await finishRun(run);
  } finally {
    model.dispose();
    await run?.tracker.close();
  }
}
