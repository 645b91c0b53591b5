import { beforeAll, describe, expect, it } from 'vitest';
import { createSamplerRegistry, defineSamplerPlugin, exactSampler } from '@boltzmann/ising-core';
import { createTransformer, initBackend, loadTransformer } from '../index.js';

const seen: Record<string, unknown>[] = [];
const capabilities = { exact: true, maxSpins: 16, async: false, deterministic: true };
// A hardware-like plugin: it needs a token and a region, and declares the token secret.
const tokenPlugin = defineSamplerPlugin<Record<string, unknown>>({
  name: 'needs-token',
  version: '1.0.0',
  capabilities,
  secretOptions: ['account.token'],
  create(options = {}) {
    seen.push(options);
    return { ...exactSampler.create(), name: 'needs-token', capabilities };
  },
});
const registry = createSamplerRegistry().register(tokenPlugin).freeze();

describe('sampler credentials and saved models', () => {
  beforeAll(async () => {
    await initBackend('wasm', { log: () => {} });
  });

  it('the sampler gets its token, the saved model never holds it', () => {
    const samplerOptions = {
      region: 'eu',
      account: { token: 'TOKEN-4242', user: 'me' },
      apiKey: 'KEY-777',
    };
    const model = createTransformer({
      vocabSize: 5,
      maxLength: 4,
      dModel: 8,
      sampler: 'needs-token',
      samplerOptions,
      registry,
    });
    expect(seen.at(-1)).toEqual(samplerOptions);
    const json = JSON.stringify(model.toJSON());
    expect(json).not.toContain('TOKEN-4242');
    expect(json).not.toContain('KEY-777');
    expect(model.toJSON().config.samplerOptions).toEqual({ region: 'eu', account: { user: 'me' } });
    // Reloading without the secret recreates the sampler from the public options.
    const again = loadTransformer(model.toJSON(), { registry });
    expect(seen.at(-1)).toEqual({ region: 'eu', account: { user: 'me' } });
    model.dispose();
    again.dispose();
  });
});
