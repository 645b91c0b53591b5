import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { codeOf } from '@boltzmann/ising-core/testing';
// Direct module imports: the barrel pulls in TF.js and the cloud SDKs (seconds per test file).
import { BENCH_COMMANDS } from './cli/commandTable.js';
import { parseBenchArgs, parseSampleArgs } from './cli/parseArgs.js';
import { parseCommandLine } from './cli/program.js';
import type { WorkerCommand } from './queue/queueWorker.js';
import { samplerOptionsOf } from './samplerOptionFlags.js';
import { strippedJsonHint } from './strippedJson.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-sampler-options-'));
const file = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const messageOf = (f: () => unknown): string => {
  try {
    f();
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  throw new Error('accepted');
};
const grid = (...argv: string[]) => parseBenchArgs(['shakespeare', ...argv], () => undefined)!;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('--sampler-option key=value', () => {
  it('parses numbers, booleans, JSON and strings, sets dotted keys, and merges over --sampler-options in order', () => {
    expect(
      samplerOptionsOf('{"numReads":50,"anneal":{"steps":2,"tau":1}}', [
        'chains=4',
        'beta=-0.5',
        'scale=1e-3',
        'fast=true',
        'exact=false',
        'solver=Advantage_system4.1',
        'serial=007',
        'name="12"',
        'taus=[1,2.5]',
        'extra={"a":{"b":null}}',
        'anneal.steps=4',
        'anneal.schedule.kind=linear',
        'url=https://x.example/a?b=c',
        'empty=',
        'chains=8',
      ]),
    ).toEqual({
      numReads: 50,
      anneal: { steps: 4, tau: 1, schedule: { kind: 'linear' } },
      chains: 8,
      beta: -0.5,
      scale: 1e-3,
      fast: true,
      exact: false,
      solver: 'Advantage_system4.1',
      serial: '007',
      name: '12',
      taus: [1, 2.5],
      extra: { a: { b: null } },
      url: 'https://x.example/a?b=c',
      empty: '',
    });
    expect(samplerOptionsOf(undefined, [])).toBeUndefined();
    expect(samplerOptionsOf(undefined, ['a.b.c=1'])).toEqual({ a: { b: { c: 1 } } });
  });

  it.each([
    ['sweeps', /--sampler-option must be key=value \(e\.g\. sweeps=500\), got "sweeps"/],
    ['=5', /the key must be a name or dotted names/],
    ['a..b=5', /the key must be a name or dotted names/],
    ['a.=5', /the key must be a name or dotted names/],
    ['__proto__.x=1', /"__proto__" is not a valid key/],
    ['a.constructor=1', /"constructor" is not a valid key/],
    ['big=1e999', /1e999 is not a finite number/],
    ['list=[1,', /starts like JSON \(\[\) but is not JSON/],
    ['s="abc', /starts like JSON \("\) but is not JSON/],
    ['obj={"a":', /--sampler-option obj must be a JSON object/],
  ])('refuses %s with BENCH_INVALID_OPTION', (pair, message) => {
    expect(messageOf(() => samplerOptionsOf(undefined, [pair]))).toMatch(
      new RegExp(`^BENCH_INVALID_OPTION: .*${message.source}`),
    );
  });

  it('refuses a dotted key under a value that is not an object', () => {
    expect(messageOf(() => samplerOptionsOf('{"anneal":5}', ['anneal.steps=4']))).toBe(
      'BENCH_INVALID_OPTION: --sampler-option "anneal.steps=4": "anneal" is 5, not an object that "steps" can go in',
    );
    expect(codeOf(() => samplerOptionsOf(undefined, ['a=1', 'a.b=2']))).toBe(
      'BENCH_INVALID_OPTION',
    );
  });

  it('does not modify the object it merges into, nor any prototype', () => {
    const options = samplerOptionsOf('{"a":{"b":1}}', ['a.c=2'])!;
    expect(options).toEqual({ a: { b: 1, c: 2 } });
    expect(({} as Record<string, unknown>).c).toBeUndefined();
  });

  it('echoes no credential of a malformed pair', () => {
    const message = messageOf(() => samplerOptionsOf(undefined, ['token=[DEV-secret-0123']));
    expect(message).toMatch(/^BENCH_INVALID_OPTION: /);
    expect(message).not.toContain('DEV-secret-0123');
  });
});

describe('--sampler-options @file.json', () => {
  it('reads the object from a file, relative to the directory the user ran from', () => {
    const path = file('opts.json', '{"numReads":20,"anneal":{"steps":3}}\n');
    expect(samplerOptionsOf(`@${path}`, ['anneal.steps=5'])).toEqual({
      numReads: 20,
      anneal: { steps: 5 },
    });
    vi.stubEnv('NX_TASK_TARGET_PROJECT', undefined as unknown as string);
    vi.stubEnv('INIT_CWD', dir);
    expect(samplerOptionsOf('@opts.json')).toEqual({ numReads: 20, anneal: { steps: 3 } });
  });

  it('gives a missing file, a folder, bad JSON and a non-object their own messages', () => {
    mkdirSync(join(dir, 'folder.json'), { recursive: true });
    const cases: [string, RegExp][] = [
      [`@${join(dir, 'missing.json')}`, /cannot read .*missing\.json \(ENOENT\)/],
      [`@${join(dir, 'folder.json')}`, /folder\.json is not a file/],
      [`@${file('bad.json', '{"a":')}`, /bad\.json\) must be a JSON object, got/],
      [`@${file('array.json', '[1,2]')}`, /array\.json\) must be a JSON object such as/],
      [`@${file('number.json', '5')}`, /number\.json\) must be a JSON object such as/],
      ['@', /@ needs a file name/],
    ];
    for (const [spec, message] of cases)
      expect(messageOf(() => samplerOptionsOf(spec))).toMatch(
        new RegExp(`^BENCH_INVALID_OPTION: --sampler-options.*${message.source}`),
      );
  });
});

describe('a JSON option whose quotes nx stripped', () => {
  it('is named, with the pairs, the file and the escaped form that survive', () => {
    const message = messageOf(() => grid('--sampler-options', '{sweeps:500}'));
    expect(message).toBe(
      'BENCH_INVALID_OPTION: --sampler-options got "{sweeps:500}": its double quotes were stripped ' +
        '(nx and some shells remove them; you meant {"sweeps":500}). Use --sampler-option sweeps=500, ' +
        'or put the JSON in a file and pass --sampler-options @file.json, or escape the quotes: ' +
        `--sampler-options '{\\"sweeps\\":500}'`,
    );
  });

  it('flattens nested objects to dotted pairs, and leaves out pairs that would not survive nx', () => {
    expect(strippedJsonHint('{numReads:100,anneal:{steps:8,kind:linear}}', '--o')?.hint).toContain(
      'Use --o numReads=100 --o anneal.steps=8 --o anneal.kind=linear, or put',
    );
    expect(strippedJsonHint('{taus:[1,2]}', '--o')?.hint).toContain('Use --o taus=[1,2], or');
    const spaced = strippedJsonHint('{name:a b}', '--o')!;
    expect(spaced.meant).toEqual({ name: 'a b' });
    expect(spaced.hint).toContain('Use put the JSON in a file');
    expect(strippedJsonHint('{ids:[a,b]}', '--o')!.hint).not.toContain('--o ids');
    expect(strippedJsonHint('{steps:4}', '--o', 'anneal')?.meant).toEqual({ anneal: { steps: 4 } });
  });

  it('leaves JSON, quoted mistakes, bare arrays and other text to the JSON error', () => {
    for (const raw of ['{"sweeps":500}', '{"a":1', '[a,b]', 'sweeps', '{a}', '{:1}', '{a:1'])
      expect([raw, strippedJsonHint(raw, '--o')]).toEqual([raw, undefined]);
    expect(messageOf(() => grid('--sampler-options', '{"a":1'))).toMatch(
      /^BENCH_INVALID_OPTION: --sampler-options must be a JSON object, got/,
    );
  });

  it('is named in a pair value too, and hides credentials', () => {
    expect(messageOf(() => grid('--sampler-option', 'anneal={steps:4}'))).toContain(
      'Use --sampler-option anneal.steps=4, or',
    );
    const message = messageOf(() => grid('--sampler-options', '{token:DEV-abcdef0123,numReads:5}'));
    expect(message).toContain('--sampler-option numReads=5');
    expect(message).not.toContain('DEV-abcdef0123');
  });
});

describe('the forms on every command that takes sampler options', () => {
  it('grid: the command line over the preset defaults, credentials split off whichever form gave them', () => {
    const path = file('dwave.json', '{"solver":"Advantage_system4.1"}');
    const cmd = grid(
      '--preset',
      'hardware',
      '--sampler',
      'dwave',
      '--sampler-options',
      `@${path}`,
      '--sampler-option',
      'token=DEV-secret-0123456789',
      '--sampler-option',
      'anneal.steps=4',
    );
    expect(cmd.samplerOptions).toEqual({
      numReads: 100,
      solver: 'Advantage_system4.1',
      anneal: { steps: 4 },
    });
    expect(cmd.samplerSecrets).toEqual({ token: 'DEV-secret-0123456789' });
    const over = grid(
      '--preset',
      'hardware',
      '--sampler',
      'dwave',
      '--sampler-option',
      'numReads=7',
    );
    expect(over.samplerOptions).toEqual({ numReads: 7 });
  });

  it('grid on a queue: a credential given by --sampler-option is refused too', () => {
    const message = messageOf(() =>
      grid('--queue', 'redis://127.0.0.1:6379/0', '--sampler-option', 'apiKey=IBM-KEY-00001'),
    );
    expect(message).toMatch(
      /^BENCH_INVALID_OPTION: credentials in --sampler-options or --sampler-option/,
    );
    expect(message).not.toContain('IBM-KEY-00001');
  });

  it('sample and worker take the same forms', () => {
    const sample = parseSampleArgs(
      ['sample', '--model', 'm.json', '--sampler-option', 'threads=1', '--sampler-option', 'a.b=x'],
      () => undefined,
    )!;
    expect(sample.samplerOptions).toEqual({ threads: 1, a: { b: 'x' } });
    expect(parseSampleArgs(['sample', '--model', 'm.json'], () => undefined)!.samplerOptions).toBe(
      undefined,
    );
    const worker = parseCommandLine(
      BENCH_COMMANDS,
      ['worker', '--queue', 'redis://127.0.0.1:6379/0', '--sampler-option', 'region=eu-west-2'],
      () => undefined,
    )!.command as WorkerCommand;
    expect(worker.samplerOptions).toEqual({ region: 'eu-west-2' });
    expect(
      codeOf(() =>
        parseCommandLine(
          BENCH_COMMANDS,
          ['worker', '--queue', 'redis://127.0.0.1:6379/0', '--sampler-options', '{region:x}'],
          () => undefined,
        ),
      ),
    ).toBe('BENCH_INVALID_OPTION');
  });
});
