// The end of a run: its final evaluation (or, when early stopping ended it, its best one), the
// record, the saved model, and its checkpoint removed.
import { currentEnvironment } from '../results/environment.js';
import { gitCommit } from '../results/gitCommit.js';
import { writeJsonAtomic } from '../results/atomicWrite.js';
import { modelPath, recordPath, removeCheckpoint } from '../results/runFiles.js';
import { encodeSavedModel } from '../results/savedModelFile.js';
import { writeFileAtomic } from '@boltzmann/ising-core/internal';
import type { RunRecord, RunTiming } from '../recordTypes.js';
import { median } from '../report/stats.js';
import { earlyStopRecordOf } from './earlyStop.js';
import { capIndependent } from '../grid/capFamily.js';
import { writeCheckpoint } from './sessionCheckpoint.js';
import {
  closeInterval,
  hardwareSoFar,
  elapsed,
  evaluateAt,
  finalMetricOf,
  gptEvalOf,
  metricOf,
} from './trainSession.js';
import type { TrainSession } from './trainSession.js';

/** Where the run's wall time went (see {@link RunTiming}). */
function timingOf(run: TrainSession, wallSeconds: number): RunTiming {
  const { evalSeconds, checkpointSeconds } = run.curves;
  const medianStepMs = median(run.loopMs);
  return {
    stepSeconds: Math.max(0, wallSeconds - evalSeconds - checkpointSeconds),
    evalSeconds,
    checkpointSeconds,
    ...(medianStepMs === undefined ? {} : { medianStepMs }),
  };
}

/**
 * The metric and loss the record reports, and its `earlyStop`. A run that trained its steps is
 * evaluated once more at the end; one that early stopping ended (before its cap) was evaluated at
 * that step already. With early stopping the reported figures are the best evaluation's.
 */
async function finalFigures(run: TrainSession) {
  const { config, curves: c } = run;
  const stoppedEarly = c.step < config.steps;
  if (stoppedEarly) closeInterval(run);
  const final = stoppedEarly ? undefined : await evaluateAt(run, c.step);
  const settings = config.earlyStop;
  if (settings === undefined || c.earlyStop === undefined)
    return {
      finalMetric: finalMetricOf(config, final!),
      finalLoss: final!.loss,
      earlyStop: undefined,
    };
  return {
    finalMetric: c.earlyStop.bestValue,
    finalLoss: c.earlyStop.bestLoss,
    earlyStop: earlyStopRecordOf(settings, c.earlyStop, stoppedEarly ? c.step : null),
  };
}

/**
 * Whether a finished run keeps its checkpoint at its cap, for a run of its cap family with a
 * higher cap to continue (grid/capFamily.ts): it trained to its cap, its schedule does not
 * depend on the cap, and an uncapped run would have evaluated and closed its loss interval at that
 * step as this one did.
 */
function keepsCapCheckpoint(run: TrainSession): boolean {
  const { config, settings, curves: c } = run;
  return (
    capIndependent(config) &&
    c.step === config.steps &&
    config.steps % config.evalEvery === 0 &&
    config.steps % settings.logEvery === 0
  );
}

/**
 * Ends a run that trained all its steps, or that early stopping ended: the final evaluation, the
 * model (`saveModels`), the record, and its checkpoint removed (or, at a cap-independent run's
 * cap, kept: {@link keepsCapCheckpoint}).
 */
export async function finishRun(run: TrainSession): Promise<RunRecord> {
  const { config, settings, model, id, curves: c } = run;
  const { earlyStop, ...figures } = await finalFigures(run);
  // Kept before anything else touches the model (the attention map calls its sampler).
  const keep = keepsCapCheckpoint(run);
  if (keep) await writeCheckpoint(run, false);
  const wallSeconds = elapsed(run);
  const record: RunRecord = {
    id,
    config,
    gitCommit: gitCommit(),
    startedAt: c.startedAt,
    finishedAt: new Date().toISOString(),
    metricName: metricOf(config).name,
    ...figures,
    trainLoss: c.trainLoss,
    evalMetric: c.evalMetric,
    wallSeconds,
    stepsPerSecond: wallSeconds > 0 ? c.step / wallSeconds : 0,
    timing: timingOf(run, wallSeconds),
    ...gptEvalOf(run),
    couplings: model.couplings(),
    couplingProfile: model.couplingProfile(),
    attentionMap: await model.attentionMap(Array.from(run.data.evalBatches[0]!.inputs)),
    ...(model.engine === undefined ? {} : { engine: model.engine() }),
    environment: currentEnvironment(settings.workers),
    ...(c.totalConvergence
      ? { convergence: { points: c.convergencePoints, total: c.totalConvergence } }
      : {}),
    ...(earlyStop === undefined ? {} : { earlyStop }),
    ...(run.continuedFrom === undefined ? {} : { continuedFrom: run.continuedFrom }),
    // Last: the attention map above calls the sampler too.
    ...hardwareSoFar(run),
  };
  // The model first: a record without its requested model would make the rerun skip the run.
  if (settings.saveModels)
    writeFileAtomic(
      modelPath(settings.resultsDir, id),
      encodeSavedModel(id, config, model.save().model),
    );
  writeJsonAtomic(recordPath(settings.resultsDir, id), record);
  await run.tracker.finish(record);
  if (!keep) removeCheckpoint(settings.resultsDir, id);
  // The family run this one continued is behind it now: its checkpoint goes.
  if (run.continuedFrom) removeCheckpoint(settings.resultsDir, run.continuedFrom.id);
  return record;
}
