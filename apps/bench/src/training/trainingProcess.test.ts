import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEMI_SPACE_MB, childProcessEntry, trainingExecArgv } from './trainingProcess.js';
import type { ChildProcessModule } from './trainingProcess.js';

describe('trainingExecArgv', () => {
  it('should start Node with tsx, the source condition and a 64 MiB semi-space, flags Node accepts', () => {
    const argv = trainingExecArgv();
    expect(argv).toContain('--conditions=@boltzmann/source');
    expect(argv).toContain(`--max-semi-space-size=${SEMI_SPACE_MB}`);
    // A Node started with these flags runs TypeScript and sees them (an unknown flag would exit 9).
    const out = execFileSync(
      process.execPath,
      [...argv, '--input-type=module', '-e', 'console.log(process.execArgv.join(" "))'],
      { encoding: 'utf8' },
    );
    expect(out).toContain('--max-semi-space-size=64');
  });
});

describe('childProcessEntry', () => {
  const modules: ChildProcessModule[] = [
    'pool/poolProcess',
    'inference/sampleProcess',
    'queue/queueProcessor',
  ];

  it('should name the source module from the sources, and a module bin/build.mjs builds by that name', async () => {
    const build = new URL('../../bin/build.mjs', import.meta.url).href;
    const { ENTRIES } = (await import(build)) as { ENTRIES: Record<string, string> };
    for (const module of modules) {
      const entry = childProcessEntry(module);
      expect(entry.href).toMatch(new RegExp(`/apps/bench/src/${module}\\.ts$`));
      expect(existsSync(fileURLToPath(entry))).toBe(true);
      expect(ENTRIES[module.slice(module.indexOf('/') + 1)]).toBe(`./src/${module}.ts`);
    }
  });
});
