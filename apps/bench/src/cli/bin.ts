#!/usr/bin/env node
/*
 * The bench's process entry: `bench <command> [options]` (bin/bench.mjs runs its build, dist/bin.js,
 * or this file under tsx; see README.md). It gives main.ts the process's arguments, output and a stop signal: the first
 * SIGINT or SIGTERM asks the running command to checkpoint and stop; a second one exits at once.
 */
import { watchParent } from '../training/parentWatchdog.js';
import { main } from './main.js';

/**
 * Set by bin/bench.mjs to its pid (spelled there too: the launcher is plain JavaScript). Only the
 * launcher's CLI follows its parent: one started by hand (`nohup node … bin.ts &`) outlives its shell.
 */
const LAUNCHER_PID_ENV = 'BOLTZMANN_BENCH_LAUNCHER_PID';

// `bench … | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const controller = new AbortController();
let firstSignal = 0;
const onSignal = (): void => {
  // Ctrl-C reaches us twice (the terminal's process group and tsx's relay): a repeat within
  // a second is the same keypress, not a request to stop at once.
  if (firstSignal === 0) {
    firstSignal = Date.now();
    controller.abort();
  } else if (Date.now() - firstSignal > 1000) {
    process.stderr.write(
      'error [BENCH_INTERRUPTED]: stopped immediately; rerun the same command to resume from the last checkpoints\n',
    );
    process.exit(130);
  }
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const launcher = process.env[LAUNCHER_PID_ENV];
// Not for the processes this one starts: their parent is this CLI.
delete process.env[LAUNCHER_PID_ENV];
// The launcher, or any process of the command as typed (npx, pnpm, nx, …), died (even by SIGKILL):
// stop as at Ctrl-C, checkpointing every run; the launcher then exits with this process.
if (launcher !== undefined)
  watchParent(() => controller.abort(), { parent: Number(launcher), wholeCommand: true });

process.exitCode = await main(process.argv.slice(2), {
  out: (l) => process.stdout.write(`${l}\n`),
  err: (l) => process.stderr.write(`${l}\n`),
  signal: controller.signal,
});
// Done: what a plugin left behind (a hung sampler's timer or socket, abandoned at --sampler-timeout)
// must not keep the bench running. The timer does not delay a process that ends on its own.
setTimeout(() => process.exit(), 1000).unref();
