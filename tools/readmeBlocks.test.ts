import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every ```ts and ```js block of every README is type-checked as a module of its own, against
 * the workspace's sources (the compiler options of `pnpm typecheck`; JavaScript blocks are
 * resolved, not type-checked), with the DOM and Vite's client types (`?worker` imports) for
 * the browser examples. A block whose first line is a comment naming a file
 * (`// mySampler.js — …`) is written under that name, so a later block can import it.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const readmes = [
  'README.md',
  ...['packages', 'apps'].flatMap((dir) =>
    readdirSync(join(root, dir)).map((p) => join(dir, p, 'README.md')),
  ),
].filter((p) => existsSync(join(root, p)));

interface Block {
  readonly readme: string;
  readonly line: number;
  readonly code: string;
  readonly ext: 'ts' | 'js';
}

function blocks(readme: string): Block[] {
  const lines = readFileSync(join(root, readme), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = lines[i]!.trim();
    if (fence !== '```ts' && fence !== '```js') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    out.push({
      readme,
      line: start + 1,
      code: lines.slice(start, end).join('\n'),
      ext: fence === '```ts' ? 'ts' : 'js',
    });
    i = end;
  }
  return out;
}

describe('README code blocks', () => {
  it('every ```ts block of every README type-checks against the workspace', () => {
    const all = readmes.flatMap(blocks);
    expect(all.length).toBeGreaterThan(5);
    // Inside the bench app, which depends on every package (and tfjs), so the imports resolve.
    const dir = join(root, 'apps', 'bench', '.readme-blocks');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = all.map((b, k) => {
      const named = /^\/\/ ([\w.-]+\.[jt]s)\b/.exec(b.code)?.[1];
      const name = named ?? `${b.readme.replace(/[/.]/g, '_')}_${b.line}.${b.ext}`;
      // `export {}` makes each block a module (top-level await, no shared globals).
      writeFileSync(join(dir, name), `${b.code}\nexport {};\n`);
      return { name, block: b, k };
    });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../../tsconfig.base.json',
        compilerOptions: {
          noEmit: true,
          noUnusedLocals: false,
          allowJs: true,
          checkJs: false,
          lib: ['ES2023', 'DOM'],
          types: ['node', 'vite/client'],
        },
        include: ['*.ts', '*.js'],
      }),
    );
    let output = '';
    try {
      execFileSync(
        process.execPath,
        [
          join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
          '-p',
          join(dir, 'tsconfig.json'),
          '--pretty',
          'false',
        ],
        { encoding: 'utf8', stdio: 'pipe' },
      );
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    // Name each error by its README and line, not by the generated file.
    const report = output
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const f = files.find((x) => l.includes(x.name));
        if (!f) return l;
        const m = /\((\d+),(\d+)\)/.exec(l);
        const line = m ? f.block.line + Number(m[1]) - 1 : f.block.line;
        return `${f.block.readme}:${line}: ${l.slice(l.indexOf('error'))}`;
      });
    expect(
      report,
      `README blocks that do not compile (relative to ${relative(process.cwd(), root) || '.'}):\n${report.join('\n')}`,
    ).toEqual([]);
  });
});
