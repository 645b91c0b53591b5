import { describe, expect, it } from 'vitest';
import { assertSamplerPlugin } from './index.js';
import { mergeSecretOptions, redactSecrets, splitSecretOptions } from './internalApi.js';

describe('splitSecretOptions', () => {
  it('removes declared and credential-looking keys at any depth, and merges them back', () => {
    const input = {
      token: 'DEV-abc',
      numReads: 100,
      clientConfig: { credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' }, maxAttempts: 2 },
      nested: { apiKey: 'k', keep: [1, 2] },
      solver: 'Advantage',
    };
    const { options, secrets, paths } = splitSecretOptions(input, [
      'clientConfig.credentials',
      'solver',
    ]);
    expect(options).toEqual({
      numReads: 100,
      clientConfig: { maxAttempts: 2 },
      nested: { keep: [1, 2] },
    });
    expect(JSON.stringify(options)).not.toMatch(/DEV-abc|AK|SK|"k"|Advantage/);
    expect(paths).toEqual(['token', 'clientConfig.credentials', 'nested.apiKey', 'solver']);
    expect(mergeSecretOptions(options, secrets)).toEqual(input);
    expect(input.token).toBe('DEV-abc');
  });

  it('gives the same public options whatever the token, so a hash of them survives rotation', () => {
    const a = splitSecretOptions({ token: 'one', seed: 1 }).options;
    const b = splitSecretOptions({ token: 'two', seed: 1 }).options;
    const c = splitSecretOptions({ seed: 1 }).options;
    expect(a).toEqual(b);
    expect(a).toEqual(c);
  });

  it('treats a non-object as no options', () => {
    expect(splitSecretOptions(undefined)).toEqual({ options: {}, secrets: {}, paths: [] });
  });

  it('plugins may declare secretOptions, and a malformed declaration is refused', () => {
    const base = {
      name: 'p',
      version: '1',
      capabilities: { exact: false, maxSpins: 4, async: false, deterministic: true },
      create: () => ({}),
    };
    expect(() => assertSamplerPlugin({ ...base, secretOptions: ['token'] })).not.toThrow();
    expect(() => assertSamplerPlugin({ ...base, secretOptions: 'token' })).toThrow(/secretOptions/);
  });
});

describe('redactSecrets', () => {
  it('replaces every secret leaf, longest first, and leaves short values alone', () => {
    const secrets = {
      token: 'DEV-123',
      clientConfig: { credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'AKIA1-long' } },
      pin: '1',
    };
    expect(redactSecrets('t=DEV-123 k=AKIA1-long a=AKIA1 n=1', secrets)).toBe(
      't=*** k=*** a=*** n=1',
    );
  });
});
