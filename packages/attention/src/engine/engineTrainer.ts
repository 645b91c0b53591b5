/**
 * The engine's trainer: a {@link Trainer} of a model given as its configuration and weights
 * ({@link EngineModel}). It copies the weights into the arena once, trains there (forward,
 * backward, clipping and AdamW in one flat pass) and hands the trained weights to the model's
 * `onSync` after every step (`sync: 'step'`, the default) or when asked (`sync: 'manual'` and
 * {@link EngineTrainer.sync}). A tfjs `Transformer` becomes an `EngineModel` through
 * `engineModelOf` (tfjs/engineModelOf.ts), whose `onSync` writes into the model's variables, so the
 * model, `evaluate`, `toJSON` and checkpoints keep working.
 */
import { AttentionError } from '../core/errors.js';
import { clipScale } from '../model/adamW.js';
import { evaluationChunk, evaluationOf, scoreRows } from '../model/evaluation.js';
import type { Evaluation, EvaluationSums } from '../model/evaluation.js';
import { serialQueue } from '../model/serialSteps.js';
import { checkBatch } from '../model/tokenBatch.js';
import type { TokenBatch } from '../model/tokenBatch.js';
import {
  checkedMoments,
  lrSchedule,
  resolveTrainerOptions,
  savedLrScale,
} from '../model/trainerOptions.js';
import type {
  EngineModel,
  EngineWeights,
  Trainer,
  TrainerOptions,
  TrainStepResult,
} from '../model/trainerTypes.js';
import { createEngine } from './engine.js';
import type { Engine, EngineOptions } from './engineApi.js';

export type { EngineModel, EngineWeights } from '../model/trainerTypes.js';

/**
 * Options of {@link createEngineTrainer}: the trainer's, and when the weights go back to the model.
 *
 * @category Engine
 */
export interface EngineTrainerOptions extends TrainerOptions {
  /** When the model's `onSync` gets the weights: `'step'` (default), after every step; `'manual'`, only in {@link EngineTrainer.sync}. */
  readonly sync?: 'step' | 'manual';
  /** The longest wait for an asynchronous sampler's answer (default 30 minutes). */
  readonly samplerTimeoutMs?: number;
  /** Threads of a step (default 1): see the engine's `threads`. */
  readonly threads?: number;
  /** `'auto'` (default), `'native'` or `'wasm'`: see the engine's `backend`. */
  readonly backend?: EngineOptions['backend'];
}

/**
 * A trainer on the engine.
 *
 * @category Engine
 */
export interface EngineTrainer extends Trainer {
  /** The engine the steps run on. */
  readonly engine: Engine;
  /** The current weights, by name (copies). */
  weights(): Record<string, Float32Array>;
  /** Hands the current weights to the model's `onSync` (nothing without one). */
  sync(): void;
  /**
   * Loss and accuracy of the current weights on `batch`, on the engine (one thread, no dropout,
   * no update; the sampler answers as in a step): what the tfjs `evaluate` gives on the synced
   * model, to float32 rounding, without syncing. Runs between steps, never during one.
   *
   * @throws {AttentionError} the batch errors of `step`; ATTENTION_INVALID_ARGUMENT for a bad chunk size.
   */
  evaluate(batch: TokenBatch, options?: { chunkSize?: number }): Promise<Evaluation>;
}

/** The engine's evaluation of `batch`, `chunk` sequences a forward pass. */
async function engineEvaluation(
  engine: Engine,
  config: EngineModel['config'],
  batch: TokenBatch,
  chunk: number,
): Promise<Evaluation> {
  const { batchSize, mask, targets } = checkBatch(config, batch);
  const t = batch.inputs.length / batchSize;
  const ids = Int32Array.from(batch.inputs);
  const sums: EvaluationSums = { lossSum: 0, weight: 0, correct: 0, count: 0 };
  for (let start = 0; start < batchSize; start += chunk) {
    const b = Math.min(chunk, batchSize - start);
    const inputs = ids.subarray(start * t, (start + b) * t);
    const rows = await engine.logits({ inputs, batchSize: b });
    const chunkRows = { rows, classes: config.outputSize, from: start * t, normalized: false };
    scoreRows(sums, chunkRows, targets, mask);
  }
  return evaluationOf(sums);
}

/**
 * Copies the model's weights into the engine's parameters.
 *
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT when a parameter is missing or has the wrong
 *   size, or a weight is not one of the config's parameters.
 */
function load(engine: Engine, weights: EngineWeights): void {
  const { slots } = engine.params;
  const known = new Set(slots.map((s) => s.name));
  const extra = Object.keys(weights).filter((name) => !known.has(name));
  if (extra.length > 0)
    throw new AttentionError(
      'ATTENTION_INVALID_ARGUMENT',
      `weights has ${extra.length} parameters the config does not have: ${extra.join(', ')}`,
    );
  for (const s of slots) {
    const values = weights[s.name];
    if (values?.length !== s.size)
      throw new AttentionError(
        'ATTENTION_INVALID_ARGUMENT',
        `weights["${s.name}"] has ${values === undefined ? 'no' : values.length} values; the config needs ${s.size}`,
      );
    engine.view(s.name).set(values);
  }
}

/** The engine's parameters, each a fresh copy. */
function current(engine: Engine): Record<string, Float32Array> {
  const out: Record<string, Float32Array> = {};
  for (const s of engine.params.slots) out[s.name] = engine.view(s.name).slice();
  return out;
}

/**
 * Creates an AdamW trainer for `model` that steps on the engine: the same options, schedule,
 * clipping, state format and step results as `createTrainer`, from the same weights the same
 * losses (to float32 rounding).
 *
 * @summary Creates an AdamW trainer for `model` that steps on the engine.
 * @throws {AttentionError} ATTENTION_INVALID_ARGUMENT for weights that do not fit the config, or
 *   a bad option.
 * @example
 * import { createEngineTrainer, createTransformer, engineModelOf, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 8, maxLength: 4, dModel: 8, heads: 1 }); // a tfjs model
 * const trainer = createEngineTrainer(engineModelOf(model), { totalSteps: 10 });
 * const inputs = Int32Array.of(1, 2, 3, 4, 4, 3, 2, 1);
 * const targets = Int32Array.of(2, 3, 4, 5, 3, 2, 1, 0);
 * const { loss } = await trainer.step({ inputs, targets, batchSize: 2 }); // the model's weights follow
 * console.log(loss);
 * await trainer.engine.dispose();
 * model.dispose();
 * @category Engine
 */
export function createEngineTrainer(
  model: EngineModel,
  options: EngineTrainerOptions,
): EngineTrainer {
  const opts = resolveTrainerOptions(options);
  const engine = createEngine(model.config, {
    sampler: model.sampler,
    samplerTimeoutMs: options.samplerTimeoutMs,
    threads: options.threads,
    backend: options.backend,
  });
  try {
    load(engine, model.weights);
  } catch (error) {
    void engine.dispose();
    throw error;
  }
  const { slots } = engine.params;
  const buffers = engine.buffers;
  let steps = 0;
  const schedule = lrSchedule(opts);
  const lrAt = schedule.at;
  const sync = (): void => {
    if (model.onSync !== undefined) model.onSync(current(engine));
  };

  const runStep = async (batch: TokenBatch): Promise<TrainStepResult> => {
    const { batchSize, mask, targets } = checkBatch(model.config, batch);
    const t0 = performance.now();
    const pass = { inputs: batch.inputs, batchSize, step: steps };
    const loss = await engine.lossAndGradients(pass, targets, mask);
    const t1 = performance.now();
    const gradNorm = engine.gradientNorm();
    const lr = lrAt(steps);
    const hyper = { ...opts, lr, step: steps + 1, gradScale: clipScale(gradNorm, opts.clipNorm) };
    engine.adamW(hyper);
    steps += 1;
    if (options.sync !== 'manual') sync();
    const timings = { prepareMs: 0, tapeMs: t1 - t0, optimizerMs: performance.now() - t1 };
    return { loss, gradNorm, lr, step: steps, timings };
  };

  const serial = serialQueue();
  return {
    engine,
    options: opts,
    get stepCount() {
      return steps;
    },
    lrAt,
    get lrScale() {
      return schedule.scale;
    },
    set lrScale(scale: number) {
      schedule.scale = scale;
    },
    step: (batch) => serial(() => runStep(batch)),
    async evaluate(batch, evalOptions = {}) {
      const chunk = evaluationChunk(evalOptions.chunkSize);
      return serial(() => engineEvaluation(engine, model.config, batch, chunk));
    },
    weights: () => current(engine),
    sync,
    state() {
      const moments: Record<string, { m: number[]; v: number[] }> = {};
      const f = engine.f32();
      for (const s of slots) {
        const at = (base: number) =>
          Array.from(f.subarray(base + s.offset, base + s.offset + s.size));
        moments[s.name] = { m: at(buffers.m), v: at(buffers.v) };
      }
      const scale = schedule.scale === 1 ? {} : { lrScale: schedule.scale };
      return { format: 'boltzmann-attention/trainer', version: 1, step: steps, ...scale, moments };
    },
    restore(state) {
      const checked = checkedMoments(slots, state);
      const lrScale = savedLrScale(state);
      const f = engine.f32();
      for (const [i, s] of slots.entries()) {
        f.set(checked[i]!.m, buffers.m + s.offset);
        f.set(checked[i]!.v, buffers.v + s.offset);
      }
      steps = state.step;
      schedule.scale = lrScale;
    },
    dispose() {
      engine.f32().fill(0, buffers.m, buffers.v + engine.params.size);
      void engine.dispose();
    },
  };
}
