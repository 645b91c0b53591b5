// `--model` is read only as a regular file of bounded size: `bench sample --model /dev/zero` once
// grew to 12 GB and `--model <fifo>` blocked for good (ignoring SIGTERM), since the whole path was
// read before anything was checked. Both commands that take a model file are covered.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_MODEL_FILE_BYTES } from '@boltzmann/attention';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUpAfterAll, spawnBench } from '../testing/queueTestkit.js';

const { children } = cleanUpAfterAll();
const dir = mkdtempSync(join(tmpdir(), 'bench-model-file-'));
const fifo = join(dir, 'model.fifo');
execFileSync('mkfifo', [fifo]);
// A reader that blocked on the FIFO (the bug) gets end-of-file when a writer comes and goes; with
// no reader the non-blocking open fails (ENXIO) and nothing waits.
afterAll(() => {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No reader: nothing to release.
  }
});

/** Runs the bench; a run still going after 30 s is killed and reported as 'hung'. */
async function bench(args: string[]): Promise<{ code: number | null | 'hung'; output: string }> {
  const child = spawnBench(args);
  children.push(child);
  const timer = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 30_000));
  const outcome = await Promise.race([child.exit.then((e) => e.code), timer]);
  if (outcome === 'hung') child.proc.kill('SIGKILL');
  return { code: outcome, output: child.output() };
}

describe('--model that is not a bounded regular file', () => {
  it('bench sample and bench extrapolate refuse a FIFO, /dev/zero, a folder and an oversize file at once', async () => {
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, MAX_MODEL_FILE_BYTES + 1); // sparse: announced, never stored
    const commands = [
      ['sample', '--chars', '1'],
      ['extrapolate', '--lengths', '8'],
    ];
    for (const command of commands) {
      for (const [path, why] of [
        [fifo, /FIFO/],
        ['/dev/zero', /character device/],
        [dir, /directory/],
        [huge, /MAX_MODEL_FILE_BYTES/],
      ] as const) {
        const r = await bench([...command, '--model', path]);
        expect({ command: command[0], path, code: r.code }).toEqual({
          command: command[0],
          path,
          code: 1,
        });
        expect(r.output).toMatch(/error \[BENCH_BAD_MODEL\]: --model /);
        expect(r.output).toContain(path);
        expect(r.output).toMatch(why);
      }
    }
  }, 300_000);
});
