// The model's shapes, a leaf the model, its builder, the trainer and the batch checks all read:
// the Transformer interface, its parameters, passes and JSON form, and a token batch.
import type * as tf from '@tensorflow/tfjs';
import type { Sampler } from '@boltzmann/ising-core';
import type { PreparedEstimates } from '../model/headEstimates.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import type { TransformerJSON } from '../core/modelFile.js';

export type { TransformerJSON } from '../core/modelFile.js';

/**
 * A model parameter: its canonical name, the variable, and whether weight decay applies.
 *
 * @category Model
 */
export interface TransformerParameter {
  readonly name: string;
  readonly variable: tf.Variable;
  readonly decay: boolean;
}

/**
 * What {@link Transformer.prepare} returns: the estimates of every layer.
 *
 * A one-layer model returns the plain {@link PreparedEstimates} (`layers` absent); a model with `L
 * > 1` layers sets `layers` (one per layer, in order) and `heads` to layer 0's heads.
 * @category Model
 */
export interface TransformerPrepared extends PreparedEstimates {
  readonly layers?: readonly PreparedEstimates[];
}

/**
 * Options of one pass: {@link Transformer.prepare} and {@link Transformer.logits} of a training step.
 *
 * @category Model
 */
export interface PassOptions {
  /**
   * The 0-based training step; when set and `config.dropout > 0`, dropout is active with masks
   * drawn from the model seed and this step (the same in `prepare` and `logits` of the step).
   * Unset (the default): no dropout.
   */
  readonly dropoutStep?: number;
}

/**
 * The decoder-only Transformer of METHOD.md §5/§7: token + learned positional embedding,
 * `layers` pre-LayerNorm blocks (attention with residual; optional GELU FFN with residual), final
 * LayerNorm, linear head (optionally tied to the token embedding).
 * @summary The decoder-only Transformer of METHOD.md §5/§7.
 * @category Model
 */
export interface Transformer {
  /** The resolved configuration (the sampler by name). */
  readonly config: ResolvedTransformerConfig;
  /** The Ising sampler of `boltzmann`/`coupling`; `undefined` for `softmax`/`sigmoid`. */
  readonly sampler: Sampler | undefined;
  /** Trainable parameters in canonical order. */
  readonly parameters: readonly TransformerParameter[];
  /**
   * Phase 1 of a step: computes the attention fields and awaits the sampler (sync or async),
   * layer by layer (layer ℓ's fields need layer ℓ − 1's output, computed with its estimates).
   * Returns `undefined` for variants without a sampler.
   */
  prepare(
    inputs: ArrayLike<number>,
    batchSize: number,
    options?: PassOptions,
  ): Promise<TransformerPrepared | undefined>;
  /**
   * Differentiable logits `B×T×outputSize` (the caller disposes them). Without `prepared`,
   * a sampler variant calls its sampler synchronously.
   */
  logits(
    inputs: ArrayLike<number>,
    batchSize: number,
    prepared?: TransformerPrepared,
    options?: PassOptions,
  ): tf.Tensor3D;
  /** `logits` after `prepare` when the sampler is asynchronous: works with every sampler. */
  forward(inputs: ArrayLike<number>, batchSize: number): Promise<tf.Tensor3D>;
  /**
   * The attention weights `B×H×T×T` (row-major, rows sum to 1 over `j ≤ i`), for inspection;
   * with `L` layers, `L×B×H×T×T` (layer-major).
   */
  attention(inputs: ArrayLike<number>, batchSize: number): Promise<Float32Array>;
  /**
   * The learned `J` of each (layer, head) as a `maxLength × maxLength` row-major matrix,
   * layer-major (`[ℓ·heads + h]`); `[]` when the variant has no `J`.
   */
  couplings(): Float64Array[];
  /** All weights and the configuration as a JSON-serializable object. */
  toJSON(): TransformerJSON;
  /**
   * Frees every variable (and a sampler the model created from a name; a sampler instance
   * passed in stays the caller's). The model is unusable afterwards. Safe to call twice.
   */
  dispose(): void;
}
