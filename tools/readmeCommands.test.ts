import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every ```sh block of every README (and of docs/results) is checked the way a reader would run
 * it, without running it: each `pnpm <script>`, `pnpm --filter <pkg> <script>`,
 * `pnpm nx run <project>:<target>` and `pnpm vitest --project <name>` must name a script,
 * package, project or vitest project that exists; every bench command's options must pass the
 * bench's own program (`bench`, `pnpm exec bench`, the package scripts); files a command runs
 * must exist. Install lines, `export`, `cd` and
 * comments are read for context only.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const pkgDirs = ['packages', 'apps'].flatMap((d) =>
  readdirSync(join(root, d)).map((p) => join(d, p)),
);
const packages = new Map(
  pkgDirs
    .filter((d) => existsSync(join(root, d, 'package.json')))
    .map((d) => {
      const json = JSON.parse(readFileSync(join(root, d, 'package.json'), 'utf8')) as {
        name: string;
        scripts?: Record<string, string>;
      };
      return [json.name, { dir: d, scripts: json.scripts ?? {} }] as const;
    }),
);
const rootScripts = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const vitestProjects = [
  ...readFileSync(join(root, 'vitest.config.ts'), 'utf8').matchAll(
    /(?:project\('|name: ')([\w-]+)'/g,
  ),
].map((m) => m[1]!);
const readmes = [
  'README.md',
  ...pkgDirs.map((d) => join(d, 'README.md')),
  ...readdirSync(join(root, 'docs', 'results')).map((d) => join('docs', 'results', d, 'README.md')),
].filter((p) => existsSync(join(root, p)));

interface Command {
  readonly where: string;
  readonly words: string[];
  /** The folder a preceding `cd` moved to, relative to the root. */
  readonly cwd: string;
}

/** Splits a shell line into words: '…' and "…" quoting, and `[…]` optional groups kept as plain words. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let has = false;
  for (const ch of line.replace(/[[\]]/g, ' ')) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || word !== '') words.push(word);
      word = '';
      has = false;
    } else word += ch;
  }
  if (has || word !== '') words.push(word);
  return words;
}

function commands(readme: string): Command[] {
  const lines = readFileSync(join(root, readme), 'utf8').split('\n');
  const out: Command[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)$/.test(lines[i]!.trim())) continue;
    let j = i + 1;
    for (; j < lines.length && lines[j]!.trim() !== '```'; j++) {
      let text = lines[j]!;
      const start = j;
      while (text.endsWith('\\') && j + 1 < lines.length)
        text = `${text.slice(0, -1)} ${lines[++j]!}`;
      text = text.replace(/(^|\s)#.*$/, '').trim();
      let cwd = '.';
      for (const part of text.split(/\s*&&\s*/)) {
        const words = shellWords(part).filter(
          (w, k, all) =>
            !(k < all.indexOf(all.find((x) => !/^\w+=/.test(x)) ?? '') && /^\w+=/.test(w)),
        );
        if (words[0] === 'cd') cwd = words[1]!;
        else if (words.length > 0 && words[0] !== 'export')
          out.push({ where: `${readme}:${start + 1}`, words, cwd });
      }
    }
    i = j;
  }
  return out;
}

/** The bench's own command-line parser: the one program of every command (apps/bench/src/cli). */
async function parseBench(argv: string[]): Promise<unknown> {
  const cli = join(root, 'apps', 'bench', 'src', 'cli');
  const { BENCH_COMMANDS } = await import(join(cli, 'commandTable.ts'));
  const { parseCommandLine } = await import(join(cli, 'program.ts'));
  return parseCommandLine(BENCH_COMMANDS, argv, () => undefined);
}

/** What is wrong with one command, or undefined. */
async function problem(c: Command): Promise<string | undefined> {
  const [tool, ...rest] = c.words;
  const bench = async (args: string[]): Promise<string | undefined> => {
    // The shell's redirection (`> runs.csv`, `2> err.txt`) is not the bench's.
    const redirect = args.findIndex((w) => /^\d?>>?$/.test(w));
    const words = redirect >= 0 ? args.slice(0, redirect) : args;
    const argv = words[0] === '--' ? words.slice(1) : words;
    try {
      await parseBench(argv);
      return undefined;
    } catch (error) {
      return `bench ${argv.join(' ')}: ${(error as Error).message}`;
    }
  };
  const script = (
    pkg: { scripts: Record<string, string> },
    name: string,
    args: string[],
    benchTask?: string,
  ) => {
    if (!(name in pkg.scripts)) return Promise.resolve(`no script "${name}"`);
    return benchTask === undefined ? Promise.resolve(undefined) : bench([benchTask, ...args]);
  };
  const inPackage = [...packages.values()].find(
    (p) => p.dir === c.cwd.replace(/^\.\//, '').replace(/\/$/, ''),
  );
  if (tool === 'bench') return bench(rest);
  if (tool === 'node' || tool === 'tsx') {
    const file = rest.find((w) => /\.(ts|mjs|js)$/.test(w) && !w.startsWith('-'));
    if (file !== undefined && !existsSync(join(root, c.cwd, file))) return `no file ${file}`;
    const cli = rest.findIndex((w) => w.endsWith('src/cli/bin.ts') || w.endsWith('bin/bench.mjs'));
    return cli >= 0 ? bench(rest.slice(cli + 1)) : undefined;
  }
  if (tool === 'npx' && rest[0] === '-y' && rest[1]?.startsWith('pnpm@'))
    return problem({ ...c, words: ['pnpm', ...rest.slice(2)] });
  if (tool !== 'pnpm') return undefined; // other tools (curl, python3, …) are read, not checked
  const args = rest[0] === '--silent' ? rest.slice(1) : rest;
  const [verb, ...tail] = args;
  if (verb === 'add' || verb === 'install' || verb === 'i') {
    const unknown = tail.filter((w) => w.startsWith('@boltzmann/') && !packages.has(w));
    return unknown.length > 0 ? `no workspace package ${unknown.join(', ')}` : undefined;
  }
  // `pnpm exec bench …`: the bench's bin, from the repository root or apps/bench.
  if (verb === 'exec' && tail[0] === 'bench') return bench(tail.slice(1));
  if (verb === '--filter') {
    const pkg = packages.get(tail[0]!);
    if (pkg === undefined) return `no package ${tail[0]}`;
    return script(pkg, tail[1]!, tail.slice(2), pkg.dir === 'apps/bench' ? tail[1] : undefined);
  }
  if (verb === 'nx' && tail[0] === 'run') {
    const [project, target] = tail[1]!.split(':') as [string, string];
    const pkg = [...packages.entries()].find(
      ([name]) => name.replace(/^@boltzmann\//, '') === project,
    )?.[1];
    if (pkg === undefined) return `no nx project ${project}`;
    const extra = tail.slice(2);
    if (pkg.dir === 'apps/bench') return script(pkg, target, extra, target);
    return script(pkg, target, []);
  }
  if (verb === 'vitest') {
    const p = tail.indexOf('--project');
    return p >= 0 && !vitestProjects.includes(tail[p + 1]!)
      ? `no vitest project ${tail[p + 1]}`
      : undefined;
  }
  if (inPackage !== undefined && !(verb! in rootScripts)) {
    return script(inPackage, verb!, tail, inPackage.dir === 'apps/bench' ? verb : undefined);
  }
  return verb! in rootScripts ? undefined : `no root script "${verb}"`;
}

describe('README shell commands', () => {
  const all = readmes.flatMap(commands);

  it('finds the commands (the check is not vacuous)', () => {
    expect(all.length).toBeGreaterThan(40);
    expect(shellWords(`--sampler-options '{"a": 1}' [--out x]`)).toEqual([
      '--sampler-options',
      '{"a": 1}',
      '--out',
      'x',
    ]);
  });

  it('the check catches a missing script, package, project and a bad bench option', async () => {
    const at = { where: 'test', cwd: '.' };
    expect(await problem({ ...at, words: ['pnpm', 'no-such-script'] })).toMatch(/no root script/);
    expect(await problem({ ...at, words: ['pnpm', '--filter', '@boltzmann/nope', 'x'] })).toMatch(
      /no package/,
    );
    expect(await problem({ ...at, words: ['pnpm', 'nx', 'run', 'bench:nope'] })).toMatch(
      /no script/,
    );
    expect(
      await problem({ ...at, words: ['pnpm', 'nx', 'run', 'bench:gpt', '--', '--no-such-option'] }),
    ).toMatch(/unknown option/i);
    expect(await problem({ ...at, words: ['bench', 'gpt', '--preset', 'huge'] })).toMatch(/huge/);
    expect(await problem({ ...at, words: ['pnpm', 'exec', 'bench', 'reprot'] })).toMatch(
      /did you mean "report"/,
    );
  });

  it('every command names what exists, and every bench command parses', async () => {
    const found: string[] = [];
    for (const c of all) {
      const p = await problem(c);
      if (p !== undefined) found.push(`${c.where}: ${c.words.join(' ')}\n  → ${p}`);
    }
    expect(found).toEqual([]);
  }, 120_000);
});
