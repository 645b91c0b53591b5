import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../index.js';
import { tinyRunFlags } from '../testing/fixtures.js';

// An asynchronous sampler whose answer never comes (a remote service that hangs).
const NEVER = `
const capabilities = { exact: false, maxSpins: 16, async: true, deterministic: true };
export default {
  name: 'never', version: '1.0.0', capabilities,
  create: () => ({ name: 'never', capabilities, sample: () => new Promise(() => {}) }),
};
`;

describe('--sampler-timeout', () => {
  it('fails a run whose sampler never answers with a coded error, and the bench exits', async () => {
    const side = mkdtempSync(join(tmpdir(), 'bench-timeout-'));
    const plugin = join(side, 'never.mjs');
    writeFileSync(plugin, NEVER);
    const lines: string[] = [];
    const t0 = Date.now();
    const code = await main(
      [
        'shakespeare',
        ...tinyRunFlags(2),
        '--lengths',
        '3',
        '--variants',
        'boltzmann',
        '--seeds',
        '0',
        '--sampler',
        'never',
        '--plugin',
        plugin,
        '--sampler-timeout',
        '0.5',
        '--workers',
        '0',
        '--plain',
        '--results',
        join(side, 'results'),
      ],
      { out: (l) => void lines.push(l), err: (l) => void lines.push(l) },
    );
    expect(code).toBe(1);
    expect(lines.join('\n')).toMatch(/ATTENTION_SAMPLER_TIMEOUT/);
    expect(lines.join('\n')).toContain('"never"');
    // Well before the default half hour (the bound is loose for a loaded machine).
    expect(Date.now() - t0).toBeLessThan(60_000);
  });

  it('is parsed in seconds; 0 means no limit; a bad value is a usage error', async () => {
    const { parseBenchArgs } = await import('../cli/parseArgs.js');
    const ms = (v: string) =>
      parseBenchArgs(['shakespeare', '--sampler-timeout', v], () => undefined)?.samplerTimeoutMs;
    expect(ms('2.5')).toBe(2500);
    expect(ms('0')).toBe(0);
    expect(parseBenchArgs(['shakespeare'], () => undefined)?.samplerTimeoutMs).toBeUndefined();
    expect(() => ms('-1')).toThrow(expect.objectContaining({ code: 'BENCH_INVALID_OPTION' }));
  });
});
