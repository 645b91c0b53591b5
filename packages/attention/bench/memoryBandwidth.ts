// This machine's memory bandwidth beside the f32x4 peak (wasmPeak.ts), for the roofline of a
// kernel that would stream its data through memory instead of recomputing it: a 256 MB copy
// (float32 set, read and write counted) in `threads` worker threads started together.

/** One thread's copy loop: best of 6 copies of 256 MB, in GB/s of reads plus writes. */
const COPY_WORKER = `
const { parentPort } = require('node:worker_threads');
const n = 64 * 1024 * 1024;
const a = new Float32Array(n).fill(1);
const b = new Float32Array(n);
let best = Infinity;
for (let r = 0; r < 6; r++) {
  const t0 = performance.now();
  b.set(a);
  best = Math.min(best, performance.now() - t0);
}
parentPort.postMessage((2 * 4 * n) / best / 1e6);`;

/** Each of `threads` threads' copy bandwidth, in GB/s (reads plus writes), measured at once. */
export async function concurrentBandwidth(threads: number): Promise<number[]> {
  const { Worker } = await import('node:worker_threads');
  const runs = Array.from(
    { length: threads },
    () =>
      new Promise<number>((resolve, reject) => {
        const worker = new Worker(COPY_WORKER, { eval: true });
        worker.once('message', (gbs: number) => {
          resolve(gbs);
          void worker.terminate();
        });
        worker.once('error', reject);
      }),
  );
  return Promise.all(runs);
}
