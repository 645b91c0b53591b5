import { echo, mergeConvergence } from '@boltzmann/ising-core';
import type { ConvergenceSummary, SamplerRegistry } from '@boltzmann/ising-core';
import { writeJsonAtomic } from '../results/atomicWrite.js';
import { runId } from '../grid/expandGrid.js';
import { createEngine } from './runTrainer.js';
import type { Engine } from './runTrainer.js';
import { gitCommit } from '../results/gitCommit.js';
import { createTaskData } from '../experiments/taskData.js';
import type { TaskData } from '../experiments/taskData.js';
import {
  checkpointPath,
  modelPath,
  readCheckpoint,
  recordPath,
  rejectCheckpoint,
  removeCheckpoint,
} from '../results/runFiles.js';
import type { Checkpoint } from '../results/runFiles.js';
import type {
  ConvergencePoint,
  CurvePoint,
  GptEval,
  RunConfig,
  RunProgress,
  RunRecord,
  RunSettings,
} from '../types.js';

/** Callbacks of {@link trainRun}. */
export interface TrainHooks {
  /** Called after every step (the caller throttles its display). */
  onProgress?(progress: RunProgress): void;
  /** Polled after every step; when true the run checkpoints and returns `'stopped'`. */
  shouldStop?(): boolean;
  /** Warnings (an unreadable checkpoint, …). */
  warn?(message: string): void;
  /**
   * Called with each checkpoint once its file is written (`bench worker` also stores it in
   * Redis); training waits for it, so a stored checkpoint is never older than the file.
   */
  onCheckpoint?(checkpoint: Checkpoint): void | Promise<void>;
}

/** The metric reported for a dataset from its evaluation: perplexity or accuracy. */
export function finalMetricOf(
  config: RunConfig,
  e: { loss: number; correct: number; count: number },
): number {
  return config.dataset === 'shakespeare'
    ? Math.exp(e.loss)
    : e.count > 0
      ? e.correct / e.count
      : Number.NaN;
}

/**
 * Trains one run of the grid, resuming from its checkpoint when one exists, checkpointing
 * every `settings.checkpointEvery` steps (model weights, optimizer state, data RNG state,
 * step, curves — one atomic file), and writing the finished record atomically.
 *
 * @param config the run config (its hash is the run id).
 * @param settings checkpoint/log cadence and the results directory.
 * @param registry the frozen sampler registry.
 * @param hooks progress and stop callbacks.
 * @returns the record, or `'stopped'` when `shouldStop` asked it to stop (a checkpoint was written).
 * @throws the coded errors of the datasets/attention/ising-core packages.
 * @example
 * const rec = await trainRun(config, { checkpointEvery: 100, logEvery: 10, resultsDir, plugins: [] }, registry);
 */
/**
 * The engine of a run: restored from its checkpoint when that checkpoint fits the run, else
 * fresh. A checkpoint the engine or data cannot take (weights of another shape, a foreign
 * optimizer state) is set aside by path and the run restarts from step 0; it is never trusted.
 */
async function resume(
  config: RunConfig,
  settings: RunSettings,
  registry: SamplerRegistry,
  warn: (message: string) => void = () => undefined,
): Promise<{ engine: Engine; data: TaskData; ckpt: Checkpoint | null }> {
  const id = runId(config);
  const run = {
    secrets: settings.samplerSecrets ?? {},
    ...(settings.samplerTimeoutMs === undefined
      ? {}
      : { samplerTimeoutMs: settings.samplerTimeoutMs }),
  };
  const fresh = async (): Promise<{ engine: Engine; data: TaskData; ckpt: null }> => {
    const data = await createTaskData(config, settings.dataPath);
    return {
      engine: await createEngine(config, data, registry, undefined, run),
      data,
      ckpt: null,
    };
  };
  const ckpt = readCheckpoint(settings.resultsDir, id, warn, true, config);
  if (ckpt === null) return fresh();
  const data = await createTaskData(config, settings.dataPath);
  let engine: Engine | undefined;
  try {
    engine = await createEngine(config, data, registry, ckpt.engine, run);
    data.restoreState(ckpt.dataState);
    return { engine, data, ckpt };
  } catch (error) {
    engine?.dispose();
    // If a fresh engine fails too, the fault is not the checkpoint's: keep it and report that error.
    const started = await fresh();
    const why = error instanceof Error ? error.message : String(error);
    const aside = rejectCheckpoint(settings.resultsDir, id);
    warn(
      `checkpoint ${checkpointPath(settings.resultsDir, id)} does not fit run ${id} (${echo(why, 300)}); set aside as ${aside}, restarting from step 0`,
    );
    return started;
  }
}

/**
 * Trains one run of a grid to its end, the one training loop every executor uses (the local
 * pool's worker processes, `--workers 0`, a queue worker's processor). It resumes from the run's
 * checkpoint in `settings.resultsDir` when one fits the run (else it restarts from step 0 and says
 * why), checkpoints every `settings.checkpointEvery` steps, evaluates every `config.evalEvery`,
 * and writes `runs/<id>.json` (and `models/<id>.json` with `saveModels`) atomically at the end.
 *
 * @param config the run (its hash is the run id).
 * @param settings how it executes: results folder, checkpoint and log intervals, data path,
 *   credentials and the sampler's per-call timeout (never written).
 * @param registry resolves `config.sampler`.
 * @param hooks progress, stop polling, warnings and checkpoint notifications.
 * @returns the finished record, or `'stopped'` when `hooks.shouldStop` asked for a stop (the run
 *   checkpointed first).
 * @throws the packages' coded errors (bad data, a sampler's failure or timeout, …).
 */
export async function trainRun(
  config: RunConfig,
  settings: RunSettings,
  registry: SamplerRegistry,
  hooks: TrainHooks = {},
): Promise<RunRecord | 'stopped'> {
  const id = runId(config);
  const { engine, data, ckpt } = await resume(config, settings, registry, hooks.warn);
  try {
    let step = ckpt?.step ?? 0;
    const startedAt = ckpt?.startedAt ?? new Date().toISOString();
    const previousSeconds = ckpt?.elapsedSeconds ?? 0;
    const trainLoss: CurvePoint[] = [...(ckpt?.trainLoss ?? [])];
    const evalMetric: CurvePoint[] = [...(ckpt?.evalMetric ?? [])];
    let lossSum = ckpt?.openLoss?.sum ?? 0;
    let lossCount = ckpt?.openLoss?.count ?? 0;
    const convergencePoints: ConvergencePoint[] = [...(ckpt?.convergence?.points ?? [])];
    const gptTrain: CurvePoint[] = [...(ckpt?.gptEval?.train ?? [])];
    const gptVal: CurvePoint[] = [...(ckpt?.gptEval?.val ?? [])];
    /** An evaluation: the val set (every task), and for gpt the train set beside it. */
    const evaluateAt = async (
      at: number,
    ): Promise<{ loss: number; correct: number; count: number }> => {
      const e = await engine.evaluate(data.evalBatches);
      evalMetric.push({ step: at, value: finalMetricOf(config, e) });
      if (data.trainEvalBatches) {
        gptTrain.push({ step: at, value: (await engine.evaluate(data.trainEvalBatches)).loss });
        gptVal.push({ step: at, value: e.loss });
      }
      return e;
    };
    const gptEval = (): { gptEval?: GptEval } =>
      data.trainEvalBatches ? { gptEval: { train: gptTrain, val: gptVal } } : {};
    let openConvergence: ConvergenceSummary | undefined = ckpt?.convergence?.open;
    let totalConvergence: ConvergenceSummary | undefined = ckpt?.convergence?.total;
    const sessionStart = performance.now();
    const sessionStartStep = step;
    const elapsed = (): number => previousSeconds + (performance.now() - sessionStart) / 1000;
    const checkpoint = async (): Promise<void> => {
      const c: Checkpoint = {
        version: 1,
        id,
        config,
        step,
        startedAt,
        elapsedSeconds: elapsed(),
        trainLoss,
        evalMetric,
        openLoss: { sum: lossSum, count: lossCount },
        ...(totalConvergence || openConvergence
          ? {
              convergence: {
                points: convergencePoints,
                open: openConvergence,
                total: totalConvergence,
              },
            }
          : {}),
        ...gptEval(),
        dataState: data.saveState(),
        engine: engine.save(),
      };
      writeJsonAtomic(checkpointPath(settings.resultsDir, id), c, true);
      await hooks.onCheckpoint?.(c);
    };
    // nanoGPT's protocol evaluates before the first step too, so a gpt curve starts at the
    // untrained model's loss (about ln 65 per character).
    if (step === 0 && data.trainEvalBatches && evalMetric.length === 0) await evaluateAt(0);
    while (step < config.steps) {
      const { loss, convergence } = await engine.step(data.next(config.batchSize));
      step += 1;
      lossSum += loss;
      lossCount += 1;
      openConvergence = mergeConvergence(openConvergence, convergence);
      if (step % settings.logEvery === 0 || step === config.steps) {
        // Mean of the interval: a smoother curve than one noisy batch, same cost.
        trainLoss.push({ step, value: lossSum / lossCount });
        lossSum = 0;
        lossCount = 0;
        if (openConvergence) {
          convergencePoints.push({ step, ...openConvergence });
          totalConvergence = mergeConvergence(totalConvergence, openConvergence);
          openConvergence = undefined;
        }
      }
      if (step % config.evalEvery === 0 && step < config.steps) {
        await evaluateAt(step);
      }
      const sessionSeconds = (performance.now() - sessionStart) / 1000;
      hooks.onProgress?.({
        id,
        step,
        steps: config.steps,
        loss,
        stepsPerSecond: sessionSeconds > 0 ? (step - sessionStartStep) / sessionSeconds : 0,
        ...(convergence ? { convergence } : {}),
      });
      // A synchronous sampler makes every await resolve at once: yield to the event loop so
      // stop messages, signals and IPC are seen between steps.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const stop = hooks.shouldStop?.() === true;
      // The open loss interval is saved with the checkpoint, not closed: a resumed run's curve
      // is then the curve of an uninterrupted one.
      if (step < config.steps && (stop || step % settings.checkpointEvery === 0))
        await checkpoint();
      if (stop && step < config.steps) return 'stopped';
    }
    const final = await evaluateAt(step);
    const finalMetric = finalMetricOf(config, final);
    const wallSeconds = elapsed();
    const record: RunRecord = {
      id,
      config,
      gitCommit: gitCommit(),
      startedAt,
      finishedAt: new Date().toISOString(),
      metricName: config.dataset === 'shakespeare' ? 'perplexity' : 'accuracy',
      finalMetric,
      finalLoss: final.loss,
      trainLoss,
      evalMetric,
      wallSeconds,
      stepsPerSecond: wallSeconds > 0 ? config.steps / wallSeconds : 0,
      ...gptEval(),
      couplings: engine.couplings(),
      couplingProfile: engine.couplingProfile(),
      attentionMap: await engine.attentionMap(Array.from(data.evalBatches[0]!.inputs)),
      ...(totalConvergence
        ? { convergence: { points: convergencePoints, total: totalConvergence } }
        : {}),
    };
    // The model first: a record without its requested model would make the rerun skip the run.
    if (settings.saveModels)
      writeJsonAtomic(modelPath(settings.resultsDir, id), {
        id,
        config,
        model: engine.save().model,
      });
    writeJsonAtomic(recordPath(settings.resultsDir, id), record);
    removeCheckpoint(settings.resultsDir, id);
    return record;
  } finally {
    engine.dispose();
  }
}
