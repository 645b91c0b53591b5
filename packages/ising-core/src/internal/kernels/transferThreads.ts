/**
 * A second thread for the wasm transfer kernel (wasm/transfer.wat). The problems of a batch are
 * independent, so a large batch is split in two by work (`Σ n_q · 2^W`): one worker thread runs
 * its share while the calling thread runs the rest, then the calling thread blocks in
 * `Atomics.wait` for the worker's flag (the API is synchronous). The worker is a small plain-JS
 * script evaluated with the module's bytes (no loader, the same from source and from dist); it
 * has its own wasm instance and memory and reads inputs from, and writes outputs to,
 * SharedArrayBuffers. It is started on first use, unref'd (never keeps the process alive) and
 * reused. Any failure (no worker_threads, no SharedArrayBuffer, start-up or run error, timeout)
 * returns `false` and the caller runs everything on its own thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BandTables } from './transferLinear.js';
import { wasmBase64 } from './wasm/transferWasm.generated.js';

/** Smallest total work (`Σ n_q · 2^W` over the batch's linear-domain problems) sent to a second thread. */
export const THREAD_MIN_WORK = 1 << 20;
/** How long the calling thread waits for the worker before giving up on it. */
const WAIT_MS = 60_000;

const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const mod = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(workerData.wasm, 'base64'))).exports;
function views(lengths) {
  const bytes = lengths.reduce((t, k) => t + 8 * k, 0);
  const have = mod.memory.buffer.byteLength;
  if (bytes > have) mod.memory.grow(Math.ceil((bytes - have) / 65536));
  const out = [];
  let offset = 0;
  for (const k of lengths) { out.push([new Float64Array(mod.memory.buffer, offset, k), offset]); offset += 8 * k; }
  return out;
}
function run(job) {
  const { kind, W, n, beta, stride } = job;
  const S = 1 << W;
  const table = new Float64Array(job.table);
  const fields = new Float64Array(job.fields);
  const spins = new Int32Array(job.spins);
  const problems = new Int32Array(job.problems);
  const out = new Float64Array(job.out);
  if (kind === 'forward') {
    const [tbl, back, a, nx, E, mag, sig] = views([n * 2 * S, n * S, S, S, n, n, n + 1]);
    tbl[0].set(table);
    const logZ = new Float64Array(job.logZ);
    for (const q of problems) {
      const len = spins[q];
      for (let t = 0; t < len; t++) E[0][t] = Math.exp(beta * fields[q * stride + t]);
      mod.forward(len, W, tbl[1], back[1], a[1], nx[1], E[1], mag[1], sig[1]);
      let z = -W * Math.LN2;
      for (let t = 0; t <= len; t++) z += Math.log(sig[0][t]);
      logZ[q] = z;
      out.set(mag[0].subarray(0, len), q * stride);
    }
  } else {
    const v = views([n * 2 * S, (n + 1) * S, (n + 1) * S, S, S, S, S, n * S, n, n, n, n, n, n]);
    v[0][0].set(table);
    v[7][0].fill(0);
    v[8][0].fill(0);
    const grad = new Float64Array(job.grad);
    const E = v[11][0], G = v[12][0], fg = v[13][0];
    for (const q of problems) {
      const len = spins[q];
      for (let t = 0; t < len; t++) { E[t] = Math.exp(beta * fields[q * stride + t]); G[t] = beta * grad[q * stride + t]; }
      mod.vjp(len, W, ...v.map((x) => x[1]));
      out.set(fg.subarray(0, len), q * stride);
    }
    new Float64Array(job.acc).set(v[7][0]);
    new Float64Array(job.acc0).set(v[8][0]);
  }
}
parentPort.on('message', (job) => {
  const flag = new Int32Array(job.flag);
  let state = 1;
  try { run(job); } catch (e) { state = 2; }
  Atomics.store(flag, 0, state);
  Atomics.notify(flag, 0);
});
`;

let worker: Worker | null | undefined;
let enabled = true;
let minWork = THREAD_MIN_WORK;
let jobsDone = 0;

/** How many shares the worker has completed in this process (tests check it ran). */
export function transferThreadJobs(): number {
  return jobsDone;
}

function getWorker(): Worker | null {
  if (!enabled) return null;
  if (worker === undefined) {
    try {
      if (availableParallelism() < 2 || typeof SharedArrayBuffer !== 'function') throw new Error('one core');
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { wasm: wasmBase64 } });
      worker.unref();
      worker.on('error', () => {
        worker = null;
      });
      worker.on('exit', () => {
        worker = null;
      });
    } catch {
      worker = null;
    }
  }
  return worker;
}

/**
 * Turns the second thread off (`false`) or on; `threshold` sets the smallest work sent to it
 * (tests lower it). Returns whether a worker can be used.
 */
export function useTransferThreads(on: boolean, threshold = THREAD_MIN_WORK): boolean {
  enabled = on;
  minWork = threshold;
  return on && getWorker() !== null;
}

/** Ends the worker thread (it is started again on next use). */
export async function disposeTransferWorker(): Promise<void> {
  const w = worker;
  worker = undefined;
  if (w) await w.terminate();
}

const shared = (n: number): Float64Array => new Float64Array(new SharedArrayBuffer(8 * Math.max(1, n)));

const simdTables = new WeakMap<BandTables, Float64Array>();

/** The coupling table in the wasm kernel's SIMD order, in shared memory (built once per batch: the forward pass and the VJP share it). */
function simdTable(tables: BandTables): Float64Array {
  const cached = simdTables.get(tables);
  if (cached !== undefined) return cached;
  const { table } = tables;
  const out = shared(table.length);
  simdTables.set(tables, out);
  for (let base = 0; base < table.length; base += 8) {
    for (let c = 0; c < 4; c++) {
      out[base + 2 * c] = table[base + c]!;
      out[base + 2 * c + 1] = table[base + 4 + c]!;
    }
  }
  return out;
}

/** A batch split between this thread and the worker; see {@link splitWork}. */
export interface ThreadJob {
  /** Problems this thread runs. */
  readonly local: number[];
  /** Problems the worker runs (the caller runs them itself if {@link ThreadJob.finish} fails). */
  readonly remote: number[];
  /** Waits for the worker and copies its outputs; `false` if it failed or timed out (nothing copied). */
  finish(): boolean;
}

/**
 * Splits `problems` (indices into the batch) into two shares of about equal work (`spins[q]`
 * each, all with the same window) and starts the worker on the second share: `forward` writes
 * magnetizations into `out` and `log Z` into `logZ`; `vjp` writes `∂L/∂h` into `out` and adds
 * its band-gradient sums into `acc`, `acc0`. Returns `undefined` (nothing started) when the work
 * is below the threshold or no worker is available.
 */
export function splitWork(
  kind: 'forward' | 'vjp',
  tables: BandTables,
  problems: readonly number[],
  spins: Int32Array,
  stride: number,
  fields: Float64Array,
  grad: Float64Array | undefined,
  out: Float64Array,
  logZ: Float64Array | undefined,
  acc: Float64Array | undefined,
  acc0: Float64Array | undefined,
): ThreadJob | undefined {
  const S = 1 << tables.window;
  let total = 0;
  for (const q of problems) total += spins[q]! * S;
  if (total < minWork || problems.length < 2) return undefined;
  const w = getWorker();
  if (w === null) return undefined;
  // Balance by work: the worker takes problems from the end until it holds half.
  const local: number[] = [];
  const remote: number[] = [];
  let share = 0;
  for (let i = problems.length - 1; i >= 0; i--) {
    const q = problems[i]!;
    if (share < total / 2) {
      remote.push(q);
      share += spins[q]! * S;
    } else local.push(q);
  }
  if (local.length === 0) return undefined;
  const size = out.length;
  // Only the rows the worker reads (its problems' spins) are copied.
  const sharedFields = shared(fields.length);
  const sharedGrad = kind === 'vjp' ? shared(grad!.length) : undefined;
  for (const q of remote) {
    const at = q * stride;
    const end = at + spins[q]!;
    sharedFields.set(fields.subarray(at, end), at);
    sharedGrad?.set(grad!.subarray(at, end), at);
  }
  const sharedSpins = new Int32Array(new SharedArrayBuffer(4 * spins.length));
  sharedSpins.set(spins);
  const sharedProblems = new Int32Array(new SharedArrayBuffer(4 * remote.length));
  sharedProblems.set(remote);
  const sharedOut = shared(size);
  const sharedLogZ = kind === 'forward' ? shared(logZ!.length) : undefined;
  const sharedAcc = kind === 'vjp' ? shared(acc!.length) : undefined;
  const sharedAcc0 = kind === 'vjp' ? shared(acc0!.length) : undefined;
  const flag = new Int32Array(new SharedArrayBuffer(4));
  try {
    w.postMessage({
      kind,
      W: tables.window,
      n: tables.length,
      beta: tables.beta,
      stride,
      table: simdTable(tables).buffer,
      fields: sharedFields.buffer,
      grad: sharedGrad?.buffer,
      spins: sharedSpins.buffer,
      problems: sharedProblems.buffer,
      out: sharedOut.buffer,
      logZ: sharedLogZ?.buffer,
      acc: sharedAcc?.buffer,
      acc0: sharedAcc0?.buffer,
      flag: flag.buffer,
    });
  } catch {
    return undefined;
  }
  return {
    local,
    remote,
    finish(): boolean {
      if (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0, WAIT_MS);
      if (Atomics.load(flag, 0) !== 1) {
        // A worker that failed or hangs is not used again.
        if (worker === w) worker = null;
        void w.terminate();
        return false;
      }
      for (const q of remote) {
        const at = q * stride;
        out.set(sharedOut.subarray(at, at + spins[q]!), at);
        if (logZ !== undefined) logZ[q] = sharedLogZ![q]!;
      }
      jobsDone++;
      if (acc !== undefined) {
        for (let i = 0; i < acc.length; i++) acc[i]! += sharedAcc![i]!;
        for (let i = 0; i < acc0!.length; i++) acc0![i]! += sharedAcc0![i]!;
      }
      return true;
    },
  };
}
