import { describe, expect, it } from 'vitest';
import { BENCH_COMMANDS } from './commandTable.js';
import { main } from './main.js';
import { benchVersion } from './program.js';
import { suggestName } from '../suggestName.js';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => void out.push(l), err: (l) => void err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const names = BENCH_COMMANDS.map((c) => c.name);

describe('the bench CLI lists and explains every command', () => {
  it('bench --help lists every command with its summary; each has its own --help, also as `bench help <command>`', async () => {
    const top = await run('--help');
    expect(top.code).toBe(0);
    expect(top.out).toMatch(/^Usage: bench \[options\] \[command\]/);
    for (const c of BENCH_COMMANDS)
      expect(top.out).toMatch(new RegExp(`^  ${c.name} .*${c.summary.slice(0, 20)}`, 'm'));
    for (const c of BENCH_COMMANDS) {
      const own = await run(c.name, '--help');
      expect({ name: c.name, code: own.code }).toEqual({ name: c.name, code: 0 });
      expect(own.out, c.name).toContain(`Usage: bench ${c.name}`);
      const viaHelp = await run('help', c.name);
      expect(viaHelp.out, c.name).toBe(own.out);
    }
  });

  it('bench collect <task> --help shows the grid flags; collect without a task or --queue is a usage error', async () => {
    const collect = await run('collect', '--help');
    expect(collect.out).toMatch(/BENCH_GRID_INCOMPLETE/);
    for (const task of ['shakespeare', 'brackets', 'dqa', 'gpt'])
      expect(collect.out).toMatch(new RegExp(`^  ${task} `, 'm'));
    const gpt = await run('collect', 'gpt', '--help');
    expect(gpt.out).toContain('Usage: bench collect gpt');
    expect(gpt.out).toContain('--warmup-steps');
    const none = await run('collect');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(
      /^error \[BENCH_INVALID_OPTION\]: bench collect needs one of shakespeare/,
    );
    const noQueue = await run('collect', 'brackets');
    expect(noQueue.code).toBe(2);
    expect(noQueue.err).toContain(
      'error [BENCH_INVALID_OPTION]: bench collect needs --queue <url>',
    );
    const typo = await run('collect', 'brakets', '--queue', 'redis://127.0.0.1:1/0');
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('unknown task "brakets": did you mean "brackets"?');
  });

  it('--version prints the package version; a missing or mistyped command gets a coded error and a suggestion', async () => {
    const version = await run('--version');
    expect(version).toEqual({ code: 0, out: benchVersion(), err: '' });
    expect(benchVersion()).toMatch(/^\d+\.\d+\.\d+/);
    const typo = await run('shakespear');
    expect(typo.code).toBe(2);
    expect(typo.err).toContain(
      'error [BENCH_UNKNOWN_TASK]: unknown task "shakespear": did you mean "shakespeare"?',
    );
    expect(typo.err).toContain('run with --help for the list of options');
    const helpTypo = await run('help', 'reprot');
    expect(helpTypo.code).toBe(2);
    expect(helpTypo.err).toContain('unknown task "reprot": did you mean "report"?');
    const none = await run();
    expect(none.code).toBe(2);
    expect(none.err).toMatch(
      /^error \[BENCH_UNKNOWN_TASK\]: missing command: use one of shakespeare/,
    );
    expect(suggestName('reprot', names)).toBe('report');
    expect(suggestName('long', names)).toBe('long-context');
    expect(suggestName('poems', names)).toBeUndefined();
    expect(suggestName('x'.repeat(10_000), names)).toBeUndefined();
  });

  it('bench help <typo> at any depth is an error listing the commands, exit 2, with nothing on stdout', async () => {
    const far = await run('help', 'poems');
    expect(far).toEqual({
      code: 2,
      out: '',
      err: `error [BENCH_UNKNOWN_TASK]: unknown task "poems": use one of ${names.join(', ')} (bench --help)\nrun with --help for the list of options`,
    });
    const nested = await run('help', 'collect', 'shakespear');
    expect({ code: nested.code, out: nested.out }).toEqual({ code: 2, out: '' });
    expect(nested.err).toContain(
      'error [BENCH_UNKNOWN_TASK]: unknown task "shakespear": did you mean "shakespeare"? use one of shakespeare, brackets, dqa, gpt, recall (bench collect --help)',
    );
    const leaf = await run('help', 'report', 'extra');
    expect({ code: leaf.code, out: leaf.out }).toEqual({ code: 2, out: '' });
    expect(leaf.err).toContain('bench report has no command "extra" (bench help report)');
    // A leaf command given `help <name>` says what is wrong, not an empty list of commands.
    const after = await run('shakespeare', 'help', 'xyz');
    expect(after.code).toBe(2);
    expect(after.err).toMatch(
      /^error \[BENCH_INVALID_OPTION\]: too many arguments for 'shakespeare'/,
    );
    // bench help a b is bench a b --help.
    expect(await run('help', 'collect', 'gpt')).toEqual(await run('collect', 'gpt', '--help'));
  });

  it("a bad option of a command is BENCH_INVALID_OPTION with a suggestion and that command's help hint", async () => {
    const bad = await run('report', '--result', 'x');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("error [BENCH_INVALID_OPTION]: unknown option '--result'");
    expect(bad.err).toContain('(Did you mean --results?)');
    expect(bad.err).toContain('run with report --help for the list of options');
  });
});
