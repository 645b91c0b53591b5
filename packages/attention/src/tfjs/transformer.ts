import { buildTransformer } from './buildTransformer.js';
import { initialValues } from '../model/init.js';
import { samplerFor } from '../model/resolveSampler.js';
import { checkSamplerTimeout } from '../model/samplerDeadline.js';
import { resolveTransformerConfig } from '../core/transformerConfig.js';
import type { TransformerConfig } from '../core/transformerConfigTypes.js';
import type { Transformer } from './modelTypes.js';

/**
 * Creates the Transformer with deterministic initial weights (given `config.seed`):
 * embeddings and linear kernels N(0, 0.02²), biases 0, LayerNorm gains 1, `J` per `jInit`.
 *
 * @param config see {@link TransformerConfig}; only `vocabSize` and `maxLength` are required.
 * @returns a model whose variables live until `dispose()`.
 * @throws {AttentionError} ATTENTION_INVALID_CONFIG (a field out of range, a size over `MODEL_LIMITS`, a bad
 *   `samplerTimeoutMs`), ATTENTION_SAMPLER_NOT_FOUND.
 * @example
 * import { createTransformer, initBackend } from '@boltzmann/attention';
 *
 * await initBackend();
 * const model = createTransformer({ vocabSize: 65, maxLength: 8, variant: 'boltzmann' });
 * const logits = await model.forward(new Int32Array(16), 2); // 2 sequences of 8 tokens
 * console.log(logits.shape); // [2, 8, 65]
 * logits.dispose();
 * model.dispose();
 * @category Model
 */
export function createTransformer(config: TransformerConfig): Transformer {
  const resolved = resolveTransformerConfig(config);
  const samplerTimeoutMs = checkSamplerTimeout(config.samplerTimeoutMs);
  const sampler = samplerFor(resolved, config);
  return buildTransformer(resolved, sampler, (spec) => initialValues(spec, resolved.seed), {
    ownsSampler: typeof config.sampler !== 'object',
    samplerTimeoutMs,
  });
}
