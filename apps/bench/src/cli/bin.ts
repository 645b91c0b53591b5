#!/usr/bin/env node
/*
 * The bench's process entry: `bench <command> [options]` (bin/bench.mjs runs this file under tsx;
 * see README.md). It gives main.ts the process's arguments, output and a stop signal: the first
 * SIGINT or SIGTERM asks the running command to checkpoint and stop; a second one exits at once.
 */
import { main } from './main.js';

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

process.exitCode = await main(process.argv.slice(2), {
  out: (l) => process.stdout.write(`${l}\n`),
  err: (l) => process.stderr.write(`${l}\n`),
  signal: controller.signal,
});
