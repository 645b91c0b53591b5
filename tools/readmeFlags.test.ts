import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The READMEs' bench flag tables against the bench's own program (apps/bench/src/cli). A table
 * follows a marker naming the commands it documents, `<!-- bench flags: shakespeare brackets -->`;
 * a row whose first cell starts with "`dqa` only:" (or "`a`, `b` only:") is about those commands.
 * Every flag of a row must be an option of exactly the commands the row is about (of the table's
 * commands), every option of a command must be in a row about it, and every command must have a
 * table. `bench collect <task>` takes the grid command's flags: it is checked against its table.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'apps', 'bench', 'src', 'cli');

/** What the test reads of a commander command (the tools project does not depend on commander). */
interface Command {
  name(): string;
  readonly commands: readonly Command[];
  readonly options: readonly { readonly long?: string; readonly hidden: boolean }[];
}

/** Each command (a nested one as `collect shakespeare`) with its options as `--help` lists them. */
async function benchOptions(): Promise<Map<string, Set<string>>> {
  const { BENCH_COMMANDS } = await import(join(src, 'commandTable.ts'));
  const { benchProgram } = await import(join(src, 'program.ts'));
  const program = benchProgram(BENCH_COMMANDS, () => undefined) as Command;
  const options = new Map<string, Set<string>>();
  const visit = (cmd: Command, path: string): void => {
    if (cmd.commands.length > 0) {
      for (const sub of cmd.commands) visit(sub, `${path} ${sub.name()}`);
      return;
    }
    const visible = cmd.options.filter((o) => !o.hidden && o.long !== undefined);
    options.set(path, new Set(visible.map((o) => o.long!)));
  };
  for (const cmd of program.commands) visit(cmd, cmd.name());
  return options;
}

/** One flag table: where it is, the commands it documents, and its rows. */
interface FlagTable {
  readonly where: string;
  readonly commands: readonly string[];
  readonly rows: readonly { line: number; only: readonly string[] | undefined; flags: string[] }[];
}

/** The marked flag tables of one markdown text. */
function flagTables(text: string, file: string): FlagTable[] {
  const lines = text.split('\n');
  const tables: FlagTable[] = [];
  for (const [i, line] of lines.entries()) {
    const marker = /^<!-- bench flags: ([\w\s-]+) -->$/.exec(line.trim());
    if (!marker) continue;
    const rows: { line: number; only: readonly string[] | undefined; flags: string[] }[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith('|')) j++;
    for (j += 2; j < lines.length && lines[j]!.startsWith('|'); j++) {
      const first = lines[j]!.split(/(?<!\\)\|/)[1]!.trim();
      const only = /^((?:`[\w-]+`(?:, )?)+) only:/.exec(first);
      const flags = [...first.matchAll(/(?:^|[\s`])(--[a-z][a-z0-9-]*)/g)].map((m) => m[1]!);
      rows.push({
        line: j + 1,
        only: only ? [...only[1]!.matchAll(/`([\w-]+)`/g)].map((m) => m[1]!) : undefined,
        flags,
      });
    }
    tables.push({ where: `${file}:${i + 1}`, commands: marker[1]!.trim().split(/\s+/), rows });
  }
  return tables;
}

/** What disagrees between the tables and the commands' options; empty when they agree. */
function tableProblems(
  tables: readonly FlagTable[],
  options: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const problems: string[] = [];
  const documented = new Set(tables.flatMap((t) => t.commands));
  for (const t of tables) {
    for (const c of t.commands)
      if (!options.has(c)) problems.push(`${t.where}: no command bench ${c}`);
    const own = (c: string): ReadonlySet<string> => options.get(c) ?? new Set();
    for (const row of t.rows) {
      const about = row.only ?? t.commands;
      for (const c of about)
        if (!t.commands.includes(c))
          problems.push(`${t.where}, line ${row.line}: ${c} is not one of the table's commands`);
      if (row.flags.length === 0) problems.push(`${t.where}, line ${row.line}: no flag in the row`);
      for (const flag of row.flags)
        for (const c of t.commands)
          if (own(c).has(flag) !== about.includes(c))
            problems.push(
              `${t.where}, line ${row.line}: ${flag} ${own(c).has(flag) ? 'is' : 'is not'} an option of bench ${c}, the row says ${about.includes(c) ? 'it is' : 'it is not'}`,
            );
    }
    for (const c of t.commands) {
      const inRows = new Set(
        t.rows.filter((r) => (r.only ?? t.commands).includes(c)).flatMap((r) => r.flags),
      );
      for (const flag of own(c))
        if (flag !== '--help' && !inRows.has(flag))
          problems.push(`${t.where}: bench ${c} ${flag} is not in the table`);
    }
  }
  for (const [c, flags] of options) {
    // `bench collect <task>` is the grid command's flags, documented in that command's table.
    const key = c.startsWith('collect ') ? c.slice('collect '.length) : c;
    if (!documented.has(key)) problems.push(`bench ${c} has no flag table in a README`);
    if (key !== c && [...flags].join() !== [...(options.get(key) ?? [])].join())
      problems.push(`bench ${c} does not take exactly the flags of bench ${key}`);
  }
  return problems;
}

const readmes = [
  'README.md',
  ...['packages', 'apps'].flatMap((d) =>
    readdirSync(join(root, d)).map((p) => join(d, p, 'README.md')),
  ),
  ...readdirSync(join(root, 'docs', 'results')).map((d) => join('docs', 'results', d, 'README.md')),
].filter((p) => existsSync(join(root, p)));

describe('README flag tables', () => {
  it('the check catches a flag the command lacks, an option the table lacks, a wrong "only" and a command without a table', () => {
    const text = [
      '<!-- bench flags: a b -->',
      '| flag | meaning |',
      '|---|---|',
      '| `--one N`, `--two` | both |',
      '| `b` only: `--three X\\|Y` | b |',
      '| `--ghost` | not an option |',
    ].join('\n');
    const tables = flagTables(text, 'x.md');
    expect(tables[0]!.rows.map((r) => [r.only, r.flags])).toEqual([
      [undefined, ['--one', '--two']],
      [['b'], ['--three']],
      [undefined, ['--ghost']],
    ]);
    const options = new Map([
      ['a', new Set(['--one', '--two', '--three', '--four'])],
      ['b', new Set(['--one', '--two', '--three'])],
      ['c', new Set(['--x'])],
    ]);
    expect(tableProblems(tables, options)).toEqual([
      'x.md:1, line 5: --three is an option of bench a, the row says it is not',
      'x.md:1, line 6: --ghost is not an option of bench a, the row says it is',
      'x.md:1, line 6: --ghost is not an option of bench b, the row says it is',
      'x.md:1: bench a --three is not in the table',
      'x.md:1: bench a --four is not in the table',
      'bench c has no flag table in a README',
    ]);
  });

  it("every bench command's flags are in its README table, and every flag there is the command's", async () => {
    const tables = readmes.flatMap((p) => flagTables(readFileSync(join(root, p), 'utf8'), p));
    expect(tables.length).toBeGreaterThan(5);
    expect(tableProblems(tables, await benchOptions())).toEqual([]);
  }, 60_000);
});
