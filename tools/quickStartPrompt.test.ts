import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The README's quick start, `npx -y pnpm@12.4.2 nx run bench:shakespeare`, as a person types it in
 * a terminal: run under a pseudo-terminal (`script` from util-linux) with none of the variables by
 * which Nx decides it is in CI, it must reach the bench's first `start` line without Nx asking
 * "Share usage data with the Nx team?" (answering rewrites nx.json, which then fails `pnpm lint`)
 * or advertising Nx Cloud. The bench trains one 5-step run into a temporary folder; the test
 * kills the whole process tree as soon as training starts and checks that nothing is left.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const QUICK_START = 'npx -y pnpm@12.4.2 nx run bench:shakespeare';
// The smallest grid that reaches a `start` line; `--plain` prints log lines, not a progress bar.
const BENCH_ARGS = '--steps 5 --lengths 4 --seeds 0 --variants softmax --workers 0 --plain';
const START_TIMEOUT_MS = 100_000;
/** What Nx shows a terminal user before a run: the analytics prompt, a Cloud invitation. */
const NAGS = /Share usage data|Nx Cloud|nx connect|Help improve Nx/i;

/** Variables by which Nx (nx/src/utils/is-ci.js) thinks it runs in CI, or that keep Nx Cloud away. */
const NOT_IN_A_TERMINAL = [
  'CI',
  'TF_BUILD',
  'GITHUB_ACTIONS',
  'BUILDKITE',
  'CIRCLECI',
  'CIRRUS_CI',
  'TRAVIS',
  'bamboo.buildKey',
  'bamboo_buildKey',
  'CODEBUILD_BUILD_ID',
  'GITLAB_CI',
  'HEROKU_TEST_RUN_ID',
  'BUILD_ID',
  'BUILD_NUMBER',
  'BUILD_BUILDID',
  'TEAMCITY_VERSION',
  'JENKINS_URL',
  'HUDSON_URL',
  'NX_NO_CLOUD',
  'NX_SKIP_NX_CACHE',
  'NODE_ENV',
];

/** The environment of a person at a terminal (.ci/run exports CI=true and NX_NO_CLOUD=true). */
function terminalEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TERM: process.env.TERM || 'xterm',
    BOLTZMANN_DATA_DIR: process.env.BOLTZMANN_DATA_DIR ?? join(root, '..', 'shared', 'data'),
    // No Nx daemon: it would outlive the test (it does not change whether Nx prompts).
    NX_DAEMON: 'false',
  };
  for (const key of Object.keys(env)) {
    if (NOT_IN_A_TERMINAL.includes(key) || key.startsWith('NX_CLOUD') || key.startsWith('VITEST'))
      delete env[key];
  }
  return env;
}

/** The test needs Linux's /proc and util-linux `script`: without them it fails, never skips. */
function assertPty(): void {
  if (process.platform !== 'linux')
    throw new Error('the quick-start test needs Linux (/proc and util-linux script)');
  if (spawnSync('script', ['--version']).status !== 0)
    throw new Error('the quick-start test needs `script` (util-linux; Debian package bsdutils)');
}

/** Live processes (pid → parent pid), zombies left out. */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z') table.set(Number(name), Number(ppid));
    } catch {
      // it ended while we looked
    }
  }
  return table;
}

/** `pid` and every process below it, across sessions (`script` puts its child in a new one). */
function processTree(pid: number, table = processTable()): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++)
    for (const [child, parent] of table) if (parent === tree[i]) tree.push(child);
  return tree.filter((p) => table.has(p));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills `child`'s process group and every process of its tree; returns the pids still alive after 5 s. */
async function killTree(child: ChildProcess): Promise<number[]> {
  const pid = child.pid!;
  const seen = new Set<number>();
  for (let round = 0; round < 3; round++) {
    const tree = processTree(pid);
    for (const p of tree) seen.add(p);
    try {
      process.kill(-pid, 'SIGKILL'); // script's own group (spawned detached)
    } catch {
      // already gone
    }
    for (const p of tree) {
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await sleep(200);
  }
  for (let waited = 0; waited < 5_000; waited += 100) {
    const alive = processTable();
    const left = [...seen].filter((p) => alive.has(p));
    if (left.length === 0) return [];
    await sleep(100);
  }
  const alive = processTable();
  return [...seen].filter((p) => alive.has(p));
}

/** Terminal output as text: no colours or cursor moves, no carriage returns. */
function plain(output: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences are what we strip
  return output.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r/g, '');
}

interface PtyRun {
  readonly outcome: 'started' | 'nagged' | 'exited' | 'timed out';
  readonly output: string;
  readonly leftovers: number[];
}

/** Runs `command` under a pseudo-terminal until the bench's first `start` line, an Nx nag, exit or timeout. */
async function runInTerminal(command: string, env: NodeJS.ProcessEnv): Promise<PtyRun> {
  // A pty starts 0 columns wide, which wraps every character onto its own line: give it a size.
  const child = spawn('script', ['-qec', `stty cols 160 rows 48; exec ${command}`, '/dev/null'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'], // stdin stays open and silent: no answer, no EOF
  });
  let output = '';
  const outcome = await new Promise<PtyRun['outcome']>((settle) => {
    const resolve = (value: PtyRun['outcome']): void => {
      clearTimeout(timer);
      settle(value);
    };
    const timer = setTimeout(() => resolve('timed out'), START_TIMEOUT_MS);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const text = plain(output);
      if (NAGS.test(text)) resolve('nagged');
      else if (/^start\s+\S/m.test(text)) resolve('started');
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('close', () => resolve('exited'));
    child.on('error', () => resolve('exited'));
  });
  const leftovers = await killTree(child);
  child.stdin!.destroy();
  return { outcome, output: plain(output), leftovers };
}

const gitStatus = (): string =>
  spawnSync('git', ['status', '--porcelain', 'nx.json'], { cwd: root, encoding: 'utf8' }).stdout;

describe('the README quick start in a terminal', () => {
  beforeAll(assertPty);
  it('nx.json answers Nx analytics and opts out of Nx Cloud, with keys of the nx schema', () => {
    const nxJson = JSON.parse(readFileSync(join(root, 'nx.json'), 'utf8'));
    const schema = JSON.parse(
      readFileSync(join(root, 'node_modules/nx/schemas/nx-schema.json'), 'utf8'),
    );
    expect(schema.properties.analytics?.type).toBe('boolean');
    expect(schema.properties.neverConnectToCloud?.type).toBe('boolean');
    expect(nxJson.analytics).toBe(false);
    expect(nxJson.neverConnectToCloud).toBe(true);
  });

  it('reaches the first `start` line with no prompt, leaves nx.json alone and no process behind', async () => {
    const results = mkdtempSync(join(tmpdir(), 'quick-start-'));
    const before = { status: gitStatus(), text: readFileSync(join(root, 'nx.json'), 'utf8') };
    try {
      const run = await runInTerminal(
        `${QUICK_START} -- ${BENCH_ARGS} --results ${results}`,
        terminalEnv(),
      );
      const tail = run.output.slice(-3000);
      expect(run.outcome, `the quick start ${run.outcome}; its output ended:\n${tail}`).toBe(
        'started',
      );
      expect(run.output).not.toMatch(NAGS);
      expect(run.leftovers, 'processes still alive after the kill').toEqual([]);
    } finally {
      rmSync(results, { recursive: true, force: true });
    }
    expect(gitStatus()).toBe(before.status);
    expect(readFileSync(join(root, 'nx.json'), 'utf8')).toBe(before.text);
  }, 120_000);
});
