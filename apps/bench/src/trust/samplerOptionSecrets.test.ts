// Credentials given by the forms that survive nx (`--sampler-option key=value`, `--sampler-options
// @file.json`) are split off like JSON ones: they reach the sampler and are in no file the bench
// writes, and no line it prints. Also: a `--sampler` typo names the registered sampler it meant.
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const TINY = [
  'shakespeare',
  '--lengths',
  '3',
  '--variants',
  'boltzmann',
  '--d-model',
  '8',
  '--ffn',
  'off',
  '--steps',
  '2',
  '--batch-size',
  '2',
  '--eval-windows',
  '4',
  '--eval-every',
  '2',
  '--workers',
  '0',
];

async function run(args: readonly string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(args, {
    out: (l) => void lines.push(l),
    err: (l) => void lines.push(l),
    progress: {
      start: () => undefined,
      update: () => undefined,
      end: (_id, line) => void lines.push(line),
      log: (l) => void lines.push(l),
      stop: () => undefined,
    },
  });
  return { code, lines };
}

describe('credentials in --sampler-option and --sampler-options @file', () => {
  it('a dwave token given by --sampler-option is in no file of a dry-run-backed training run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-secret-pair-'));
    const side = mkdtempSync(join(tmpdir(), 'bench-secret-pair-side-'));
    const token = 'DEV-fedcba9876543210fedcba9876543210';
    const fileToken = 'DEV-0a1b2c3d4e5f60718293a4b5c6d7e8f9';
    // The file holds a token too; the pair given after it wins, and neither is written.
    const options = join(side, 'dwave.json');
    writeFileSync(
      options,
      JSON.stringify({ token: fileToken, dryRun: { dir: join(dir, 'requests') } }),
    );
    const { code, lines } = await run([
      ...TINY,
      '--sampler',
      'dwave',
      '--sampler-options',
      `@${options}`,
      '--sampler-option',
      `token=${token}`,
      '--sampler-option',
      'dryRun.fallback=dqa',
      '--sampler-option',
      'dryRun.fallbackOptions.steps=8',
      '--results',
      dir,
    ]);
    expect({ code, errors: lines.filter((l) => l.includes('error')) }).toEqual({
      code: 0,
      errors: [],
    });
    expect(filesUnder(join(dir, 'requests')).length).toBeGreaterThan(0);
    const leaks = filesUnder(dir).filter((f) =>
      [token, fileToken].some((t) => readFileSync(f).includes(t)),
    );
    expect(leaks).toEqual([]);
    expect(lines.filter((l) => l.includes(token) || l.includes(fileToken))).toEqual([]);
    // The run record has the options without the token: the form changed nothing of what is kept.
    const record = filesUnder(dir).find((f) => /runs\/.*\.json$/.test(f));
    expect(record).toBeDefined();
    const config = JSON.parse(readFileSync(record!, 'utf8')).config;
    expect(config.samplerOptions.dryRun.fallback).toBe('dqa');
    expect(config.samplerOptions.token).toBeUndefined();
  });

  it('a --sampler typo names the registered sampler it most likely meant, before anything runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-sampler-typo-'));
    const typo = await run([...TINY, '--sampler', 'dwav', '--dry-run', '--results', dir]);
    expect(typo.code).toBe(1);
    expect(typo.lines).toEqual([
      'error [BENCH_INVALID_OPTION]: --sampler "dwav" is not one of the registered samplers: did you mean "dwave"? (known: exact, gibbs, mean-field, tap, transfer-matrix, dqa, dwave, braket, ibm)',
    ]);
    const far = await run([...TINY, '--sampler', 'annealer', '--dry-run', '--results', dir]);
    expect(far.lines[0]).toMatch(
      /--sampler "annealer" is not one of the registered samplers: \(known:/,
    );
    // A grid with no sampled run does not use --sampler.
    const unused = await run([
      ...TINY.filter((w) => w !== 'boltzmann' && w !== '--variants'),
      '--variants',
      'softmax',
      '--sampler',
      'dwav',
      '--dry-run',
      '--results',
      dir,
    ]);
    expect(unused.code).toBe(0);
  });
});
