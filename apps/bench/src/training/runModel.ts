// Builds (or restores from a checkpoint) a run's model and trainer, tfjs or the engine, with its
// sampler, behind the few calls the bench makes (runModelTypes.ts).
import {
  combineEvaluations,
  createEngineTrainer,
  createTrainer,
  createTransformer,
  engineModelOf,
  evaluate,
  initBackend,
  loadTransformer,
} from '@boltzmann/attention';
import type { EngineTrainer, Trainer, TrainerOptions, Transformer } from '@boltzmann/attention';
import { meanCouplingByDistance, recordConvergence, usesSampler } from '@boltzmann/ising-core';
import { mergeSecretOptions } from '@boltzmann/ising-core/internal';
import type { SamplerRegistry } from '@boltzmann/ising-core';
import { BenchError } from '../benchError.js';
import { experimentOf } from '../experiments/registry.js';
import { DEFAULT_ENGINE } from '../types.js';
import type { EngineChoice, RunConfig } from '../types.js';
import type { RunEngine } from '../recordTypes.js';
import { hardwareHooks, hardwareRunsOf, hardwareTallies } from './hardwareTallies.js';
import type { HardwareTallies } from './hardwareTallies.js';
import type { TaskData, TrainBatch } from '../experiments/taskData.js';
import { ATTENTION_MAP_SIZE, EVAL_CHUNK_SIZE } from './runModelTypes.js';
import type { RunModel, RunModelState } from './runModelTypes.js';

/** The trainer options of a run: the common ones, and its experiment's own (gpt: warm-up and β2; the other tasks keep the trainer's defaults). */
export function trainerOptionsOf(config: RunConfig): TrainerOptions {
  return {
    lr: config.lr,
    minLrFraction: config.minLrFraction,
    totalSteps: config.steps,
    weightDecay: config.weightDecay,
    clipNorm: config.clipNorm,
    ...experimentOf(config.experiment).trainerOptions?.(config),
  };
}

let backendReady: Promise<unknown> | undefined;

/** How a run reaches its sampler: its credentials (never recorded) and its per-call timeout. */
export interface RunSamplerAccess {
  readonly secrets?: Readonly<Record<string, unknown>>;
  readonly samplerTimeoutMs?: number;
}

/** The run's trainer: the engine's (weights written back on `sync`) or the tfjs one. */
function trainerOf(
  model: Transformer,
  options: TrainerOptions,
  run: RunSamplerAccess,
  engine: EngineChoice,
): Trainer {
  if (engine.name === 'tfjs') return createTrainer(model, options);
  return createEngineTrainer(engineModelOf(model), {
    ...options,
    sync: 'manual',
    threads: engine.threads,
    backend: engine.backend ?? 'auto',
    ...(run.samplerTimeoutMs === undefined ? {} : { samplerTimeoutMs: run.samplerTimeoutMs }),
  });
}

/**
 * The run's sampler, wrapped so that an iterative sampler's convergence figures can be logged
 * per step; undefined for variants without one. It gets its credentials here and only here: the
 * model records the options without them.
 */
function runSampler(
  config: RunConfig,
  registry: SamplerRegistry,
  run: RunSamplerAccess,
  tallies: HardwareTallies,
) {
  if (!usesSampler(config.variant)) return undefined;
  const options = mergeSecretOptions(config.samplerOptions, run.secrets ?? {});
  // The hardware samplers report each call (chain breaks, QPU time, chosen steps) to the run's record.
  const hooks = hardwareHooks(config.sampler, tallies);
  return recordConvergence(registry.require(config.sampler).create({ ...options, ...hooks }));
}

type RunSampler = ReturnType<typeof runSampler>;

/** The sampler fields of the model's options (none without a sampler). */
function samplerPartOf(
  config: RunConfig,
  registry: SamplerRegistry,
  sampler: RunSampler,
  run: RunSamplerAccess,
) {
  return sampler
    ? {
        sampler,
        samplerOptions: config.samplerOptions,
        registry,
        ...(run.samplerTimeoutMs === undefined ? {} : { samplerTimeoutMs: run.samplerTimeoutMs }),
      }
    : {};
}

/** A fresh model of the run, or the checkpoint's, with its trainer (restored from `saved`). */
function buildModel(
  config: RunConfig,
  data: TaskData,
  samplerPart: ReturnType<typeof samplerPartOf>,
  saved: unknown,
  run: RunSamplerAccess,
  engine: EngineChoice,
): { model: Transformer; trainer: Trainer } {
  const trainerOptions = trainerOptionsOf(config);
  if (saved !== undefined) {
    const s = saved as Partial<RunModelState> | null;
    if (!s || typeof s !== 'object' || !s.model || !s.trainer) {
      throw new BenchError('BENCH_CORRUPT_CHECKPOINT', 'checkpoint has no model/trainer state');
    }
    const model = loadTransformer(s.model, samplerPart);
    const trainer = trainerOf(model, trainerOptions, run, engine);
    trainer.restore(s.trainer);
    return { model, trainer };
  }
  const model = createTransformer({
    vocabSize: data.vocabSize,
    outputSize: data.outputSize,
    maxLength: config.length,
    dModel: config.dModel,
    heads: config.heads,
    ...(config.layers ? { layers: config.layers } : {}),
    ffn: config.ffn,
    ffnHidden: config.ffnHidden,
    variant: config.variant,
    beta: config.beta,
    jInit: config.jInit === 0 ? 'zeros' : 'normal',
    jInitStd: config.jInit,
    ...(config.couplingForm ? { couplingForm: config.couplingForm } : {}),
    ...(config.positions ? { positions: config.positions } : {}),
    ...experimentOf(config.experiment).modelOptions?.(config),
    seed: config.seed,
    ...samplerPart,
  });
  return { model, trainer: trainerOf(model, trainerOptions, run, engine) };
}

/**
 * Builds (or, from a checkpoint, rebuilds) the model and trainer of one run.
 *
 * @param config the run config.
 * @param data the run's data (vocabulary and output sizes).
 * @param registry the bench's frozen sampler registry.
 * @param saved the {@link RunModelState} of a checkpoint, to continue from.
 * @param run the sampler's credentials (never recorded) and its per-call timeout.
 * @param engine what trains the run (default: the wasm engine on one thread).
 * @returns the run's model.
 * @throws AttentionError codes (bad config, unknown sampler, corrupt checkpoint weights);
 *   BENCH_CORRUPT_CHECKPOINT when `saved` has no model or trainer state.
 */
export async function createRunModel(
  config: RunConfig,
  data: TaskData,
  registry: SamplerRegistry,
  saved?: unknown,
  run: RunSamplerAccess = {},
  engine: EngineChoice = DEFAULT_ENGINE,
): Promise<RunModel> {
  backendReady ??= initBackend('wasm', { log: () => undefined });
  await backendReady;
  const tallies = hardwareTallies();
  const sampler = runSampler(config, registry, run, tallies);
  let built: { model: Transformer; trainer: Trainer };
  try {
    const samplerPart = samplerPartOf(config, registry, sampler, run);
    built = buildModel(config, data, samplerPart, saved, run, engine);
  } catch (error) {
    // A model that cannot be built or restored leaves no sampler (sockets, workers) behind.
    await sampler?.dispose?.();
    throw error;
  }
  return runModelOf(config, built.model, built.trainer, sampler, tallies);
}

/**
 * The mean coupling at each distance d = 1 … T − 1 of one head's J (the model's
 * `maxLength × maxLength` matrix, of which the run uses the top-left T × T block).
 */
function profileOf(full: ArrayLike<number>, T: number): number[] {
  return Array.from(meanCouplingByDistance(full, T, Math.round(Math.sqrt(full.length))));
}

/** What trains the run: the engine trainer's backend and threads, or the tfjs path. */
function runEngineOf(trainer: Trainer): RunEngine {
  const engine = (trainer as Partial<EngineTrainer>).engine;
  if (engine === undefined) return { name: 'tfjs', line: 'engine: tfjs (--engine tfjs)' };
  const { name, isa, lanes } = engine.backend;
  const line = engine.backendLine;
  return { name: 'wasm', backend: name, isa, lanes, threads: engine.threads, line };
}

/** The {@link RunModel} calls over a built model, its trainer and its sampler. */
function runModelOf(
  config: RunConfig,
  model: Transformer,
  trainer: Trainer,
  sampler: RunSampler,
  tallies: HardwareTallies,
): RunModel {
  // The engine trains in its own memory: the model's variables are brought up to date only
  // before something reads them (evaluation, maps, couplings, a checkpoint).
  let stale = false;
  const current = (): Transformer => {
    if (stale) (trainer as Partial<EngineTrainer>).sync?.();
    stale = false;
    return model;
  };
  return {
    async step(batch) {
      sampler?.drain(); // figures of evaluations or a dry run do not belong to this step
      const { loss, gradNorm, lr } = await trainer.step(batch);
      stale = true;
      return { loss, gradNorm, lr, convergence: sampler?.drain() };
    },
    async prepare(batch) {
      await current().prepare(batch.inputs, batch.inputs.length / config.length);
    },
    async evaluate(batches) {
      // On the engine, where the weights are: no sync, and the engine's kernels, not TF.js's.
      const engine = trainer as Partial<EngineTrainer>;
      const one = engine.evaluate
        ? (b: TrainBatch) => engine.evaluate!(b, { chunkSize: EVAL_CHUNK_SIZE })
        : (b: TrainBatch) => evaluate(current(), b, { chunkSize: EVAL_CHUNK_SIZE });
      const parts = [];
      for (const b of batches) parts.push(await one(b));
      const e = combineEvaluations(parts);
      return { loss: e.loss, correct: e.correct, count: e.count };
    },
    couplings() {
      if (!usesSampler(config.variant)) return null;
      const first = current().couplings()[0];
      return first ? Array.from(first) : null;
    },
    couplingProfile() {
      if (!usesSampler(config.variant)) return null;
      return current()
        .couplings()
        .map((full) => profileOf(full, config.length));
    },
    async attentionMap(tokens) {
      const T = config.length;
      const all = await current().attention(Int32Array.from(tokens.slice(0, T)), 1);
      const size = Math.min(T, ATTENTION_MAP_SIZE);
      // Layer 0, batch 0, head 0 is the first T × T block of the L × B × H × T × T weights.
      const weights: number[] = [];
      for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) weights.push(all[i * T + j]!);
      return { size, weights };
    },
    save: () => ({ model: current().toJSON(), trainer: trainer.state() }),
    scaleLr(factor) {
      trainer.lrScale *= factor;
    },
    engine: () => runEngineOf(trainer),
    hardwareRuns: () => hardwareRunsOf(tallies),
    dispose() {
      trainer.dispose();
      model.dispose();
      void sampler?.dispose?.();
    },
  };
}
