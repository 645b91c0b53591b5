import { echo, splitSecretOptions } from '@boltzmann/ising-core/internal';
import type { Sampler, SamplerRegistry } from '@boltzmann/ising-core';
import type { CouplingForm } from './couplingForm.js';
import { parseCouplingForm } from './couplingForm.js';
import { AttentionError } from './errors.js';
import { FLOAT32_MAX, assertParameterCount, fitsFloat32, limitedSize } from './modelLimits.js';
import { assertAttentionVariant } from './variants.js';
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

function bool(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean')
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `${name} must be a boolean, got ${echo(value)}`,
    );
  return value;
}

/** A positive number that float32 holds (`β` multiplies float32 fields in every variant). */
function positiveFloat32(value: unknown, name: string): number {
  if (!fitsFloat32(value) || !(value > 0)) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `${name} must be a positive number ≤ ${FLOAT32_MAX} (float32), got ${echo(value)}`,
    );
  }
  return value;
}

/** The option paths the named sampler's plugin declares secret (none when unknown). */
function declaredSecrets(config: TransformerConfig): readonly string[] {
  return typeof config.sampler === 'string'
    ? (config.registry?.get(config.sampler)?.secretOptions ?? [])
    : [];
}

/**
 * The sizes, variant, biases, weight tying and dropout of `config`, each checked (in the order of
 * {@link resolveTransformerConfig}: the first bad field is the one reported).
 */
function architectureOf(config: TransformerConfig) {
  const vocabSize = limitedSize(config.vocabSize, 'vocabSize');
  const maxLength = limitedSize(config.maxLength, 'maxLength');
  const dModel = limitedSize(config.dModel ?? 64, 'dModel');
  const heads = limitedSize(config.heads ?? 1, 'heads');
  if (dModel % heads !== 0) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `dModel ${dModel} is not divisible by heads ${heads}`,
    );
  }
  const variant = config.variant ?? 'boltzmann';
  assertAttentionVariant(variant);
  const ffn = bool(config.ffn ?? true, 'ffn');
  const layers = limitedSize(config.layers ?? 1, 'layers');
  const bias = bool(config.bias ?? true, 'bias');
  const tieEmbeddings = bool(config.tieEmbeddings ?? false, 'tieEmbeddings');
  const dropout = config.dropout ?? 0;
  if (typeof dropout !== 'number' || !(dropout >= 0 && dropout < 1)) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `dropout must be a number in [0, 1), got ${echo(dropout)}`,
    );
  }
  const outputSize = limitedSize(config.outputSize ?? vocabSize, 'outputSize');
  if (tieEmbeddings && outputSize !== vocabSize) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `tieEmbeddings needs outputSize === vocabSize (the head reuses the ${vocabSize}-row token embedding), got outputSize ${outputSize}`,
    );
  }
  const shape = { vocabSize, outputSize, maxLength, dModel, heads, layers, bias, tieEmbeddings };
  return { ...shape, dropout, ffn, variant };
}

/** How `J` starts and is parameterized, the positional embedding and the seed, each checked. */
function initializationOf(config: TransformerConfig, maxLength: number) {
  const jInit = config.jInit ?? 'normal';
  if (jInit !== 'normal' && jInit !== 'zeros') {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `jInit must be 'normal' or 'zeros', got ${echo(jInit)}`,
    );
  }
  const jInitStd = config.jInitStd ?? 0.02;
  if (!fitsFloat32(jInitStd) || !(jInitStd >= 0)) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `jInitStd must be a number in [0, ${FLOAT32_MAX}] (float32), got ${echo(jInitStd)}`,
    );
  }
  // Validated here so a bad form fails before any parameter is built; recorded as given.
  parseCouplingForm(config.couplingForm ?? 'full', maxLength);
  const positions = config.positions ?? 'learned';
  if (positions !== 'learned' && positions !== 'none') {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `positions must be 'learned' or 'none', got ${echo(positions, 40)}`,
    );
  }
  const seed = config.seed ?? 0;
  if (typeof seed !== 'number' || !Number.isFinite(seed)) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `seed must be a finite number, got ${echo(seed)}`,
    );
  }
  return { jInit, jInitStd, positions, seed };
}

/** The sampler's name (of a name or an instance) and its options, checked. */
function samplerOf(config: TransformerConfig): {
  readonly samplerName: string;
  readonly samplerOptions: Readonly<Record<string, unknown>>;
} {
  const sampler = config.sampler ?? 'exact';
  const samplerName = typeof sampler === 'string' ? sampler : sampler?.name;
  if (typeof samplerName !== 'string' || samplerName.length === 0) {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      'sampler must be a registry name or a Sampler instance with a name',
    );
  }
  const samplerOptions = config.samplerOptions ?? {};
  if (samplerOptions === null || typeof samplerOptions !== 'object') {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `samplerOptions must be an object, got ${echo(samplerOptions)}`,
    );
  }
  return { samplerName, samplerOptions };
}

/**
 * Fills in the defaults of a {@link TransformerConfig} and validates every field.
 *
 * @returns the resolved, JSON-serializable configuration (a sampler instance is recorded by its name).
 * @throws {AttentionError} ATTENTION_INVALID_CONFIG naming the offending field and value, for a size over
 *   its `MODEL_LIMITS` entry, a model of more than `MODEL_LIMITS.parameters` parameters, or a float
 *   (`beta`, `jInitStd`) beyond float32.
 * @example
 * import { resolveTransformerConfig } from '@boltzmann/attention';
 *
 * console.log(resolveTransformerConfig({ vocabSize: 65, maxLength: 12 }).dModel); // 64
 * @category Model
 */
export function resolveTransformerConfig(config: TransformerConfig): ResolvedTransformerConfig {
  if (config === null || typeof config !== 'object') {
    throw new AttentionError(
      'ATTENTION_INVALID_CONFIG',
      `config must be an object, got ${echo(config)}`,
    );
  }
  const architecture = architectureOf(config);
  const { jInit, jInitStd, positions, seed } = initializationOf(config, architecture.maxLength);
  const { samplerName, samplerOptions } = samplerOf(config);
  const resolved: ResolvedTransformerConfig = {
    vocabSize: architecture.vocabSize,
    outputSize: architecture.outputSize,
    maxLength: architecture.maxLength,
    dModel: architecture.dModel,
    heads: architecture.heads,
    layers: architecture.layers,
    bias: architecture.bias,
    tieEmbeddings: architecture.tieEmbeddings,
    dropout: architecture.dropout,
    ffn: architecture.ffn,
    ffnHidden: limitedSize(config.ffnHidden ?? 4 * architecture.dModel, 'ffnHidden'),
    variant: architecture.variant,
    beta: positiveFloat32(config.beta ?? 1, 'beta'),
    jInit,
    jInitStd,
    couplingForm: config.couplingForm ?? 'full',
    // Recorded only when not the default, so that the configs (and files) of earlier models are unchanged.
    ...(positions === 'none' ? { positions } : {}),
    seed,
    sampler: samplerName,
    // The sampler gets every option; what is recorded (and so saved by toJSON) never holds a
    // credential: a model file is exactly what users share.
    samplerOptions: splitSecretOptions(samplerOptions, declaredSecrets(config)).options,
  };
  // Last, once every size is within its limit: nothing has been allocated yet.
  assertParameterCount(resolved);
  return resolved;
}
