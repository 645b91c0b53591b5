import {
  createEngineTrainer,
  createTrainer,
  createTransformer,
  engineModelOf,
  evaluate,
} from '@boltzmann/attention';
import type { Trainer, Transformer } from '@boltzmann/attention';
import { modelFileOf } from './modelFiles.js';
import { meanCouplingByDistance } from '@boltzmann/ising-core';
import { createPlaygroundSampler } from './samplers.js';
import type { PlaygroundTask } from './taskData.js';
import type { TrainConfig, Variant } from './trainConfig.js';
import { VARIANTS } from './trainConfig.js';

/** Held-out loss and accuracy of one model. */
export interface EvalResult {
  readonly loss: number;
  readonly accuracy: number;
}

/** The learned couplings of the boltzmann model (layer 0, head 0). */
export interface CouplingsSnapshot {
  readonly length: number;
  /** T × T row-major, strict upper triangle (zero elsewhere). */
  readonly matrix: Float64Array;
  /** Mean J at distance d = 1 … T − 1 (index d − 1), over the pairs j < k with k − j = d. */
  readonly meanByDistance: Float64Array;
}

/** The two models of one run, trained on the same batches. */
export interface TrainingSession {
  readonly config: TrainConfig;
  readonly task: PlaygroundTask;
  readonly samplerDescription: string;
  /** Steps taken by each model so far. */
  readonly stepCount: number;
  /** One optimizer step of each model on one shared batch; the batch losses before the update. */
  step(): Promise<Record<Variant, number>>;
  evaluate(): Promise<Record<Variant, EvalResult>>;
  couplings(): CouplingsSnapshot;
  /** Layer 0, head 0 attention weights of one sequence of length n ≤ T: n × n row-major per variant. */
  attention(tokens: Int32Array): Promise<Record<Variant, Float32Array>>;
  /** Each model as the bytes of a `.safetensors` model file (training/modelFiles.ts). */
  modelFiles(): Record<Variant, Uint8Array>;
  dispose(): void;
}

/**
 * Builds a softmax and a boltzmann model with the same seed, width and length (the same
 * initial embeddings and projections), and their trainers. Only the boltzmann model uses the sampler.
 */
export function createTrainingSession(config: TrainConfig, task: PlaygroundTask): TrainingSession {
  const choice = createPlaygroundSampler(config.sampler, config.seed, config.threads);
  const models = {} as Record<Variant, Transformer>;
  const trainers = {} as Record<Variant, Trainer>;
  for (const variant of VARIANTS) {
    const model = createTransformer({
      vocabSize: task.vocabSize,
      outputSize: task.outputSize,
      maxLength: config.length,
      dModel: config.dModel,
      ffn: task.name === 'shakespeare',
      variant,
      beta: config.beta,
      seed: config.seed,
      ...(variant === 'boltzmann'
        ? {
            sampler: choice.sampler,
            samplerOptions: choice.options,
            couplingForm: choice.couplingForm,
          }
        : {}),
    });
    models[variant] = model;
    // The engine (fused WebAssembly kernels), on the Train form's threads: its workers, like the
    // sampler's, run only on a cross-origin-isolated page (the form offers 2 only there).
    const options = { totalSteps: config.steps, lr: config.lr };
    trainers[variant] =
      config.engine === 'tfjs'
        ? createTrainer(model, options)
        : createEngineTrainer(engineModelOf(model), { ...options, threads: config.threads });
  }
  let stepCount = 0;
  return {
    config,
    task,
    samplerDescription: choice.description,
    get stepCount() {
      return stepCount;
    },
    async step() {
      const batch = task.next(config.batchSize);
      const losses = {} as Record<Variant, number>;
      for (const variant of VARIANTS) losses[variant] = (await trainers[variant].step(batch)).loss;
      stepCount++;
      return losses;
    },
    async evaluate() {
      const out = {} as Record<Variant, EvalResult>;
      for (const variant of VARIANTS) {
        const e = await evaluate(models[variant], task.evalBatch, { chunkSize: 128 });
        out[variant] = { loss: e.loss, accuracy: e.count > 0 ? e.correct / e.count : 0 };
      }
      return out;
    },
    couplings() {
      const T = config.length;
      const full = models.boltzmann.couplings()[0];
      const matrix = new Float64Array(T * T);
      if (full) {
        const stride = Math.round(Math.sqrt(full.length));
        for (let j = 0; j < T; j++)
          for (let k = j + 1; k < T; k++) matrix[j * T + k] = full[j * stride + k]!;
      }
      return { length: T, matrix, meanByDistance: meanCouplingByDistance(matrix, T) };
    },
    async attention(tokens) {
      const n = tokens.length;
      const out = {} as Record<Variant, Float32Array>;
      for (const variant of VARIANTS) {
        const all = await models[variant].attention(tokens, 1);
        out[variant] = all.slice(0, n * n); // batch 0, head 0 of B × H × n × n
      }
      return out;
    },
    modelFiles() {
      const out = {} as Record<Variant, Uint8Array>;
      for (const variant of VARIANTS) out[variant] = modelFileOf(models[variant]);
      return out;
    },
    dispose() {
      for (const variant of VARIANTS) {
        trainers[variant].dispose();
        models[variant].dispose();
      }
      void choice.sampler.dispose?.();
    },
  };
}
