#!/usr/bin/env node
// `bench …` (`pnpm exec bench`, the package scripts): runs the CLI, src/cli/bin.ts, from the
// TypeScript sources in a Node child with the flags of a bench training process
// (src/training/trainingProcess.ts): tsx, the @boltzmann/source condition, and a 64 MiB
// semi-space (a `--workers 0` grid trains in this process). Plain JavaScript, as Node needs it
// before tsx is loaded. The child's exit code is ours; SIGINT, SIGTERM and SIGHUP are passed on
// (bin.ts treats a repeat within a second as the same Ctrl-C, which the terminal also sends it).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const entry = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
const child = spawn(
  process.execPath,
  [
    '--import',
    tsx,
    '--conditions=@boltzmann/source',
    '--max-semi-space-size=64',
    entry,
    ...process.argv.slice(2),
  ],
  // The CLI ends itself when this process dies, even by SIGKILL (src/cli/bin.ts, which spells the name too).
  { stdio: 'inherit', env: { ...process.env, BOLTZMANN_BENCH_LAUNCHER_PID: String(process.pid) } },
);
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of signals) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  process.stderr.write(`error [BENCH_RUN_FAILED]: cannot start the bench (${error.message})\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal === null) process.exit(code ?? 1);
  // Killed by a signal: end the same way, so a shell sees what happened to the bench.
  for (const s of signals) process.removeAllListeners(s);
  process.kill(process.pid, signal);
});
