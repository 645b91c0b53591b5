import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScriptArgs, scriptArg } from './scriptArgs.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'x.bench.ts [--lengths 8,12] [--json]';
const FLAGS = { lengths: 'string', json: 'boolean' } as const;
const parse = (argv: string[]) => parseScriptArgs(USAGE, FLAGS, { argv, exit: false });

describe('parseScriptArgs (strict)', () => {
  it('reads declared flags, and scriptArg returns them or the fallback', () => {
    expect(parse(['--lengths', '4,8', '--json'])).toMatchObject({ lengths: '4,8', json: true });
    expect(scriptArg('lengths', '8')).toBe('4,8');
    parse([]);
    expect(scriptArg('lengths', '8')).toBe('8');
    expect(() => scriptArg('lenghts', '8')).toThrow(/declares no string flag --lenghts/);
  });

  it('refuses a typo, a missing value and a stray word, with the usage line', () => {
    expect(() => parse(['--lenghts', '4'])).toThrow(
      /Unknown option '--lenghts'[\s\S]*usage: x\.bench\.ts/,
    );
    expect(() => parse(['--lengths'])).toThrow(/argument missing[\s\S]*usage:/);
    expect(() => parse(['8,12'])).toThrow(/Unexpected argument '8,12'[\s\S]*usage:/);
  });

  it('a benchmark script with a misspelt flag stops with exit 2 and its usage, before measuring', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=@boltzmann/source',
        'bench/fidelity.bench.ts',
        '--sead',
        '3',
      ],
      { cwd: `${root}packages/dqa-sim`, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Unknown option '--sead'");
    expect(run.stderr).toMatch(/usage: fidelity\.bench\.ts .*--seed/);
    expect(run.stdout).toBe('');
  });
});
