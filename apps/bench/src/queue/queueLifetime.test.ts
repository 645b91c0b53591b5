/*
 * Issue 38 on the queue: no process of `bench worker` outlives it. A real Redis, a real worker
 * with a plugin sampler whose synchronous estimate never returns, and its BullMQ processor child.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../cli/parseArgs.js';
import { expandGrid } from '../grid/expandGrid.js';
import { gitCommit } from '../results/gitCommit.js';
import { jobIdOf } from './queueJobs.js';
import { testRedis } from './redisServer.js';
import { benchQueue, cleanUpAfterAll, spawnWorker, waitFor } from '../testing/queueTestkit.js';

const { servers, children } = cleanUpAfterAll();

// Says so, then holds the processor's main thread for good.
const SPIN = `
const capabilities = { exact: false, maxSpins: 16, async: false, deterministic: true };
export default { name: 'spin', version: '1.0.0', capabilities,
  create: () => ({ name: 'spin', capabilities,
    estimate: () => { process.stderr.write('spinning\\n'); for (;;) {} } }) };
`;

/** `/proc/<pid>/stat`'s state and ppid, or undefined when there is no such process. */
function stat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Alive: there, and not a zombie (the process's own code no longer runs in a zombie). */
const alive = (pid: number): boolean => {
  const s = stat(pid);
  return s !== undefined && s.state !== 'Z';
};

const childPids = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e) && stat(Number(e))?.ppid === pid)
    .map(Number);

const leftovers: number[] = [];
const scratch: string[] = [];
afterAll(() => {
  for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('bench worker lifetime (issue 38)', () => {
  it('SIGKILL of `bench worker` ends its processor within 15 s, even one held by a spinning synchronous sampler', async () => {
    const redis = await testRedis(8);
    servers.push(redis);
    const side = mkdtempSync(join(tmpdir(), 'bench-queue-lifetime-'));
    scratch.push(side);
    const plugin = join(side, 'spin.mjs');
    writeFileSync(plugin, SPIN);
    const config = expandGrid(
      parseBenchArgs(
        [
          'shakespeare',
          ...['--lengths', '3', '--seeds', '0', '--steps', '1000', '--d-model', '8'],
          ...['--ffn', 'off', '--batch-size', '4', '--eval-windows', '8'],
          ...['--variants', 'boltzmann', '--sampler', 'spin', '--results', join(side, 'results')],
        ],
        () => undefined,
      )!,
    )[0]!;
    const commit = gitCommit();
    const queue = benchQueue(redis.url);
    const settings = { checkpointEvery: 100, logEvery: 100 };
    await queue.add(
      'spin',
      { version: 1, config, commit, settings },
      { jobId: jobIdOf(config, commit), attempts: 1 },
    );
    await queue.close();
    const worker = spawnWorker(redis.url, ['--plugin', plugin]);
    children.push(worker);
    // The processor is in the sampler's endless loop.
    const processors = await waitFor(
      'the processor spinning',
      () => {
        const pids = childPids(worker.proc.pid!);
        return worker.output().includes('spinning') && pids.length > 0 ? pids : undefined;
      },
      40_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${worker.output()}`);
    });
    leftovers.push(...processors);
    worker.proc.kill('SIGKILL');
    await worker.exit;
    const gone = await waitFor(
      'the processor gone',
      () => (processors.every((p) => !alive(p)) ? true : undefined),
      15_000,
    ).catch(() => false);
    expect(gone, `processors ${processors.join(', ')} still running:\n${worker.output()}`).toBe(
      true,
    );
  }, 60_000);
});
