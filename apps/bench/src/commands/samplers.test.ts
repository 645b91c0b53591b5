import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';

async function samplers(...args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(['samplers', ...args], {
    out: (l) => void lines.push(l),
    err: (l) => void lines.push(l),
  });
  return { code, lines };
}

describe('bench samplers', () => {
  it('lists every built-in plugin with its capabilities, and a --plugin beside them', async () => {
    const table = await samplers();
    expect(table.code).toBe(0);
    expect(table.lines[0]).toMatch(/^name\s+version\s+exact\s+maxSpins\s+async/);
    const text = table.lines.join('\n');
    expect(text).toContain('gibbs options:');
    expect(text).toMatch(/ {2}chains +integer = 8\n +Independent chains per problem/);
    expect(text).toContain('dwave options:');
    const dir = mkdtempSync(join(tmpdir(), 'bench-samplers-'));
    const plugin = join(dir, 'mine.mjs');
    writeFileSync(
      plugin,
      `const capabilities = { exact: false, maxSpins: 7, async: true, deterministic: false };
export default { name: 'mine', version: '2.1.0', capabilities, secretOptions: ['token'],
  create: () => ({ name: 'mine', capabilities }) };
`,
    );
    const json = await samplers('--json', '--plugin', plugin);
    expect(json.code).toBe(0);
    const rows = json.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => r.name)).toEqual([
      'exact',
      'gibbs',
      'mean-field',
      'tap',
      'transfer-matrix',
      'dqa',
      'dwave',
      'braket',
      'ibm',
      'mine',
    ]);
    expect(rows.find((r) => r.name === 'exact')).toMatchObject({ exact: true, async: false });
    expect(rows.find((r) => r.name === 'dwave')).toMatchObject({ async: true, dryRun: true });
    expect(rows.find((r) => r.name === 'ibm')).toMatchObject({
      async: true,
      dryRun: true,
      maxSpins: 16,
      secretOptions: ['apiKey'],
    });
    expect(rows.at(-1)).toEqual({
      name: 'mine',
      version: '2.1.0',
      exact: false,
      maxSpins: 7,
      async: true,
      deterministic: false,
      dryRun: false,
      secretOptions: ['token'],
      options: [],
    });
    const gibbs = rows.find((r) => r.name === 'gibbs')!.options as { name: string }[];
    expect(gibbs.map((o) => o.name)).toEqual([
      'seed',
      'chains',
      'burnIn',
      'samples',
      'thin',
      'initial',
    ]);
    const bad = await samplers('--plugin', join(dir, 'missing.mjs'));
    expect(bad.code).toBe(1);
    expect(bad.lines.join('\n')).toContain('error [BENCH_PLUGIN_LOAD]');
  });

  it('every built-in plugin describes every option it accepts, and only those', async () => {
    const { createBenchRegistry } = await import('../samplers/registry.js');
    for (const plugin of (await createBenchRegistry([])).list()) {
      const specs = plugin.options ?? [];
      expect(specs.length, plugin.name).toBeGreaterThan(0);
      for (const spec of specs)
        expect(spec.doc.length, `${plugin.name}.${spec.name}`).toBeGreaterThan(10);
      // A described option is known to create's check (an unknown one names the known list).
      let message = '';
      try {
        plugin.create({ notAnOption: 1 });
      } catch (error) {
        message = (error as Error).message;
      }
      const known = /known options: (.*)$/.exec(message)?.[1]?.split(', ') ?? [];
      // (`threads` is split off before that check by the threaded plugins.)
      const own = specs.map((s) => s.name).filter((n) => n !== 'threads');
      expect(known.filter((n) => n !== 'threads').sort(), plugin.name).toEqual(own.sort());
    }
  });
});
