import { withoutNodeBuiltins } from '@boltzmann/ising-core/testing';
import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The isomorphic packages bundle for a browser: esbuild builds each one's entry for the
 * `browser` platform, and no module of the bundle imports a Node built-in at its top level (a
 * static `import`). Lazy ones (`import('node:…')` inside a function, or `nodeBuiltin`) are
 * allowed: they run only on Node. The datasets bundle is also run, with Node's built-ins hidden.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

async function staticNodeImports(entry: string | { contents: string }): Promise<string[]> {
  const result = await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [`${root}/${entry}`] }
      : { stdin: { contents: entry.contents, resolveDir: root, loader: 'ts' as const } }),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    conditions: ['@boltzmann/source'],
    // Node built-ins are left unresolved; the metafile says how each one is imported.
    external: ['node:*'],
  });
  const meta: Metafile = result.metafile;
  return Object.entries(meta.inputs).flatMap(([file, input]) =>
    input.imports
      .filter((i) => i.path.startsWith('node:') && i.kind === 'import-statement')
      .map((i) => `${file} imports ${i.path}`),
  );
}

describe('browser bundles', () => {
  it('the check sees a top-level Node import, and lets a lazy one through', async () => {
    expect(
      await staticNodeImports({
        contents: "import { readFileSync } from 'node:fs'; export const f = readFileSync;",
      }),
    ).toEqual(['<stdin> imports node:fs']);
    expect(
      await staticNodeImports({ contents: "export const f = () => import('node:fs');" }),
    ).toEqual([]);
  });

  for (const entry of [
    'packages/ising-core/src/index.ts',
    'packages/dqa-sim/src/index.ts',
    'packages/attention/src/index.ts',
    'packages/datasets/src/index.ts',
  ]) {
    it(`${entry} bundles for the browser with no top-level Node built-in`, async () => {
      expect(await staticNodeImports(entry)).toEqual([]);
    }, 60_000);
  }

  it('the datasets bundle loads Tiny Shakespeare from bytes with no Node built-in', async () => {
    const result = await build({
      stdin: {
        contents: "export { loadTinyShakespeareFrom } from './packages/datasets/src/index.ts';",
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      conditions: ['@boltzmann/source'],
      external: ['node:*'],
    });
    const dir = mkdtempSync(join(tmpdir(), 'boltzmann-bundle-'));
    try {
      const file = join(dir, 'datasets.mjs');
      writeFileSync(file, result.outputFiles[0]!.text);
      const bytes = new Uint8Array(
        readFileSync(join(root, 'data', 'tinyshakespeare', 'input.txt')),
      );
      const data = await withoutNodeBuiltins(async () => {
        const bundled = (await import(
          /* @vite-ignore */ pathToFileURL(file).href
        )) as typeof import('../packages/datasets/src/index.js');
        return bundled.loadTinyShakespeareFrom({ bytes });
      });
      expect([data.source, data.vocab.size, data.train.length]).toEqual(['bytes', 65, 1_003_854]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
