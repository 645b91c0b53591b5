import { parentPort } from 'node:worker_threads';
import { exactBackward, exactForward } from './kernels/exactKernel.js';
import type { WorkerReply, WorkerRequest } from './workerPool.js';

// One message at a time: the kernels are synchronous and reuse this thread's scratch tables.
const port = parentPort;
if (port === null) throw new Error('batchWorker must run in a worker thread');

port.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  const transfer: ArrayBuffer[] = [];
  try {
    if (request.task.kind === 'forward') {
      const result = exactForward(request.task.problems);
      transfer.push(result.up.buffer as ArrayBuffer, result.logZ.buffer as ArrayBuffer, result.norm.buffer as ArrayBuffer);
      reply = { id: request.id, ok: true, forward: result };
    } else {
      const { problems, up, norm, grad } = request.task;
      const result = exactBackward(problems, { up, norm }, grad);
      transfer.push(result.fields.buffer as ArrayBuffer, result.couplings.buffer as ArrayBuffer);
      reply = { id: request.id, ok: true, backward: result };
    }
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply, transfer);
});

port.postMessage({ ready: true });
