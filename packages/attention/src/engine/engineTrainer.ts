/**
 * The engine's trainer: the {@link Trainer} of a tfjs {@link Transformer} whose steps run on the
 * engine. It copies the model's weights into the arena once, trains there (forward, backward,
 * clipping and AdamW in one flat pass) and writes the weights back into the model's variables
 * after every step (`sync: 'step'`, the default) or when asked (`sync: 'manual'` and
 * {@link EngineTrainer.sync}), so the model, `evaluate`, `toJSON` and checkpoints keep working.
 */
import * as tf from '@tensorflow/tfjs';
import { clipScale } from '../model/adamW.js';
import { serialSteps } from '../model/serialSteps.js';
import { checkBatch } from '../model/tokenBatch.js';
import type { TokenBatch } from '../model/tokenBatch.js';
import type { Transformer } from '../modelTypes.js';
import { checkedMoments, learningRate, resolveTrainerOptions } from '../model/trainerOptions.js';
import type { Trainer, TrainerOptions, TrainStepResult } from '../model/trainerTypes.js';
import { createEngine } from './engine.js';
import type { Engine } from './engine.js';

/** Options of {@link createEngineTrainer}: the trainer's, and when the weights go back to the model. */
export interface EngineTrainerOptions extends TrainerOptions {
  /** `'step'` (default): after every step; `'manual'`: only in {@link EngineTrainer.sync}. */
  readonly sync?: 'step' | 'manual';
  /** The longest wait for an asynchronous sampler's answer (default 30 minutes). */
  readonly samplerTimeoutMs?: number;
  /** Threads of a step (default 1): see the engine's `threads`. */
  readonly threads?: number;
}

/** A trainer on the engine. */
export interface EngineTrainer extends Trainer {
  /** The engine the steps run on. */
  readonly engine: Engine;
  /** Writes the engine's weights into the model's variables. */
  sync(): void;
}

/** Copies the model's variables into the engine's parameters. */
function load(engine: Engine, model: Transformer): void {
  for (const p of model.parameters) engine.view(p.name).set(p.variable.dataSync() as Float32Array);
}

/** Writes the engine's parameters into the model's variables. */
function store(engine: Engine, model: Transformer): void {
  tf.tidy(() => {
    for (const p of model.parameters)
      p.variable.assign(tf.tensor(engine.view(p.name).slice(), p.variable.shape));
  });
}

/**
 * Creates an AdamW trainer for `model` that steps on the engine: the same options, schedule,
 * clipping, state format and step results as `createTrainer`, from the same weights the same
 * losses (to float32 rounding).
 *
 * @example
 * const trainer = createEngineTrainer(model, { totalSteps: 1000 });
 * const { loss } = await trainer.step({ inputs, targets, batchSize: 64 });
 */
export function createEngineTrainer(
  model: Transformer,
  options: EngineTrainerOptions,
): EngineTrainer {
  const opts = resolveTrainerOptions(options);
  const engine = createEngine(model.config, {
    sampler: model.sampler,
    samplerTimeoutMs: options.samplerTimeoutMs,
    threads: options.threads,
  });
  load(engine, model);
  const { slots } = engine.params;
  const buffers = engine.buffers;
  let steps = 0;
  const lrAt = (step: number): number => learningRate(opts, step);

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
    if (options.sync !== 'manual') store(engine, model);
    const timings = { prepareMs: 0, tapeMs: t1 - t0, optimizerMs: performance.now() - t1 };
    return { loss, gradNorm, lr, step: steps, timings };
  };

  return {
    engine,
    options: opts,
    get stepCount() {
      return steps;
    },
    lrAt,
    step: serialSteps(runStep),
    sync: () => store(engine, model),
    state() {
      const moments: Record<string, { m: number[]; v: number[] }> = {};
      const f = engine.f32();
      for (const s of slots) {
        const at = (base: number) =>
          Array.from(f.subarray(base + s.offset, base + s.offset + s.size));
        moments[s.name] = { m: at(buffers.m), v: at(buffers.v) };
      }
      return { format: 'boltzmann-attention/trainer', version: 1, step: steps, moments };
    },
    restore(state) {
      const checked = checkedMoments(slots, state);
      const f = engine.f32();
      for (const [i, s] of slots.entries()) {
        f.set(checked[i]!.m, buffers.m + s.offset);
        f.set(checked[i]!.v, buffers.v + s.offset);
      }
      steps = state.step;
    },
    dispose() {
      engine.f32().fill(0, buffers.m, buffers.v + engine.params.size);
      void engine.dispose();
    },
  };
}
