#!/usr/bin/env node
// `bench …` (`pnpm exec bench`, the package scripts): runs the CLI in a Node child with the flags
// of a bench training process (src/training/trainingProcess.ts: a 64 MiB semi-space, since a
// `--workers 0` grid trains in this process). The child runs the built bench, dist/bin.js
// (bin/build.mjs), when dist/ is the build of the sources on disk, rebuilding it first when a source
// changed; else (no esbuild, a failed build) src/cli/bin.ts under tsx and the @boltzmann/source
// condition, with a one-line note. A `--plugin` command always runs from the sources: a plugin
// imports @boltzmann/* from the bench's sources (src/samplers/registry.ts), which the build has
// bundled. The built CLI starts in about a third of the time (README.md, "Start-up").
// Plain JavaScript, as Node needs it before tsx is loaded. The child's exit code is ours; SIGINT,
// SIGTERM and SIGHUP are passed on (bin.ts treats a repeat within a second as the same Ctrl-C,
// which the terminal also sends it).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DIST_DIR, staleReason } from './buildStamp.mjs';

const SEMI_SPACE = '--max-semi-space-size=64';
/** Set to 1 to run from the TypeScript sources under tsx, whatever dist/ holds. */
const FROM_SOURCE_ENV = 'BOLTZMANN_BENCH_FROM_SOURCE';
/** Another folder for the build than apps/bench/dist (a read-only checkout, the launcher's tests). */
const distDir = process.env.BOLTZMANN_BENCH_DIST ?? DIST_DIR;

/** The node arguments that run the CLI from its sources. */
function sourceArgs() {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const entry = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
  return ['--import', tsx, '--conditions=@boltzmann/source', SEMI_SPACE, entry];
}

/** The node arguments that run the CLI: built when dist/ is (or can be made) up to date. */
async function cliArgs(argv) {
  const plugin = argv.some((a) => a === '--plugin' || a.startsWith('--plugin='));
  if (process.env[FROM_SOURCE_ENV] === '1' || plugin) return sourceArgs();
  const stale = staleReason(distDir);
  if (stale !== undefined) {
    try {
      await (await import('./build.mjs')).ensureBuilt({ outdir: distDir });
    } catch (error) {
      const why = String(error?.message ?? error).split('\n')[0];
      process.stderr.write(
        `note: bench runs from its TypeScript sources (slower start): ${stale}, and rebuilding dist/ failed: ${why}\n`,
      );
      return sourceArgs();
    }
  }
  return [SEMI_SPACE, join(distDir, 'bin.js')];
}

const args = process.argv.slice(2);
const child = spawn(
  process.execPath,
  [...(await cliArgs(args)), ...args],
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
