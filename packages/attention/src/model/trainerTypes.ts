// The trainers' options, step result, checkpoint state and interface (the trainers are
// tfjs/trainer.ts and engine/engineTrainer.ts), and the engine trainer's input: a model as its
// config and weights.
import type { Sampler } from '@boltzmann/ising-core';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import type { TokenBatch } from './tokenBatch.js';

/**
 * Options of {@link createTrainer} (METHOD.md §5 defaults).
 *
 * @category Training
 */
export interface TrainerOptions {
  /** Steps of the cosine schedule; after it the rate stays at its floor. */
  readonly totalSteps: number;
  /**
   * Linear warm-up steps before the cosine (default 0: none). As in nanoGPT, step `i < warmupSteps`
   * uses `lr × (i + 1) / (warmupSteps + 1)`; the cosine then runs from `warmupSteps` to `totalSteps`.
   */
  readonly warmupSteps?: number;
  /** Peak learning rate (default 3e-3). */
  readonly lr?: number;
  /** The cosine decays to `lr × minLrFraction` (default 0.1). */
  readonly minLrFraction?: number;
  /** Decoupled weight decay (default 0.01) on embeddings and linear kernels; never on J, biases or LayerNorm. */
  readonly weightDecay?: number;
  /** Global gradient-norm clip (default 1.0; `Infinity` or 0 disables). */
  readonly clipNorm?: number;
  /** Adam β1 (default 0.9). */
  readonly beta1?: number;
  /** Adam β2 (default 0.999). */
  readonly beta2?: number;
  /** Adam ε (default 1e-8). */
  readonly epsilon?: number;
}

/**
 * What one step reports.
 *
 * @category Training
 */
export interface TrainStepResult {
  /** Masked mean cross-entropy before the update. */
  readonly loss: number;
  /** Global gradient norm before clipping. */
  readonly gradNorm: number;
  /** Learning rate used. */
  readonly lr: number;
  /** Steps taken so far, including this one. */
  readonly step: number;
  /**
   * Wall milliseconds of the step's phases: `prepare` (an asynchronous sampler's phase 1; 0
   * otherwise), `tape` (forward and backward, the sampler's calls included) and `optimizer`
   * (reading the gradients, clipping, AdamW and writing the weights back).
   */
  readonly timings: {
    readonly prepareMs: number;
    readonly tapeMs: number;
    readonly optimizerMs: number;
  };
}

/**
 * JSON-serializable optimizer state for checkpoint resume.
 *
 * @category Training
 */
export interface TrainerState {
  readonly format: 'boltzmann-attention/trainer';
  readonly version: 1;
  readonly step: number;
  /** {@link Trainer.lrScale} when it is not 1 (absent in states before it, which restore it to 1). */
  readonly lrScale?: number;
  readonly moments: Readonly<
    Record<string, { readonly m: readonly number[]; readonly v: readonly number[] }>
  >;
}

/**
 * AdamW with cosine decay and global-norm clipping over a {@link Transformer}'s parameters.
 *
 * @category Training
 */
export interface Trainer {
  readonly options: Required<TrainerOptions>;
  /** Steps taken so far. */
  readonly stepCount: number;
  /**
   * One update: for an asynchronous sampler, awaits its estimates first (phase 1); then
   * differentiates (a synchronous sampler is called inside the tape) and applies AdamW.
   * Concurrent calls are queued and run in call order.
   */
  step(batch: TokenBatch): Promise<TrainStepResult>;
  /** The learning rate at 0-based step `step`, {@link lrScale} included. */
  lrAt(step: number): number;
  /**
   * A factor on the schedule's rate from the next step on (default 1), kept in {@link state}: a
   * caller that decays the rate when validation stops improving lowers it (`trainer.lrScale *= 0.1`).
   * Setting anything but a finite number > 0 throws ATTENTION_INVALID_ARGUMENT.
   */
  lrScale: number;
  state(): TrainerState;
  /** Continues from a saved state (moments and step count). */
  restore(state: TrainerState): void;
  /** Drops the optimizer moments (plain typed arrays; no tensors are held). */
  dispose(): void;
}

/**
 * Parameter values by name (`Transformer.toJSON()`'s names: `embedding/token`, `layer1/attention/query/kernel`, …).
 *
 * @category Training
 */
export type EngineWeights = Readonly<Record<string, ArrayLike<number>>>;

/**
 * A model as the engine trains it: its configuration and weights, and where the trained weights go.
 *
 * @category Training
 */
export interface EngineModel {
  /** The resolved configuration (a tfjs model's `config`, or a model file's). */
  readonly config: ResolvedTransformerConfig;
  /** Every parameter's values, row-major, by the engine's name for it (exactly the config's parameters). */
  readonly weights: EngineWeights;
  /** The sampler of `boltzmann`/`coupling` (a resolved instance, e.g. a tfjs model's `sampler`). */
  readonly sampler?: Sampler | undefined;
  /** Receives fresh copies of the trained weights: after every step (`sync: 'step'`) or in `EngineTrainer.sync`. */
  readonly onSync?: ((weights: Readonly<Record<string, Float32Array>>) => void) | undefined;
}
