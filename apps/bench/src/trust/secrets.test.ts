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
import { expandGrid, main, parseBenchArgs, runId } from '../index.js';
import type { ProgressDisplay } from '../index.js';
import { FIXED_SAMPLES_JS } from '../testing/fixtures.js';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files under `dir` whose bytes contain any of `needles`. */
const leaks = (dir: string, needles: readonly string[]): string[] =>
  filesUnder(dir).filter((f) => needles.some((n) => readFileSync(f).includes(n)));

function session(stopAt?: number) {
  const lines: string[] = [];
  const controller = new AbortController();
  const progress: ProgressDisplay = {
    start: () => undefined,
    update: (p) => {
      if (stopAt !== undefined && p.step >= stopAt) controller.abort();
    },
    end: (_id, line) => void lines.push(line),
    log: (l) => void lines.push(l),
    stop: () => undefined,
  };
  return {
    io: {
      out: (l: string) => void lines.push(l),
      err: (l: string) => void lines.push(l),
      progress,
      signal: controller.signal,
    },
    lines,
  };
}

// A third-party plugin without imports: it declares `account.key` secret, also gets a `token`
// (secret by its name), records what reached it in a side file, and answers with fixed samples.
const PLUGIN = `
import { appendFileSync } from 'node:fs';
${FIXED_SAMPLES_JS}
const capabilities = { exact: false, maxSpins: 16, async: false, deterministic: true };
export default {
  name: 'keyed', version: '1.0.0', capabilities, secretOptions: ['account.key'],
  create(options = {}) {
    appendFileSync(process.env.KEYED_SEEN, JSON.stringify(options) + '\\n');
    return {
      name: 'keyed', capabilities,
      sample: fixedSamples,
    };
  },
};
`;

const gridArgs = (dir: string, plugin: string, options: object, workers: string) => [
  'shakespeare',
  '--lengths',
  '3',
  '--variants',
  'boltzmann',
  '--steps',
  '4',
  '--d-model',
  '8',
  '--ffn',
  'off',
  '--batch-size',
  '2',
  '--eval-windows',
  '4',
  '--eval-every',
  '4',
  '--checkpoint-every',
  '2',
  '--log-every',
  '1',
  '--sampler',
  'keyed',
  '--plugin',
  plugin,
  '--sampler-options',
  JSON.stringify(options),
  '--workers',
  workers,
  '--results',
  dir,
];

describe('credentials in --sampler-options', () => {
  it('reach the sampler, survive rotation without restarting the grid, and appear in no file the bench writes', async () => {
    const side = mkdtempSync(join(tmpdir(), 'bench-secret-side-'));
    const plugin = join(side, 'keyedPlugin.mjs');
    writeFileSync(plugin, PLUGIN);
    process.env.KEYED_SEEN = join(side, 'seen.jsonl');
    const dir = mkdtempSync(join(tmpdir(), 'bench-secret-'));
    // Credentials at any depth: in arrays, and a password inside a URL.
    const first = {
      token: 'TOKEN-first-5b1d',
      account: { key: 'KEY-first-77aa', region: 'eu' },
      level: 2,
      servers: [{ apiKey: 'APIKEY-first-1a2b', name: 'h1' }],
      mirror: 'https://user:URLPW-first-9z4c@host.example/',
    };
    const rotated = {
      token: 'TOKEN-rotated-c3e9',
      account: { key: 'KEY-rotated-90ff', region: 'eu' },
      level: 2,
      servers: [{ apiKey: 'APIKEY-rotated-3c4d', name: 'h1' }],
      mirror: 'https://user:URLPW-rotated-0q8w@host.example/',
    };
    const needles = [first, rotated].flatMap((o) => [
      o.token,
      o.account.key,
      o.servers[0]!.apiKey,
      o.mirror.split(':')[2]!.split('@')[0]!,
    ]);

    // Run ids do not depend on credential-looking keys (the plugin's declared ones are split off
    // once its registry is loaded: step 2 resuming with a rotated key shows it).
    const ids = (o: object) =>
      expandGrid(parseBenchArgs(gridArgs(dir, plugin, o, '0'), () => undefined)!).map(runId);
    expect(ids({ ...first, token: rotated.token })).toEqual(ids(first));
    expect(
      ids({
        level: 2,
        account: { key: first.account.key, region: 'eu' },
        servers: [{ name: 'h1' }],
        mirror: 'https://user:***@host.example/',
      }),
    ).toEqual(ids(first));

    // 1. Interrupted after step 2, in process: a checkpoint exists and holds no credential.
    const one = session(3);
    expect(await main(gridArgs(dir, plugin, first, '0'), one.io)).toBe(130);
    expect(filesUnder(join(dir, 'checkpoints'))).toHaveLength(1);
    expect(leaks(dir, needles)).toEqual([]);

    // 2. Resumed with a rotated token on a worker process: it continues from the checkpoint.
    const two = session();
    expect(await main(gridArgs(dir, plugin, rotated, '1'), two.io)).toBe(0);
    expect(two.lines.join('\n')).toContain('0 finished, 1 to resume, 0 new');
    const written = filesUnder(dir).map((f) => f.slice(dir.length + 1));
    expect(written).toEqual(
      expect.arrayContaining([
        'summary.md',
        'report.html',
        expect.stringMatching(/^runs\/.*\.json$/),
      ]),
    );
    expect(leaks(dir, needles)).toEqual([]);
    expect(two.lines.concat(one.lines).filter((l) => needles.some((n) => l.includes(n)))).toEqual(
      [],
    );

    // The sampler did get every option, credentials included (first in process, then in the worker).
    const seen = readFileSync(process.env.KEYED_SEEN, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as typeof first);
    expect(
      seen.some(
        (o) => o.token === first.token && o.account.key === first.account.key && o.level === 2,
      ),
    ).toBe(true);
    expect(seen.at(-1)).toEqual(rotated);
    const [runFile] = readdirSync(join(dir, 'runs'));
    const record = JSON.parse(readFileSync(join(dir, 'runs', runFile!), 'utf8'));
    expect(record.config.samplerOptions).toEqual({
      account: { region: 'eu' },
      level: 2,
      servers: [{ name: 'h1' }],
      mirror: 'https://user:***@host.example/',
    });
  });

  it('a dwave token given in --sampler-options is in no file of a dry-run-backed training run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-secret-dwave-'));
    const token = 'DEV-0123456789abcdef0123456789abcdef';
    const options = {
      token,
      dryRun: { dir: join(dir, 'requests'), fallback: 'dqa', fallbackOptions: { steps: 8 } },
    };
    const args = [
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
      '--sampler',
      'dwave',
      '--sampler-options',
      JSON.stringify(options),
      '--workers',
      '0',
      '--results',
      dir,
    ];
    const s = session();
    expect({
      code: await main(args, s.io),
      lines: s.lines.filter((l) => l.includes('error')),
    }).toEqual({ code: 0, lines: [] });
    expect(filesUnder(join(dir, 'requests')).length).toBeGreaterThan(0);
    expect(leaks(dir, [token])).toEqual([]);
    expect(s.lines.filter((l) => l.includes(token))).toEqual([]);
  });
});
