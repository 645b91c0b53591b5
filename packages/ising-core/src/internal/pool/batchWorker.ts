// The worker module: a worker_threads worker in Node, a module Web Worker in a browser (exported
// as `@boltzmann/ising-core/worker` for bundlers). Node's modules come through nodeBuiltin.
import { nodeBuiltin } from '../../nodeBuiltin.js';
import { exactBackward, exactForward } from '../kernels/exactKernel.js';
import { runSamplerTask } from './samplerTasks.js';
import { completeSyncReply, failSyncReply } from './syncReply.js';
import { codedMessage } from './poolMessages.js';
import type { WorkerReply, WorkerRequest } from './poolMessages.js';

/** The pool's side of this worker: Node's parentPort or the Web Worker's own scope. */
interface Port {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  onMessage(listener: (message: unknown) => void): void;
}

const threads = nodeBuiltin<typeof import('node:worker_threads')>('node:worker_threads');
const port: Port = threads !== undefined ? nodePort(threads) : webPort();

function nodePort(t: typeof import('node:worker_threads')): Port {
  const parent = t.parentPort;
  if (parent === null) throw new Error('batchWorker must run in a worker thread');
  return {
    postMessage: (m, transfer) => parent.postMessage(m, transfer),
    onMessage: (listener) => void parent.on('message', listener),
  };
}

function webPort(): Port {
  const scope = globalThis as unknown as {
    postMessage(m: unknown, transfer?: ArrayBuffer[]): void;
    addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  };
  if (typeof scope.addEventListener !== 'function' || typeof scope.postMessage !== 'function')
    throw new Error('batchWorker must run in a worker');
  return {
    postMessage: (m, transfer) => scope.postMessage(m, transfer ?? []),
    onMessage: (listener) => scope.addEventListener('message', (e) => listener(e.data)),
  };
}

// A synchronous caller blocks in Atomics.wait and cannot see this worker's 'exit' event, so a
// worker that exits mid-task (process.exit, fatal error) fails the reply slot on its way out.
let inFlight: WorkerRequest['sync'];
(
  globalThis as { process?: { on?(event: 'exit', listener: (code: number) => void): void } }
).process?.on?.('exit', (code) => {
  if (inFlight !== undefined)
    failSyncReply(inFlight, `worker exited with code ${code} during a task`);
});

/** Tells a thread blocked in Atomics.wait (synchronous calls) and the async side that this worker is up. */
function announceReady(ready: Int32Array | undefined): void {
  if (ready !== undefined) {
    Atomics.store(ready, 0, 1);
    Atomics.notify(ready, 0);
  }
  port.postMessage({ ready: true });
}

// One message at a time: the kernels are synchronous and reuse this thread's scratch tables.
port.onMessage((message) => {
  // A Web Worker gets its start-up flag as its first message (it has no workerData).
  const init = (message as { init?: { ready: Int32Array } }).init;
  if (init !== undefined) return announceReady(init.ready);
  const request = message as WorkerRequest;
  const { sync } = request;
  inFlight = sync;
  let reply: WorkerReply;
  let arrays: Float64Array[];
  try {
    const { task } = request;
    if (
      task.kind === 'sampler-estimate' ||
      task.kind === 'sampler-vjp' ||
      task.kind === 'sampler-drop'
    ) {
      // Sampler tasks are synchronous calls (or fire-and-forget drops): no message answer.
      arrays = runSamplerTask(task);
      inFlight = undefined;
      if (sync !== undefined) completeSyncReply(sync, arrays);
      return;
    }
    if (task.kind === 'forward') {
      const result = exactForward(task.problems);
      arrays = [result.up, result.logZ, result.norm];
      reply = { id: request.id, ok: true, forward: result };
    } else {
      const { problems, up, norm, grad } = task;
      const result = exactBackward(problems, { up, norm }, grad);
      arrays = [result.fields, result.couplings];
      reply = { id: request.id, ok: true, backward: result };
    }
  } catch (error) {
    const message = codedMessage(error);
    inFlight = undefined;
    if (sync !== undefined) failSyncReply(sync, message);
    else port.postMessage({ id: request.id, ok: false, message } satisfies WorkerReply);
    return;
  }
  inFlight = undefined;
  if (sync !== undefined) completeSyncReply(sync, arrays);
  else
    port.postMessage(
      reply,
      arrays.map((a) => a.buffer as ArrayBuffer),
    );
});

if (threads !== undefined)
  announceReady((threads.workerData as { ready?: Int32Array } | undefined)?.ready);
