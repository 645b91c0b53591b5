import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trainingExecArgv } from '../training/trainingProcess.js';

/**
 * A plugin written with import/export as a bare `.js` file, in a folder with no package.json (so
 * Node and tsx read `.js` as CommonJS): it loads, as the same file named `.mjs` does; when a `.js`
 * file it imports is read as CommonJS too, the coded error says exactly what to do. Checked in a
 * child process started as the bench starts its training processes (under vitest, Vite's module
 * runner, not Node's loader, would import the plugin).
 */
const registryURL = new URL('./registry.ts', import.meta.url).href;

/** Loads each plugin path in one bench process: its name, or the error's code and message. */
function loadAll(
  cwd: string,
  paths: string[],
): Array<{ name?: string; code?: string; message?: string }> {
  const probe = join(cwd, 'probe.mjs');
  writeFileSync(
    probe,
    `const { loadPluginModule } = await import(${JSON.stringify(registryURL)});
const out = [];
for (const path of ${JSON.stringify(paths)}) {
  try { out.push({ name: (await loadPluginModule(path)).name }); }
  catch (e) { out.push({ code: e.code, message: e.message }); }
}
console.log(JSON.stringify(out));
`,
  );
  const child = spawnSync(process.execPath, [...trainingExecArgv(), probe], {
    cwd,
    encoding: 'utf8',
    timeout: 50_000,
  });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout);
}

const PLUGIN = `import { defineSamplerPlugin, exactSampler } from '@boltzmann/ising-core';
export default defineSamplerPlugin({ ...exactSampler, name: 'NAME' });
`;
const HELPER = `import { exactSampler } from '@boltzmann/ising-core';
export const base = exactSampler;
`;
const WITH_HELPER = `import { defineSamplerPlugin } from '@boltzmann/ising-core';
import { base } from './lib/helper.js';
export default defineSamplerPlugin({ ...base, name: 'NAME' });
`;

describe('a plugin as a bare .js file with import syntax', () => {
  it('loads like .mjs; a CommonJS-read .js it imports fails with the fix', () => {
    const bare = mkdtempSync(join(tmpdir(), 'bench-bare-js-'));
    const typed = mkdtempSync(join(tmpdir(), 'bench-type-module-'));
    for (const folder of [bare, typed]) {
      mkdirSync(join(folder, 'lib'));
      writeFileSync(join(folder, 'lib', 'helper.js'), HELPER);
      writeFileSync(join(folder, 'withHelper.js'), WITH_HELPER.replace('NAME', 'with-helper'));
    }
    writeFileSync(join(bare, 'mySampler.js'), PLUGIN.replace('NAME', 'bare-js'));
    writeFileSync(join(bare, 'mySampler.mjs'), PLUGIN.replace('NAME', 'bare-mjs'));
    writeFileSync(join(typed, 'package.json'), '{ "type": "module" }\n');

    const [js, mjs, helper] = loadAll(
      bare,
      ['mySampler.js', 'mySampler.mjs', 'withHelper.js'].map((f) => join(bare, f)),
    );
    expect(js).toEqual({ name: 'bare-js' });
    expect(mjs).toEqual({ name: 'bare-mjs' });
    expect(helper!.code).toBe('BENCH_PLUGIN_LOAD');
    expect(helper!.message).toContain(
      `withHelper.js and the .js files it imports are read as CommonJS there (no package.json with "type": "module" above them): rename them to .mjs, or add a package.json with {"type": "module"} to ${bare}`,
    );
    // The fix the message gives works.
    expect(loadAll(typed, [join(typed, 'withHelper.js')])).toEqual([{ name: 'with-helper' }]);
  }, 60_000);
});
