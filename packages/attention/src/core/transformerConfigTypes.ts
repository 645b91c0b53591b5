// The model's configuration types: what a user passes (TransformerConfig) and what resolves from
// it (ResolvedTransformerConfig). The resolution and its checks are transformerConfig.ts.
import type { Sampler, SamplerRegistry } from '@boltzmann/ising-core';
import type { CouplingForm } from './couplingForm.js';
import type { AttentionVariant } from './variants.js';

/**
 * How the coupling matrix `J` starts: i.i.d. normal on the strict upper triangle, or zeros.
 *
 * @category Model
 */
export type CouplingInit = 'normal' | 'zeros';

/**
 * Configuration of the small decoder-only Transformer of METHOD.md §5.
 *
 * Every field except `vocabSize` and `maxLength` has the documented default. The sizes are bounded
 * by `MODEL_LIMITS` (layers ≤ 64, heads ≤ 64, dModel ≤ 4096, maxLength ≤ 8192, vocabSize and
 * outputSize ≤ 1,048,576, ffnHidden ≤ 16,384, at most 1e9 parameters in all).
 * @category Model
 */
export interface TransformerConfig {
  /** Number of input tokens (65 for Tiny Shakespeare characters). */
  readonly vocabSize: number;
  /** Width of the linear head (default `vocabSize`; `maxLength` for the bracket pointer task). */
  readonly outputSize?: number;
  /** Largest sequence length `T`; sizes the positional embedding and `J` (`T×T`). */
  readonly maxLength: number;
  /** Model width (default 64). */
  readonly dModel?: number;
  /** Attention heads (default 1); `dModel` must be divisible by it. Each head has its own `J`. */
  readonly heads?: number;
  /**
   * Number of pre-LayerNorm blocks (default 1). Each block has its own attention (and `J` per
   * head) and FFN; block 0 keeps the one-block parameter names, block `ℓ ≥ 1` is prefixed `block{ℓ}/`.
   */
  readonly layers?: number;
  /**
   * Whether the linear layers have biases and the LayerNorms a shift `beta` (default true);
   * `false` is nanoGPT's `bias=False`: no bias in query/key/value/output/FFN/head, LayerNorm gain only.
   */
  readonly bias?: boolean;
  /**
   * Whether the output head reuses the token embedding transposed as its kernel (default false;
   * weight tying). Requires `outputSize === vocabSize`.
   */
  readonly tieEmbeddings?: boolean;
  /**
   * Dropout probability in `[0, 1)` (default 0), as nanoGPT places it: on the embedding sum, on
   * the attention weights and on both residual branches (attention output projection, FFN output)
   * of every block. Active only in training steps (the trainer's), with masks drawn from the model
   * seed and the step number; `forward`, `evaluate` and `attention` never drop.
   */
  readonly dropout?: number;
  /** Whether each block has its feed-forward sublayer (default true). */
  readonly ffn?: boolean;
  /** FFN hidden width (default `4 × dModel` = 256). */
  readonly ffnHidden?: number;
  /** Attention variant (default `'boltzmann'`). */
  readonly variant?: AttentionVariant;
  /** Inverse temperature β of every variant (default 1). */
  readonly beta?: number;
  /** Initializer of `J` (default `'normal'`). */
  readonly jInit?: CouplingInit;
  /** Standard deviation of the `'normal'` `J` initializer (default 0.02). */
  readonly jInitStd?: number;
  /** How `J` is parameterized: `'full'` (default), `'relative'` or `'banded:w'` (see {@link CouplingForm}). */
  readonly couplingForm?: CouplingForm;
  /**
   * Positional information (default `'learned'`): a learned `maxLength × dModel` embedding
   * added to the tokens, or `'none'` (no positional embedding; causal attention still sees
   * order). A `'none'` model with `relative` (or no) couplings can run at a longer `T` than it
   * was trained at: see `withMaxLength`.
   */
  readonly positions?: 'learned' | 'none';
  /** Seed of the deterministic weight initialization (default 0). */
  readonly seed?: number;
  /**
   * Sampler of the Ising moments for `boltzmann`/`coupling`: a registry name (default `'exact'`,
   * available without a registry) or a configured {@link Sampler} instance.
   */
  readonly sampler?: string | Sampler;
  /** Options passed to the named plugin's `create` (ignored for an instance). */
  readonly samplerOptions?: Readonly<Record<string, unknown>>;
  /** Where named samplers other than `'exact'` are looked up. */
  readonly registry?: SamplerRegistry;
  /**
   * The longest an asynchronous sampler may take to answer one batch, in milliseconds (default
   * `DEFAULT_SAMPLER_TIMEOUT_MS`, 30 minutes; `0` or `Infinity`: wait forever). Every awaited
   * call (`prepare`, and so `forward`, `attention`, `evaluate` and a trainer's `step`) that
   * outlasts it rejects with ATTENTION_SAMPLER_TIMEOUT. Not recorded in the model's JSON: it is
   * the caller's to choose, never a model file's.
   */
  readonly samplerTimeoutMs?: number;
}

/**
 * A fully defaulted, JSON-serializable configuration (the sampler by name).
 *
 * @category Model
 */
export interface ResolvedTransformerConfig {
  readonly vocabSize: number;
  readonly outputSize: number;
  readonly maxLength: number;
  readonly dModel: number;
  readonly heads: number;
  readonly layers: number;
  readonly bias: boolean;
  readonly tieEmbeddings: boolean;
  readonly dropout: number;
  readonly ffn: boolean;
  readonly ffnHidden: number;
  readonly variant: AttentionVariant;
  readonly beta: number;
  readonly jInit: CouplingInit;
  readonly jInitStd: number;
  readonly couplingForm: CouplingForm;
  /** Absent in configs saved before the option existed (= `'learned'`). */
  readonly positions?: 'learned' | 'none';
  readonly seed: number;
  readonly sampler: string;
  readonly samplerOptions: Readonly<Record<string, unknown>>;
}
