/*
 * Child-process entry of the bench: one process per worker slot, forked by the pool executor
 * (poolExecutor.ts): its build, dist/poolProcess.js, or this file with the tsx loader. Each process
 * owns its own TensorFlow.js (wasm) backend, which is why the bench uses processes rather than
 * worker_threads. Protocol: see poolMessages.ts.
 */
import { rmSync } from 'node:fs';
import { redactSecrets } from '@boltzmann/ising-core/internal';
import type { SamplerRegistry } from '@boltzmann/ising-core';
import { errorParts } from '../benchError.js';
import { modelPath, recordPath } from '../results/runFiles.js';
import { catchStrays, strayText } from './strayErrors.js';
import type { Stray } from './strayErrors.js';
import type { FromWorker, ToWorker } from './poolMessages.js';
import { createBenchRegistry } from '../samplers/registry.js';
import { watchParent } from '../training/parentWatchdog.js';
import { trainRun } from '../training/trainRun.js';

const send = (msg: FromWorker): void => {
  if (process.connected) process.send?.(msg);
};
let stopRequested = false;
let firstSignal = 0;
const onSignal = (): void => {
  stopRequested = true;
  // A second signal (not the duplicate of one Ctrl-C) means "now": the last checkpoint is kept.
  if (firstSignal === 0) firstSignal = Date.now();
  else if (Date.now() - firstSignal > 1000) process.exit(130);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

let registry: SamplerRegistry | undefined;
let busy = false;
// The pool's process died (a second Ctrl-C, SIGKILL, a crash): checkpoint this step and exit,
// or be killed if the step never ends (a spinning synchronous sampler).
watchParent(() => {
  stopRequested = true;
  if (!busy) process.exit(0);
});

/** A stray error (a plugin's timer, a rejection nobody awaited) that hit the current run. */
let stray: Stray | undefined;
catchStrays((s) => {
  if (busy) stray ??= s;
  else send({ type: 'warn', message: `between runs, ${strayText(s)}; ignored` });
});

function failure(
  id: string | null,
  error: unknown,
  secrets: Readonly<Record<string, unknown>>,
): FromWorker {
  const { code, message } = errorParts(error);
  return { type: 'failed', id, code, message: redactSecrets(message, secrets) };
}

/** Reports the end of a run; when a stop was requested, exits once the message is flushed. */
function finish(msg: FromWorker): void {
  busy = false;
  if (!stopRequested) {
    send(msg);
    return;
  }
  if (process.connected && process.send) process.send(msg, () => process.exit(0));
  else process.exit(0);
}

process.on('message', (raw: ToWorker) => {
  if (raw.type === 'stop') {
    stopRequested = true;
    if (!busy) process.exit(0);
    return;
  }
  if (raw.type === 'exit') {
    process.exit(0);
  }
  if (raw.type !== 'run') return;
  const { config, settings } = raw;
  const secrets = settings.samplerSecrets ?? {};
  busy = true;
  stray = undefined;
  void (async () => {
    let last = 0;
    try {
      registry ??= await createBenchRegistry(settings.plugins);
      const result = await trainRun(config, settings, registry, {
        onProgress(progress) {
          const now = Date.now();
          if (now - last >= 250 || progress.step === progress.steps) {
            last = now;
            send({ type: 'progress', progress });
          }
        },
        // A stray error stops the run at its next step, as Ctrl-C would; it then fails.
        shouldStop: () => stopRequested || stray !== undefined,
        warn: (message) => send({ type: 'warn', message: redactSecrets(message, secrets) }),
        onStart: (startStep, engine) => send({ type: 'start', startStep, engine }),
      });
      if (stray !== undefined) {
        // Finished just as it came: its files are not trusted either.
        if (result !== 'stopped') {
          rmSync(recordPath(settings.resultsDir, result.id), { force: true });
          rmSync(modelPath(settings.resultsDir, result.id), { force: true });
        }
        const message = redactSecrets(strayText(stray), secrets);
        finish({ type: 'failed', id: null, code: 'BENCH_RUN_FAILED', message });
      } else {
        finish(
          result === 'stopped'
            ? { type: 'stopped', id: '' }
            : { type: 'done', id: result.id, record: result },
        );
      }
    } catch (error) {
      finish(failure(null, error, secrets));
    }
  })();
});

send({ type: 'ready' });
