import { exactSampler } from '@boltzmann/ising-core';
import { echo } from '@boltzmann/ising-core/internal';
import type { Sampler, SamplerRegistry } from '@boltzmann/ising-core';
import { AttentionError } from '../core/errors.js';
import type {
  ResolvedTransformerConfig,
  TransformerConfig,
} from '../core/transformerConfigTypes.js';
import { usesSampler } from '../core/variants.js';

/**
 * The sampler a model uses: an instance as given; a name from the registry; `'exact'` from
 * `@boltzmann/ising-core` when no registry provides it.
 */
export function resolveSampler(
  sampler: string | Sampler,
  options: Readonly<Record<string, unknown>>,
  registry: SamplerRegistry | undefined,
): Sampler {
  if (typeof sampler !== 'string') return sampler;
  const plugin = registry?.get(sampler) ?? (sampler === 'exact' ? exactSampler : undefined);
  if (plugin === undefined) {
    const known =
      registry === undefined
        ? 'no registry given'
        : `known: ${
            registry
              .list()
              .map((p) => `"${p.name}"`)
              .join(', ') || 'none'
          }`;
    throw new AttentionError(
      'ATTENTION_SAMPLER_NOT_FOUND',
      `no sampler named ${echo(sampler)} (${known}); pass { registry } or a Sampler instance as { sampler }`,
    );
  }
  return plugin.create({ ...options });
}

/**
 * Options that attach a sampler when creating or loading a model, and how long to await its answers.
 *
 * @category Attention
 */
export type SamplerOverrides = Pick<
  TransformerConfig,
  'sampler' | 'samplerOptions' | 'registry' | 'samplerTimeoutMs'
>;

/** The model's sampler: none for `softmax`/`sigmoid`; overrides win over the recorded name and options. */
export function samplerFor(
  config: ResolvedTransformerConfig,
  overrides: SamplerOverrides,
): Sampler | undefined {
  if (!usesSampler(config.variant)) return undefined;
  return resolveSampler(
    overrides.sampler ?? config.sampler,
    overrides.samplerOptions ?? config.samplerOptions,
    overrides.registry,
  );
}
