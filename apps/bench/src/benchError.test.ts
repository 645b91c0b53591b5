import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchError, formatError } from './index.js';
import { bench } from './testing/fixtures.js';

/** `e` with its `message` (or `name`) replaced by any value, as careless code can leave it. */
const withField = <E extends Error>(e: E, key: 'message' | 'name', value: unknown): E =>
  Object.defineProperty(e, key, { value, enumerable: false });

describe('formatError', () => {
  it('prints a thrown plain object as bounded JSON, not [object Object]', () => {
    const line = formatError({ reason: 'x' });
    expect(line).toMatch(/^error \[BENCH_RUN_FAILED\]: .*\{"reason":"x"\}$/);
    expect(line).not.toContain('[object Object]');
  });

  it('quotes a thrown string and prints other primitives readably', () => {
    expect(formatError('disk on fire')).toMatch(/^error \[BENCH_RUN_FAILED\]: .*"disk on fire"$/);
    expect(formatError(undefined)).toMatch(/^error \[BENCH_RUN_FAILED\]: .*undefined$/);
    expect(formatError(Symbol('s'))).toMatch(/Symbol\(s\)$/);
    expect(formatError(12n)).toMatch(/12n$/);
  });

  it('bounds huge values to one short line', () => {
    const huge = { rows: Array.from({ length: 200_000 }, (_, i) => ({ i, text: 'abc\ndef' })) };
    for (const value of [huge, 'y'.repeat(1_000_000), [huge]]) {
      const line = formatError(value);
      expect(line.length).toBeLessThan(300);
      expect(line).not.toContain('\n');
    }
  });

  it('handles errors whose message or name is not a string', () => {
    const plain = withField(new Error(), 'message', { reason: 'x' });
    expect(formatError(plain)).toBe('error [BENCH_RUN_FAILED]: Error: {"reason":"x"}');
    const coded = withField(new BenchError('BENCH_RUN_FAILED', ''), 'message', ['a', 1]);
    expect(formatError(coded)).toBe('error [BENCH_RUN_FAILED]: ["a",1]');
    const named = withField(withField(new Error(), 'name', 42), 'message', undefined);
    expect(formatError(named)).toBe('error [BENCH_RUN_FAILED]: 42: undefined');
  });

  it('never throws: cycles, null prototypes, throwing getters and proxies', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const getter = withField(new Error('m'), 'message', undefined);
    Object.defineProperty(getter, 'message', {
      get() {
        throw new Error('no');
      },
    });
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    for (const value of [cyclic, Object.create(null), getter, trap]) {
      const line = formatError(value);
      expect(line).toMatch(/^error \[BENCH_RUN_FAILED\]: \S/);
      expect(line).not.toContain('\n');
    }
    expect(formatError(Object.assign(Object.create(null), { k: 'v' }))).toContain('{"k":"v"}');
  });

  it('`bench shakespeare` with a plugin that throws a plain object prints it readably', async () => {
    const side = mkdtempSync(join(tmpdir(), 'bench-error-plugin-'));
    const plugin = join(side, 'plainThrow.mjs');
    writeFileSync(
      plugin,
      `const capabilities = { exact: false, maxSpins: 16, async: false, deterministic: true };
export default {
  name: 'plain-throw', version: '1.0.0', capabilities,
  create() { throw { reason: 'no licence for this sampler' }; },
};
`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'bench-error-'));
    const { code, text } = await bench(
      'shakespeare',
      '--lengths',
      '3',
      '--variants',
      'boltzmann',
      '--steps',
      '2',
      '--sampler',
      'plain-throw',
      '--plugin',
      plugin,
      '--workers',
      '0',
      '--results',
      dir,
    );
    expect(code).toBe(1);
    expect(text).toMatch(
      /error \[BENCH_RUN_FAILED\]: .*\{"reason":"no licence for this sampler"\}/,
    );
    expect(text).not.toContain('[object Object]');
  });
});
