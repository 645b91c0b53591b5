import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRecords } from '../testing/fixtures.js';
import type { RunRecord } from '../recordTypes.js';
import { currentEnvironment, environmentLine, environmentProblem } from './environment.js';
import { readRecord } from './runFiles.js';

const [record] = syntheticRecords(
  ['brackets', '--variants', 'softmax', '--lengths', '4'],
  () => 0.5,
);

/** A results folder holding `r` as a finished run. */
function saved(r: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-env-record-'));
  mkdirSync(join(dir, 'runs'));
  writeFileSync(join(dir, 'runs', `${record!.id}.json`), JSON.stringify(r));
  return dir;
}

describe('the environment block of a run record', () => {
  it("should read this process's Node, OS, CPU and memory", () => {
    const env = currentEnvironment(2);
    expect(env).toMatchObject({ node: process.version, arch: process.arch, workers: 2 });
    expect(env.logicalCores).toBeGreaterThan(0);
    expect(environmentProblem({ environment: env })).toBeUndefined();
    expect('workers' in currentEnvironment()).toBe(false);
  });

  it('should load older records without one, and records with a valid one', () => {
    const { environment, ...old } = { ...record!, environment: currentEnvironment(1) };
    expect(readRecord(saved(old), record!.id)?.environment).toBeUndefined();
    expect(readRecord(saved({ ...old, environment }), record!.id)?.environment).toEqual(
      environment,
    );
  });

  it.each([
    [null, /environment is null, not an object/],
    [{ ...currentEnvironment(), logicalCores: -1 }, /environment\.logicalCores must be an integer/],
    [{ ...currentEnvironment(), node: 20 }, /environment\.node must be a string/],
    [{ ...currentEnvironment(), workers: 1.5 }, /environment\.workers must be an integer/],
    [{ ...currentEnvironment(), gpu: 'x' }, /unknown field "gpu"/],
  ])('should refuse a record whose environment is %j with a coded error', (environment, why) => {
    const dir = saved({ ...record!, environment });
    expect(() => readRecord(dir, record!.id)).toThrow(why);
    expect(() => readRecord(dir, record!.id)).toThrow(
      expect.objectContaining({ code: 'BENCH_CORRUPT_CHECKPOINT' }),
    );
  });

  it('should name engine, machine, Node, workers and commit in one line', () => {
    const r: RunRecord = {
      ...record!,
      gitCommit: '0123456789abcdef0123456789abcdef01234567',
      engine: { name: 'wasm', backend: 'wasm', threads: 1, line: 'engine: wasm f32x4, 1 thread' },
      environment: {
        node: 'v20.1.0',
        platform: 'linux',
        osRelease: '6.1',
        arch: 'x64',
        cpuModel: 'Some CPU',
        logicalCores: 8,
        totalMemoryBytes: 16 * 2 ** 30,
        workers: 2,
      },
    };
    expect(environmentLine(r)).toBe(
      'wasm f32x4, 1 thread; Some CPU × 8 logical cores, 16.0 GiB; linux x64 6.1; Node v20.1.0; workers 2; git 0123456789ab',
    );
    const { environment, engine, ...old } = r;
    expect(environmentLine({ ...old, gitCommit: null })).toBe(
      'engine not recorded; machine not recorded; git unknown',
    );
  });
});
