import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// Direct module import: the barrel also pulls in TF.js.
import { trainingExecArgv } from '../training/trainingProcess.js';
import { createBenchRegistry, loadPluginModule } from './registry.js';
import { codeOf } from '@boltzmann/ising-core/testing';

const dir = mkdtempSync(join(tmpdir(), 'bench-plugin-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const goodPlugin = file(
  'constantSampler.mjs',
  `export default {
  name: 'third-party-const',
  version: '1.0.0',
  capabilities: { exact: false, maxSpins: 8, async: false, deterministic: true },
  create: () => ({ name: 'third-party-const', capabilities: { exact: false, maxSpins: 8, async: false, deterministic: true } }),
};
`,
);

describe('createBenchRegistry', () => {
  it('registers the built-in samplers and freezes', async () => {
    const registry = await createBenchRegistry();
    const names = registry.list().map((p) => p.name);
    expect(names).toContain('exact');
    expect(names).toContain('dqa');
    expect(() => registry.register({ ...registry.require('exact'), name: 'late' })).toThrow(
      /frozen/,
    );
  });

  it('loads a third-party plugin from a path (default export) after the built-ins', async () => {
    const registry = await createBenchRegistry([goodPlugin]);
    expect(registry.require('third-party-const').version).toBe('1.0.0');
    expect(registry.list().at(-1)!.name).toBe('third-party-const');
  });

  it('rejects bad plugin modules with coded errors', async () => {
    expect(await codeOf(loadPluginModule(join(dir, 'missing.mjs')))).toBe('BENCH_PLUGIN_LOAD');
    expect(await codeOf(loadPluginModule(file('noDefault.mjs', 'export const x = 1;\n')))).toBe(
      'BENCH_PLUGIN_LOAD',
    );
    expect(await codeOf(loadPluginModule(file('syntax.mjs', 'export default {\n')))).toBe(
      'BENCH_PLUGIN_LOAD',
    );
    expect(
      await codeOf(loadPluginModule(file('throws.mjs', "throw new Error('boom at import');\n"))),
    ).toBe('BENCH_PLUGIN_LOAD');
    // A module that throws a plain object at import: its message reads the object.
    const plain: unknown = await loadPluginModule(
      file('throwsObject.mjs', "throw { reason: 'no licence' };\n"),
    ).catch((e: unknown) => e as Error);
    expect((plain as Error).message).toContain('{"reason":"no licence"}');
    expect((plain as Error).message).not.toContain('[object Object]');
    expect(
      await codeOf(
        loadPluginModule(file('shape.mjs', "export default { name: 'x', version: 1 };\n")),
      ),
    ).toBe('ISING_INVALID_PLUGIN');
    await expect(
      loadPluginModule(file('shape2.mjs', "export default { name: 'x' };\n")),
    ).rejects.toThrow(/default export needs a string `version`/);
    const dup = file(
      'dup.mjs',
      `export default { name: 'exact', version: '0', capabilities: { exact: true, maxSpins: 4, async: false, deterministic: true }, create() {} };\n`,
    );
    expect(await codeOf(createBenchRegistry([dup]))).toBe('ISING_SAMPLER_DUPLICATE');
  });
});

describe('plugins kept outside the repo', () => {
  // A user's own folder: no node_modules anywhere up its tree, so `@boltzmann/*` can only come
  // from the bench's own install.
  const outside = mkdtempSync(join(tmpdir(), 'bench-own-plugin-'));
  const write = (name: string, text: string): string => {
    const p = join(outside, name);
    writeFileSync(p, text);
    return p;
  };

  // Under vitest, Vite's module runner (not Node's loader) imports the plugin, so the real path
  // is checked in a child process started the way the bench starts its training processes.
  it('resolves @boltzmann/* from the bench: the same module instance the bench uses', () => {
    const plugin = write(
      'outsideExact.mjs',
      `import { defineSamplerPlugin, exactSampler } from '@boltzmann/ising-core';
import { describeSamplerConformance } from '@boltzmann/ising-core/testing/vitest';
export default defineSamplerPlugin({ ...exactSampler, name: 'outside-exact', conformance: typeof describeSamplerConformance });
`,
    );
    const probe = write(
      'probe.mjs',
      `const { createBenchRegistry } = await import(${JSON.stringify(new URL('./registry.ts', import.meta.url).href)});
const registry = await createBenchRegistry([${JSON.stringify(plugin)}]);
const mine = registry.require('outside-exact');
console.log(JSON.stringify({ sameCore: mine.create === registry.require('exact').create, conformance: mine.conformance }));
`,
    );
    const child = spawnSync(process.execPath, [...trainingExecArgv(), probe], {
      cwd: outside,
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ sameCore: true, conformance: 'function' });
  });

  it('says how to fix a plugin whose own dependency is missing', async () => {
    const path = write('needsLib.mjs', "import 'left-pad-not-installed';\nexport default {};\n");
    const error: Error = await loadPluginModule(path).then(
      () => new Error('loaded'),
      (e: unknown) => e as Error,
    );
    expect((error as { code?: string }).code).toBe('BENCH_PLUGIN_LOAD');
    expect(error.message).toContain("Cannot find package 'left-pad-not-installed'");
    expect(error.message).toContain(`cd ${outside} && npm install left-pad-not-installed`);
  });
});
