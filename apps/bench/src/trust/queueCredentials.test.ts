// Issue 38: with --queue, credentials in --sampler-options are refused (a job would carry them
// through Redis), and the refusal must name every credential variable a worker reads instead.
import { codeOf } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../index.js';
import { createBenchRegistry } from '../samplers/registry.js';

/** The environment variables the built-in plugins read their secret options from (`default`). */
async function credentialVariables(): Promise<string[]> {
  const registry = await createBenchRegistry([]);
  return registry
    .list()
    .flatMap((plugin) =>
      (plugin.options ?? [])
        .filter(
          (o) =>
            plugin.secretOptions?.includes(o.name) && /^[A-Z][A-Z0-9_]+$/.test(o.default ?? ''),
        )
        .map((o) => o.default!),
    );
}

const queued = (options: object) => () =>
  parseBenchArgs(
    [
      'brackets',
      '--queue',
      'redis://127.0.0.1:6379',
      '--sampler',
      'ibm',
      '--sampler-options',
      JSON.stringify(options),
    ],
    () => undefined,
  );

describe('--queue with credentials in --sampler-options', () => {
  it('is refused, naming every credential variable the workers read (IBM_CLOUD_API_KEY too)', async () => {
    const variables = await credentialVariables();
    expect(variables).toEqual(expect.arrayContaining(['DWAVE_API_TOKEN', 'IBM_CLOUD_API_KEY']));
    expect(codeOf(queued({ apiKey: 'IBM-KEY-0000' }))).toBe('BENCH_INVALID_OPTION');
    let message = '';
    try {
      queued({ apiKey: 'IBM-KEY-0000' })();
    } catch (e) {
      message = (e as Error).message;
    }
    for (const name of variables) expect(message).toContain(name);
    expect(message).toContain('AWS');
    expect(message).not.toContain('IBM-KEY-0000');
  });
});
