import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The launcher's choice between the built bench (bin/build.mjs) and its sources, on a build in a
// folder of its own (BOLTZMANN_BENCH_DIST), so the shared apps/bench/dist is left alone.
const bin = (name: string): string => fileURLToPath(new URL(`../../bin/${name}`, import.meta.url));
const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

interface Stamp {
  version: number;
  inputs: Record<string, [number, number]>;
}

let dir: string;
let dist: string;
let staleReason: (distDir: string) => string | undefined;

const node = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, BOLTZMANN_BENCH_FROM_SOURCE: '', ...env },
  });
const launch = (args: string[], env: Record<string, string> = {}) =>
  node([bin('bench.mjs'), ...args], { BOLTZMANN_BENCH_DIST: dist, ...env });
const stampFile = (): string => join(dist, 'build.json');
const readStamp = (): Stamp => JSON.parse(readFileSync(stampFile(), 'utf8')) as Stamp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bench-launcher-'));
  dist = join(dir, 'dist');
  ({ staleReason } = await import(pathToFileURL(bin('buildStamp.mjs')).href));
  const built = node([bin('build.mjs'), '--outdir', dist]);
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the built bench (bin/build.mjs)', () => {
  it('runs as the CLI on its own: --version, and a command that loads the sampler registry', () => {
    expect(node([join(dist, 'bin.js'), '--version']).stdout.trim()).toBe(version);
    const samplers = node([join(dist, 'bin.js'), 'samplers']);
    expect(samplers.status).toBe(0);
    expect(samplers.stdout).toMatch(/^exact\s/m);
    expect(samplers.stdout).toMatch(/^transfer-matrix\s/m);
  });

  it('trains a tiny grid in its own worker process (dist/poolProcess.js) and writes the report', () => {
    const results = join(dir, 'results');
    const grid = ['brackets', '--lengths', '8', '--variants', 'softmax,boltzmann', '--steps', '4'];
    const small = ['--d-model', '8', '--ffn', 'off', '--batch-size', '8', '--eval-every', '4'];
    const r = node([
      join(dist, 'bin.js'),
      ...grid,
      ...small,
      '--workers',
      '1',
      '--plain',
      '--results',
      results,
    ]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/grid: 2 runs — 0 finished, 0 to resume, 2 new; 1 worker/);
    expect(readdirSync(join(results, 'runs'))).toHaveLength(2);
    expect(readFileSync(join(results, 'report.html'), 'utf8')).toContain('<svg');
  });

  it('is up to date until a file it was built from changes, in mtime or size, or goes', () => {
    expect(staleReason(dist)).toBeUndefined();
    const original = readFileSync(stampFile(), 'utf8');
    const input = join(dir, 'input.ts');
    writeFileSync(input, 'export {};\n');
    const stamp = readStamp();
    const seen = statSync(input);
    stamp.inputs[input] = [seen.mtimeMs, seen.size];
    writeFileSync(stampFile(), JSON.stringify(stamp));
    expect(staleReason(dist)).toBeUndefined();
    // An earlier mtime is a change too (a checkout of an older commit, `cp -p`).
    utimesSync(input, seen.atime, new Date(seen.mtimeMs - 60_000));
    expect(staleReason(dist)).toBe(`${input} changed`);
    rmSync(input);
    expect(staleReason(dist)).toBe(`${input} is gone`);
    expect(staleReason(join(dir, 'none'))).toMatch(/^no build in /);
    writeFileSync(stampFile(), original);
    expect(staleReason(dist)).toBeUndefined();
  });
});

describe('the launcher (bin/bench.mjs) picks the build only when it is fresh', () => {
  it('runs dist/bin.js when the stamp matches, rebuilds it when a source changed', () => {
    // A line the sources cannot print: seen only when the launcher runs this very build.
    appendFileSync(join(dist, 'bin.js'), "\nprocess.stderr.write('MARKER of this build\\n');\n");
    const fresh = launch(['--version']);
    expect(fresh.stdout.trim()).toBe(version);
    expect(fresh.stderr).toContain('MARKER of this build');
    // A source newer than the build: the stamp lists a file whose mtime has moved on.
    const input = join(dir, 'edited.ts');
    writeFileSync(input, 'export {};\n');
    const stamp = readStamp();
    stamp.inputs[input] = [statSync(input).mtimeMs - 1000, statSync(input).size];
    writeFileSync(stampFile(), JSON.stringify(stamp));
    const edited = launch(['--version']);
    expect(edited.stdout.trim()).toBe(version);
    expect(edited.stderr).toBe('');
    // Rebuilt: the new stamp is fresh and the marked bin.js was replaced.
    expect(staleReason(dist)).toBeUndefined();
    expect(readStamp().inputs[input]).toBeUndefined();
    expect(readFileSync(join(dist, 'bin.js'), 'utf8')).not.toContain('MARKER');
  });

  it('runs the sources under tsx, with a one-line note, when it cannot build', () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, '');
    const run = launch(['--version'], { BOLTZMANN_BENCH_DIST: join(blocked, 'dist') });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(version);
    expect(run.stderr).toMatch(
      /^note: bench runs from its TypeScript sources \(slower start\): no build in .*, and rebuilding dist\/ failed: .+\n$/,
    );
  });
});
