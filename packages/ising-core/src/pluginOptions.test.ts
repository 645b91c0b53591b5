import { thrownBy } from './testing/index.js';
import { describe, expect, it } from 'vitest';
import { assertPluginOptions, exactSampler, gibbsSampler, meanFieldSampler } from './index.js';

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

const thrown = thrownBy;

describe('assertPluginOptions nesting limit', () => {
  it('refuses options nested 60,000 deep with a coded error instead of a stack overflow', () => {
    const error = thrown(() => assertPluginOptions('p', { seed: nested(60_000) }, ['seed']));
    expect(error.code).toBe('ISING_INVALID_ARGUMENT');
    expect(error.message).toMatch(
      /^p options nest objects or arrays more than 32 levels deep \(at "options\.seed\.a\.a/,
    );
    expect(error.message.length).toBeLessThan(400);
    const parsed: unknown = JSON.parse(`{"seed":${'['.repeat(60_000)}${']'.repeat(60_000)}}`);
    expect(thrown(() => assertPluginOptions('p', parsed, ['seed'])).code).toBe(
      'ISING_INVALID_ARGUMENT',
    );
  });

  it('makes every built-in plugin refuse absurdly nested options', () => {
    for (const plugin of [exactSampler, gibbsSampler, meanFieldSampler]) {
      const key =
        plugin === exactSampler ? 'threads' : plugin === gibbsSampler ? 'seed' : 'damping';
      const error = thrown(() => plugin.create({ [key]: nested(60_000) } as never));
      expect(error.code, plugin.name).toBe('ISING_INVALID_ARGUMENT');
      expect(error.message, plugin.name).toMatch(/more than 32 levels deep/);
    }
  });

  it('accepts 32 levels, refuses 33, and treats a cycle as too deep', () => {
    expect(() => assertPluginOptions('p', { seed: nested(31) }, ['seed'])).not.toThrow();
    expect(thrown(() => assertPluginOptions('p', { seed: nested(32) }, ['seed'])).code).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(thrown(() => assertPluginOptions('p', { seed: cyclic }, ['seed'])).code).toBe(
      'ISING_INVALID_ARGUMENT',
    );
    // Shared (non-cyclic) sub-objects are fine and cheap: 40 keys all pointing at one 30-deep chain.
    const shared = nested(30);
    expect(() =>
      assertPluginOptions(
        'p',
        { seed: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, shared])) },
        ['seed'],
      ),
    ).not.toThrow();
  });

  it('does not walk class instances, typed arrays or functions (SDK clients, data)', () => {
    class Client {
      self = this;
    }
    expect(() =>
      assertPluginOptions(
        'p',
        { client: new Client(), data: new Float64Array(1e6), fetch: () => 1 },
        ['client', 'data', 'fetch'],
      ),
    ).not.toThrow();
  });

  it('echoes bad values and long key lists in bounded form', () => {
    const long = thrown(() => assertPluginOptions('p', 'x'.repeat(200_000), []));
    expect(long.message.length).toBeLessThan(300);
    const many = Object.fromEntries(
      Array.from({ length: 5_000 }, (_, i) => [`${'k'.repeat(100)}${i}`, 1]),
    );
    const keys = thrown(() => assertPluginOptions('p', many, ['seed']));
    expect(keys.code).toBe('ISING_INVALID_ARGUMENT');
    expect(keys.message.length).toBeLessThan(800);
    expect(keys.message).toMatch(/… \(4990 more\); known options: seed$/);
  });
});
