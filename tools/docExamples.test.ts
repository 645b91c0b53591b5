import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import {
  collectDocExamples,
  examplesOfComment,
  longSummaries,
  uncategorizedNames,
} from './docExamples.js';
import type { DocExample } from './docExamples.js';

/**
 * Every `@example` of the public API (the names typedoc.json's entry points export, and their
 * members), and the reference site's landing page (docs/reference/index.md), is a complete
 * program: it type-checks as a module of its own against the workspace (so it imports what it
 * uses and declares what it reads), and it runs to the end without throwing. An example that must
 * not run here (it reaches a cloud service) says so in a comment, `// not run: <why>`, and is
 * only type-checked.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
// Inside the bench app, which depends on every package (and tfjs), so the imports resolve.
const dir = join(root, 'apps', 'bench', '.doc-examples');
const LANDING = 'docs/reference/index.md';
// The Tiny Shakespeare examples read the data directory as CI gives it (.ci/run): never the network.
process.env.BOLTZMANN_DATA_DIR ??= join(root, '..', 'shared', 'data');

/** The fenced ```ts blocks of the landing page, as examples. */
function landingExamples(): DocExample[] {
  const lines = readFileSync(join(root, LANDING), 'utf8').split('\n');
  const out: DocExample[] = [];
  lines.forEach((l, i) => {
    if (l.trim() !== '```ts') return;
    const end = lines.indexOf('```', i + 1);
    const code = `${lines.slice(i + 1, end).join('\n')}\n`;
    out.push({ name: 'landing page', file: LANDING, line: i + 2, code });
  });
  return out;
}

const examples = [...collectDocExamples(root), ...landingExamples()];
const fileOf = (k: number): string => `example${k}.mts`;
const where = (e: DocExample): string => `${e.file}:${e.line} (${e.name})`;

describe('examplesOfComment', () => {
  it('reads a bare example up to the next tag, and fenced ones by their fences', () => {
    const raw = [
      '/**',
      ' * Summary.',
      ' * @example',
      " * import { f } from 'x';",
      ' * f();',
      ' * @example',
      ' * Caption.',
      ' * ```ts',
      ' * // @ts-expect-error inside a fence is code',
      ' * g();',
      ' * ```',
      ' * @category A',
      ' */',
    ].join('\n');
    expect(examplesOfComment(raw, 10)).toEqual([
      { line: 12, code: "import { f } from 'x';\nf();\n" },
      { line: 15, code: '// @ts-expect-error inside a fence is code\ng();\n' },
    ]);
  });
});

describe('the reference categories and summaries', () => {
  it('every public name has a short summary on its package page (an @summary, or a short first paragraph)', () => {
    const long = longSummaries(root, 200);
    expect(
      long,
      `summaries over 200 characters (add an @summary line):\n${long.join('\n')}`,
    ).toEqual([]);
  });

  it('every public name of a package carries a @category (its group on the package page)', () => {
    const missing = uncategorizedNames(root);
    expect(missing, `public names without a @category:\n${missing.join('\n')}`).toEqual([]);
  });
});

describe('the reference examples', () => {
  it('the landing page is the site’s index and links to METHOD, the playground and the benches', () => {
    const typedoc = JSON.parse(readFileSync(join(root, 'typedoc.json'), 'utf8')) as {
      readme: string;
    };
    expect(typedoc.readme).toBe(LANDING);
    const page = readFileSync(join(root, LANDING), 'utf8');
    for (const target of ['docs/METHOD.md', 'apps/playground', 'apps/bench', 'docs/benchmarks'])
      expect(page, `the landing page links to ${target}`).toContain(`/main/${target}`);
  });

  it('finds the public examples and the landing page', () => {
    expect(examples.length).toBeGreaterThan(100);
    expect(examples.some((e) => e.name === '@boltzmann/attention.createEngineTrainer')).toBe(true);
    expect(examples.some((e) => e.file === LANDING)).toBe(true);
  });

  it('every example type-checks as a complete module', () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    examples.forEach((e, k) => writeFileSync(join(dir, fileOf(k)), `${e.code}export {};\n`));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../../tsconfig.base.json',
        compilerOptions: { noEmit: true, noUnusedLocals: false },
        include: ['*.mts'],
      }),
    );
    let output = '';
    try {
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    // Name each error by the example's source file and line, not by the generated file.
    const report = output
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const k = Number(/example(\d+)\.mts/.exec(l)?.[1] ?? Number.NaN);
        const e = examples[k];
        if (e === undefined) return l;
        const at = /\((\d+),\d+\)/.exec(l)?.[1];
        return `${where(e)} line ${at ?? '?'} of the example: ${l.slice(l.indexOf('error'))}`;
      });
    expect(report, `examples that do not compile:\n${report.join('\n')}`).toEqual([]);
  }, 240_000);

  // In this process, one module each: the packages load once, so ~170 examples take seconds.
  it.each(examples.map((e, k) => [where(e), k] as const))('%s runs', async (_at, k) => {
    const e = examples[k]!;
    if (/\/\/ not run: \S/.test(e.code)) return;
    // What the examples print is for readers, not for the test log.
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const path = join(dir, fileOf(k));
    writeFileSync(path, `${e.code}export {};\n`);
    const started = performance.now();
    await import(/* @vite-ignore */ pathToFileURL(path).href);
    const seconds = (performance.now() - started) / 1000;
    expect(
      seconds,
      `${where(e)} took ${seconds.toFixed(1)} s (examples stay under 5 s)`,
    ).toBeLessThan(5);
  });
});
