// The roofline of the speed scripts (scripts/benchEngineGemm.ts, scripts/benchEngine.ts): the
// one-core f32x4 peak measured now, and the best-of-5 timing they both use.
// @ts-expect-error -- a plain .mjs build script without type declarations
import { compileWat } from '../../../tools/wasm/wasmSource.mjs';

/** How {@link time} times: batches of at least `batchMs` milliseconds, the best of `batches`. */
export interface Timing {
  readonly batchMs?: number;
  readonly batches?: number;
}

/**
 * Seconds per call of `run`: repeated until a batch takes ≥ 40 ms, best of 5 batches (or as
 * `timing` says: on a shared machine, many short batches find the moments it runs alone).
 */
export function time(run: () => void, timing: Timing = {}): number {
  const { batchMs = 40, batches = 5 } = timing;
  run();
  let reps = 1;
  for (;;) {
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) run();
    if (performance.now() - t0 >= batchMs) break;
    reps *= 2;
  }
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < batches; i++) {
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) run();
    best = Math.min(best, (performance.now() - t0) / reps);
  }
  return best / 1e3;
}

/**
 * The f32x4 peak: 12 independent chains of mul + add, 96 flops a turn. wasmPeak.bench.ts runs 16,
 * which with the two operands needs 18 of x64's 16 SIMD registers: V8 spills, and on this
 * machine it reads 25–30 GFLOP/s where 8 or 12 chains reach 50 (the same with FMA).
 */
function peakWat(): string {
  const chains = Array.from({ length: 12 }, (_, i) => i);
  const locals = chains.map((i) => `(local $a${i} v128)`).join(' ');
  const init = chains.map((i) => `(local.set $a${i} (f32x4.splat (f32.const ${i + 1})))`);
  const body = chains.map(
    (i) =>
      `(local.set $a${i} (f32x4.add (f32x4.mul (local.get $a${i}) (local.get $y)) (local.get $x)))`,
  );
  const sum = chains
    .slice(1)
    .map((i) => `(local.set $a0 (f32x4.add (local.get $a0) (local.get $a${i})))`);
  return `(module (func (export "run") (param $n i32) (result f32) (local $y v128) (local $x v128) ${locals}
    (local.set $y (f32x4.splat (f32.add (f32.const 0.5) (f32.convert_i32_s (i32.and (local.get $n) (i32.const 0))))))
    (local.set $x (f32x4.splat (f32.const 0.25)))
    ${init.join(' ')}
    (loop $l ${body.join(' ')} (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
    ${sum.join(' ')} (f32x4.extract_lane 0 (local.get $a0))))`;
}
const wasm = (globalThis as { WebAssembly?: unknown }).WebAssembly as {
  instantiate(bytes: ArrayBuffer): Promise<{ instance: { exports: Record<string, unknown> } }>;
};
let peakRun: ((n: number) => number) | undefined;
let peakBytes: Uint8Array | undefined;

/** GFLOP/s of the one-core f32x4 peak kernel now (10^5 turns a call, best of 5, or `timing`). */
export async function peakGflops(timing?: Timing): Promise<number> {
  if (peakRun === undefined) {
    peakBytes = new Uint8Array(await compileWat('peak.wat', peakWat()));
    const module = await wasm.instantiate(peakBytes.slice().buffer);
    peakRun = module.instance.exports.run as (n: number) => number;
  }
  const run = peakRun;
  return (1e5 * 96) / time(() => run(1e5), timing) / 1e9;
}

/** The peak kernel's loop in a worker thread: GFLOP/s over about `ms` milliseconds. */
const PEAK_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { bytes, ms } = workerData;
WebAssembly.instantiate(bytes).then(({ instance }) => {
  const run = instance.exports.run;
  run(1e4);
  let turns = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) { run(1e5); turns += 1e5; }
  parentPort.postMessage((turns * 96) / (performance.now() - t0) / 1e6);
});`;

/**
 * The f32x4 peak of `threads` cores at once: the kernel in that many worker threads started
 * together, each one's GFLOP/s. Two vCPUs of a virtual machine may share a physical core's SIMD
 * units; this shows how much of a second core the machine really gives.
 */
export async function concurrentPeaks(threads: number, ms = 1500): Promise<number[]> {
  await peakGflops();
  const { Worker } = await import('node:worker_threads');
  const bytes = peakBytes!;
  const runs = Array.from(
    { length: threads },
    () =>
      new Promise<number>((resolve, reject) => {
        const worker = new Worker(PEAK_WORKER, { eval: true, workerData: { bytes, ms } });
        worker.once('message', (gflops: number) => {
          resolve(gflops);
          void worker.terminate();
        });
        worker.once('error', reject);
      }),
  );
  return Promise.all(runs);
}
