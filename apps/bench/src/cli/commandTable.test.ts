import { describe, expect, it } from 'vitest';
import { BENCH_COMMANDS, benchVersion, suggestCommand } from './commandTable.js';
import { main } from './main.js';

async function run(...argv: string[]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await main(argv, { out: (l) => void lines.push(l), err: (l) => void lines.push(l) });
  return { code, text: lines.join('\n') };
}

describe('the bench CLI lists and explains every command', () => {
  it('bench --help lists every command; each command has its own --help, also as `bench help <command>`', async () => {
    const top = await run('--help');
    expect(top.code).toBe(0);
    for (const [name] of BENCH_COMMANDS) expect(top.text).toMatch(new RegExp(`^  ${name} `, 'm'));
    for (const [name] of BENCH_COMMANDS) {
      const own = await run(name, '--help');
      expect({ name, code: own.code }).toEqual({ name, code: 0 });
      expect(own.text, name).toContain(`Usage: bench ${name}`);
      const viaHelp = await run('help', name);
      expect(viaHelp.text, name).toBe(own.text);
    }
  });

  it('--version prints the package version; a mistyped command gets a suggestion', async () => {
    const version = await run('--version');
    expect(version).toEqual({ code: 0, text: benchVersion() });
    const typo = await run('shakespear');
    expect(typo.code).toBe(2);
    expect(typo.text).toContain(
      'error [BENCH_UNKNOWN_TASK]: unknown task "shakespear": did you mean "shakespeare"?',
    );
    expect(suggestCommand('reprot')).toBe('report');
    expect(suggestCommand('long')).toBe('long-context');
    expect(suggestCommand('poems')).toBeUndefined();
    expect(suggestCommand('x'.repeat(10_000))).toBeUndefined();
  });
});
