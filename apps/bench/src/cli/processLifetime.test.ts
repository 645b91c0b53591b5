// Issue 38: no bench process outlives its parent, and a sampler timeout ends the bench. Real
// processes (the launcher, the CLI, a pool process) on a tiny grid in a temporary results folder.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const launcher = fileURLToPath(new URL('../../bin/bench.mjs', import.meta.url));
const cli = fileURLToPath(new URL('./bin.ts', import.meta.url));

// A synchronous sampler that never returns (it says so first), and an asynchronous one whose
// answer never comes while a timer of its own keeps the process alive (a hung remote service).
const SPIN = `
const capabilities = { exact: false, maxSpins: 16, async: false, deterministic: true };
export default { name: 'spin', version: '1.0.0', capabilities,
  create: () => ({ name: 'spin', capabilities,
    sample: () => { process.stderr.write('spinning\\n'); for (;;) {} } }) };
`;
const HANG = `
const capabilities = { exact: false, maxSpins: 16, async: true, deterministic: true };
export default { name: 'hang', version: '1.0.0', capabilities,
  create: () => ({ name: 'hang', capabilities,
    sample: () => new Promise(() => void setInterval(() => {}, 1000)) }) };
`;

/** A tiny grid of `steps` steps in a new results folder, with `extra` flags. */
function gridArgs(extra: string[], steps = 1_000_000): string[] {
  const side = mkdtempSync(join(tmpdir(), 'bench-lifetime-'));
  for (const [name, text] of [
    ['spin.mjs', SPIN],
    ['hang.mjs', HANG],
  ] as const)
    writeFileSync(join(side, name), text);
  return [
    'shakespeare',
    ...['--lengths', '3', '--seeds', '0', '--steps', String(steps), '--d-model', '8'],
    ...['--ffn', 'off', '--batch-size', '4', '--eval-windows', '8', '--eval-every', '1000000'],
    ...['--plain', '--results', join(side, 'results')],
    ...extra.map((a) => a.replace('<side>', side)),
  ];
}

/** The pids of `pid`'s children, from /proc. */
function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command's closing parenthesis: state, ppid, …
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits (polling, at most `ms`) until `done()`; returns whether it became true. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** `pid` and its descendants, parents first. */
const tree = (pid: number): number[] => [pid, ...childPids(pid).flatMap(tree)];

const started: number[] = [];
afterEach(() => {
  // Whatever a failed test left behind.
  for (const pid of started.splice(0).flatMap(tree)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

function start(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child.pid!);
  const chunks: string[] = [];
  child.stdout!.on('data', (d: Buffer) => void chunks.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => void chunks.push(d.toString()));
  return { child, output: () => chunks.join('') };
}

describe.skipIf(process.platform !== 'linux')('process lifetime (issue 38)', () => {
  it('SIGKILL of the launcher ends its CLI and the pool process within a bounded time', async () => {
    const { child, output } = start([launcher, ...gridArgs(['--variants', 'softmax'])]);
    child.stdout!.resume();
    // The CLI, its pool process, and a run that is training.
    expect(await until(() => /^start /m.test(output()), 40_000), output()).toBe(true);
    const [benchCli] = childPids(child.pid!);
    const pool = childPids(benchCli!);
    started.push(benchCli!, ...pool);
    expect(pool.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    const gone = await until(() => !alive(benchCli!) && pool.every((p) => !alive(p)), 15_000);
    expect(gone, output()).toBe(true);
  }, 60_000);

  it('SIGKILL of the command as typed (a shell above the launcher, as pnpm and nx are) ends the launcher, its CLI and the pool process', async () => {
    const quoted = [process.execPath, launcher, ...gridArgs(['--variants', 'softmax'])]
      .map((a) => `'${a}'`)
      .join(' ');
    // `; true` keeps the shell from exec'ing into node; detached: a process group of its own, as a
    // shell gives the command a user types.
    const shell = spawn('/bin/sh', ['-c', `${quoted}; true`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(shell.pid!);
    const chunks: string[] = [];
    for (const stream of [shell.stdout!, shell.stderr!])
      stream.on('data', (d: Buffer) => void chunks.push(d.toString()));
    // A run that is training: the CLI's watchdog has long seen the command's processes.
    expect(await until(() => /^start /m.test(chunks.join('')), 40_000), chunks.join('')).toBe(true);
    const [benchLauncher] = childPids(shell.pid!);
    const below = tree(benchLauncher!);
    started.push(...below);
    shell.kill('SIGKILL');
    expect(await until(() => below.every((p) => !alive(p)), 15_000), String(below)).toBe(true);
  }, 60_000);

  it('a second SIGTERM ends the CLI (130) and its pool process, even one held by a spinning sampler', async () => {
    const { child, output } = start([
      ...['--import', 'tsx', '--conditions=@boltzmann/source', cli],
      ...gridArgs(['--variants', 'boltzmann', '--sampler', 'spin', '--plugin', '<side>/spin.mjs']),
      ...['--workers', '1'],
    ]);
    expect(await until(() => output().includes('spinning'), 40_000), output()).toBe(true);
    const pool = childPids(child.pid!);
    started.push(...pool);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGTERM');
    expect(await exited).toBe(130);
    expect(await until(() => pool.every((p) => !alive(p)), 15_000), output()).toBe(true);
  }, 60_000);

  it('--sampler-timeout ends the bench (exit 1, ATTENTION_SAMPLER_TIMEOUT) though the sampler keeps a timer', async () => {
    const { child, output } = start([
      launcher,
      ...gridArgs(
        ['--variants', 'boltzmann', '--sampler', 'hang', '--plugin', '<side>/hang.mjs'],
        2,
      ),
      ...['--workers', '0', '--sampler-timeout', '1'],
    ]);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const code = await Promise.race([exited, new Promise((r) => setTimeout(r, 40_000, 'hung'))]);
    expect(output()).toContain('ATTENTION_SAMPLER_TIMEOUT');
    expect(code).toBe(1);
  }, 60_000);
});
