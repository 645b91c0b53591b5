import { echo, splitSecretOptions } from '@boltzmann/ising-core/internal';
import { parseCouplingForm } from './couplingForm.js';
import { AttentionError } from './errors.js';
import { FLOAT32_MAX, assertParameterCount, fitsFloat32, limitedSize } from './modelLimits.js';
import { assertAttentionVariant } from './variants.js';

import type { ResolvedTransformerConfig, TransformerConfig } from './transformerConfigTypes.js';

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
