// The shapes of a run's model behind the bench's few calls (runModel.ts builds it): its saved
// state, a step's result, the calls themselves and the attention map a record keeps.
import type { TrainerState, TransformerJSON } from '@boltzmann/attention';
import type { ConvergenceSummary } from '@boltzmann/ising-core';
import type { TrainBatch } from '../experiments/taskData.js';
import type { RunEngine } from '../recordTypes.js';
import type { HardwareRuns } from './hardwareTallies.js';
/**
 * The saved state of a run's model: model weights (with config) and optimizer state. A
 * checkpoint keeps it under its `engine` key (the field name of older checkpoints, kept so they resume).
 */
export interface RunModelState {
  readonly model: TransformerJSON;
  readonly trainer: TrainerState;
}

/**
 * One step of a run: the trainer's loss before the update, gradient norm (global L2, before
 * clipping) and learning rate, and the sampler's convergence figures (iterative samplers).
 */
export interface RunStepResult {
  readonly loss: number;
  readonly gradNorm: number;
  readonly lr: number;
  readonly convergence: ConvergenceSummary | undefined;
}

/** A run's model and trainer behind the few calls the bench makes. */
export interface RunModel {
  /** One optimizer step (see {@link RunStepResult}). */
  step(batch: TrainBatch): Promise<RunStepResult>;
  /** Phase 1 of a step only: the attention fields and the sampler call(s), no update (the `--dry-run` of hardware samplers). */
  prepare(batch: TrainBatch): Promise<void>;
  /** Loss and accuracy over all evaluation batches (weighted by their masks). */
  evaluate(
    batches: readonly TrainBatch[],
  ): Promise<{ loss: number; correct: number; count: number }>;
  /** Learned J of head 0 as T × T row-major, or null for variants without couplings. */
  couplings(): number[] | null;
  /** Per (layer, head), layer-major: the mean learned J at each distance d = 1 … T − 1; null without couplings. */
  couplingProfile(): number[][] | null;
  /** Layer 0, head 0 attention weights of one sequence, its top-left `size × size` block (`size = min(T, 64)`). */
  attentionMap(tokens: readonly number[]): Promise<AttentionMap>;
  save(): RunModelState;
  /** Multiplies the learning rate by `factor` from the next step on (kept in {@link save}'s trainer state). */
  scaleLr(factor: number): void;
  /** What trains the run: engine, backend, ISA, vector width, threads, and the line naming them. */
  engine?(): RunEngine;
  /** Hardware samplers (dwave, ibm): what their calls did so far (hardwareTallies.ts). */
  hardwareRuns?(): HardwareRuns;
  dispose(): void;
}

/** What {@link RunModel.attentionMap} returns; stored in the run record. */
export interface AttentionMap {
  readonly size: number;
  /** `size × size` row-major; row i sums to 1 over keys j ≤ i when size = T. */
  readonly weights: readonly number[];
}

/** The largest attention map a record keeps (64 × 64 = 4,096 numbers). */
export const ATTENTION_MAP_SIZE = 64;

/** Sequences per forward pass in evaluation: each pass is one sampler call per head. */
export const EVAL_CHUNK_SIZE = 128;
