/*
 * In-process runs (`--workers 0`) survive an error thrown outside their promise chain: a plugin's
 * timer that throws, a rejection nobody handles. The run it hit fails with a coded line; the
 * process does not die with a stack trace, and no record is written for the failed run (issue 24).
 * These run the CLI as a child process: vitest would report the stray error of an in-process run.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../recordTypes.js';
import { cleanUpAfterAll, spawnBench } from '../testing/queueTestkit.js';
import { FIXED_SAMPLES_JS } from '../testing/fixtures.js';

const { children } = cleanUpAfterAll();

// A plugin without imports. On its first `sample` call (once per process) it misbehaves as
// $STRAY_MODE says; every call answers with fixed samples, except in `hang`, whose first call's
// answer never comes (its timer throws before resolving).
const PLUGIN = `
const capabilities = { exact: false, maxSpins: 16, async: true, deterministic: true };
let first = true;
${FIXED_SAMPLES_JS}
export default {
  name: 'stray', version: '1.0.0', capabilities,
  create() {
    return {
      name: 'stray', capabilities,
      sample(batch) {
        const mode = first ? process.env.STRAY_MODE : undefined;
        first = false;
        if (mode === 'timer') setTimeout(() => { throw new Error('plugin timer exploded'); });
        if (mode === 'rejection') Promise.reject(new Error('plugin promise nobody awaited'));
        if (mode === 'object') Promise.reject({ reason: 'quota' });
        if (mode === 'hang')
          return new Promise((resolve) => setTimeout(() => {
            throw new Error('callback threw before resolving');
            resolve(fixedSamples(batch));
          }));
        return Promise.resolve(fixedSamples(batch));
      },
    };
  },
};
`;

const args = (dir: string, plugin: string): string[] => [
  'shakespeare',
  '--lengths',
  '3',
  '--variants',
  'boltzmann',
  '--seeds',
  '0,1',
  '--steps',
  '6',
  '--d-model',
  '8',
  '--ffn',
  'off',
  '--batch-size',
  '2',
  '--eval-windows',
  '4',
  '--eval-every',
  '6',
  '--checkpoint-every',
  '2',
  '--log-every',
  '1',
  '--sampler',
  'stray',
  '--plugin',
  plugin,
  '--workers',
  '0',
  '--plain',
  '--results',
  dir,
];

async function runWith(mode: string, extra: readonly string[] = []) {
  const side = mkdtempSync(join(tmpdir(), 'bench-stray-plugin-'));
  const plugin = join(side, 'strayPlugin.mjs');
  writeFileSync(plugin, PLUGIN);
  const dir = mkdtempSync(join(tmpdir(), 'bench-stray-'));
  const child = spawnBench([...args(dir, plugin), ...extra], { STRAY_MODE: mode });
  children.push(child);
  const { code, signal } = await child.exit;
  const text = child.output();
  const runs = (
    existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs'), { withFileTypes: true }) : []
  )
    .filter((f) => f.isFile())
    .map((f) => JSON.parse(readFileSync(join(dir, 'runs', f.name), 'utf8')) as RunRecord);
  return { code, signal, text, runs };
}

describe('an error from outside an in-process run', () => {
  it.each([
    ['a plugin timer that throws', 'timer', 'Error: plugin timer exploded'],
    ['a rejection nobody handles', 'rejection', 'Error: plugin promise nobody awaited'],
    ['a non-Error rejection nobody handles', 'object', '{"reason":"quota"}'],
    ['a plugin whose answer never comes after its timer threw', 'hang', 'callback threw'],
  ])(
    '%s fails that run with a coded line, no stack trace, no record of it',
    async (_, mode, what) => {
      // `hang`: the run is given up after 5 s; its sampler call's 8 s deadline then lets the process end.
      const { code, signal, text, runs } = await runWith(
        mode,
        mode === 'hang' ? ['--sampler-timeout', '8'] : [],
      );
      expect({ code, signal }, text).toEqual({ code: 1, signal: null });
      const failed = text
        .split('\n')
        .filter((l) => l.startsWith('error [') && l.includes("outside the run's promise chain"));
      expect(failed, text).toHaveLength(1);
      expect(failed[0]).toMatch(/^error \[BENCH_RUN_FAILED\]: shakespeare boltzmann T=3 /);
      expect(failed[0]).toContain(what);
      expect(text).not.toMatch(/^\s+at /m);
      expect(text).not.toContain('[object Object]');
      // The failed run wrote no record; the records that are there are whole.
      const failedSeed = Number(/ s(\d):/.exec(failed[0]!)?.[1]);
      expect(runs.map((r) => r.config.seed)).not.toContain(failedSeed);
      for (const r of runs) expect(Number.isFinite(r.finalMetric)).toBe(true);
      if (mode === 'hang') {
        expect(failed[0]).toContain('did not stop within 5 s and was given up');
        expect(text).toMatch(/^error \[BENCH_RUN_FAILED\]: .* s\d: not run: run .* was given up/m);
        expect(runs).toHaveLength(0);
      } else {
        // The other run trained to the end in the same process, and the report was written.
        expect(runs).toHaveLength(1);
        expect(text).toContain('summary:');
      }
    },
    90_000,
  );
});

describe('an error from outside a run on a worker process', () => {
  it('a plugin timer that throws fails that run with a coded line; the worker lives on for the next run', async () => {
    const { code, signal, text, runs } = await runWith('timer', ['--workers', '1']);
    expect({ code, signal }, text).toEqual({ code: 1, signal: null });
    const failed = text.split('\n').filter((l) => l.includes("outside the run's promise chain"));
    expect(failed.length, text).toBeGreaterThanOrEqual(1);
    expect(failed[0]).toMatch(/error \[BENCH_RUN_FAILED\]: .*Error: plugin timer exploded/);
    expect(text).not.toMatch(/^\s+at /m);
    expect(text).not.toContain('worker process exited');
    // The same worker process trained the other run to the end.
    expect(runs).toHaveLength(1);
  }, 90_000);
});
