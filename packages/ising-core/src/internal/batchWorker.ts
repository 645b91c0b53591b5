import { parentPort, workerData } from 'node:worker_threads';
import { exactBackward, exactForward } from './kernels/exactKernel.js';
import { runSamplerTask } from './samplerTasks.js';
import { completeSyncReply, failSyncReply } from './syncReply.js';
import { codedMessage } from './workerPool.js';
import type { WorkerReply, WorkerRequest } from './workerPool.js';

// One message at a time: the kernels are synchronous and reuse this thread's scratch tables.
const port = parentPort;
if (port === null) throw new Error('batchWorker must run in a worker thread');

// A synchronous caller blocks in Atomics.wait and cannot see this worker's 'exit' event, so a
// worker that exits mid-task (process.exit, fatal error) fails the reply slot on its way out.
let inFlight: WorkerRequest['sync'];
process.on('exit', (code) => {
  if (inFlight !== undefined) failSyncReply(inFlight, `worker exited with code ${code} during a task`);
});

port.on('message', (request: WorkerRequest) => {
  const { sync } = request;
  inFlight = sync;
  let reply: WorkerReply;
  let arrays: Float64Array[];
  try {
    const { task } = request;
    if (task.kind === 'sampler-estimate' || task.kind === 'sampler-vjp' || task.kind === 'sampler-drop') {
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
  else port.postMessage(reply, arrays.map((a) => a.buffer as ArrayBuffer));
});

// Tell a thread blocked in Atomics.wait (synchronous calls) and the async side that we are up.
const ready = (workerData as { ready?: Int32Array } | undefined)?.ready;
if (ready !== undefined) {
  Atomics.store(ready, 0, 1);
  Atomics.notify(ready, 0);
}
port.postMessage({ ready: true });
