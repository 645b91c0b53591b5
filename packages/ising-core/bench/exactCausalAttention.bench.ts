/**
 * Benchmark of the exact causal op: median wall time of forward and of forward+backward for
 * batch 64 at length 8, 12 and 16, on one thread (`causalBoltzmann`, `threads: 1`) and on all
 * cores (`causalBoltzmann` with the calling thread plus workers, and `causalBoltzmannAsync`
 * with workers only). The `js` row runs the JavaScript split kernels on one thread, the others
 * the WebAssembly SIMD kernels (the default), so their ratio is measured in one run. Run with `pnpm nx run ising-core:bench` (from the workspace root).
 * Times are wall-clock medians; "ns/config" divides by the configurations enumerated
 * (`Σ_q 2^{n_q}`, query i of a sequence has i + 1 spins); "cpu ms" is the process CPU time
 * (all threads), which a busy, shared machine inflates less than wall time.
 * Options: `--lengths 8,12,16 --batch 64 --repeats 9` (lengths ≤ 12 run 3× the repeats).
 */
import { availableParallelism, cpus } from 'node:os';
import {
  causalBoltzmann,
  causalBoltzmannAsync,
  createRng,
  disposeExactWorkers,
} from '../src/index.js';
import { useWasmKernels } from '../src/internal/kernels/wasmKernels.js';
import { median, option } from './benchArgs.js';
import { parseScriptArgs } from '../../../tools/scriptArgs.js';

parseScriptArgs(
  'exactCausalAttention.bench.ts [--batch VALUE] [--lengths VALUE] [--repeats VALUE]',
  { batch: 'string', lengths: 'string', repeats: 'string' },
);

const lengths = option('lengths', '8,12,16').split(',').map(Number);
const batch = Number(option('batch', '64'));
const repeats = Number(option('repeats', '9'));
const threads = availableParallelism();

interface Row {
  length: number;
  mode: string;
  forward: number;
  total: number;
  /** Median CPU time of forward+backward summed over all threads of the process. */
  cpu: number;
  configurations: number;
}

type Mode = 'sync' | 'async';

type Kernels = 'js' | 'wasm';

async function measure(
  length: number,
  mode: Mode,
  threadCount: number,
  kernels: Kernels,
): Promise<Row> {
  // Only this thread's kernels switch; worker threads always use wasm (hence js rows are 1-thread).
  if (useWasmKernels(kernels === 'wasm') !== (kernels === 'wasm'))
    throw new Error('this engine cannot run the wasm kernels');
  const rng = createRng(length);
  const fields = Float32Array.from({ length: batch * length * length }, () => rng.normal());
  const couplings = Float32Array.from({ length: length * length }, () => 0.3 * rng.normal());
  const upstream = Float32Array.from({ length: batch * length * length }, () => rng.normal());
  const shape = { batch, length };
  const forwardTimes: number[] = [];
  const totalTimes: number[] = [];
  const cpuTimes: number[] = [];
  // Short lengths take well under a millisecond: give them more warm-up (JIT) and repeats.
  const warmup = length <= 12 ? 10 : 3;
  const count = length <= 12 ? repeats * 3 : repeats;
  for (let r = 0; r < count + warmup; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let t1: number;
    if (mode === 'async') {
      const out = await causalBoltzmannAsync(fields, couplings, shape, { threads: threadCount });
      t1 = performance.now();
      await out.backward(upstream);
    } else {
      const out = causalBoltzmann(fields, couplings, shape, { threads: threadCount });
      t1 = performance.now();
      out.backward(upstream);
    }
    const t2 = performance.now();
    const used = process.cpuUsage(c0);
    if (r >= warmup) {
      forwardTimes.push(t1 - t0);
      totalTimes.push(t2 - t0);
      cpuTimes.push((used.user + used.system) / 1000);
    }
  }
  // Each query i enumerates 2^(i+1) configurations.
  const configurations = batch * (2 ** (length + 1) - 2);
  return {
    length,
    mode: `${kernels} ${threadCount} thr ${mode}`,
    forward: median(forwardTimes),
    total: median(totalTimes),
    cpu: median(cpuTimes),
    configurations,
  };
}

console.log(
  `causalBoltzmann bench: batch ${batch}, lengths ${lengths.join(', ')}, ${repeats} timed repeats (median), ${cpus()[0]?.model ?? 'cpu'} × ${threads}`,
);
console.log(
  'length  mode               forward ms  fwd+bwd ms  fwd ns/config  fwd+bwd ns/config  fwd+bwd cpu ms',
);
for (const length of lengths) {
  const modes: [Mode, number, Kernels][] = [
    ['sync', 1, 'js'],
    ['sync', 1, 'wasm'],
    ['sync', threads, 'wasm'],
    ['async', threads, 'wasm'],
  ];
  for (const [mode, threadCount, kernels] of modes) {
    const r = await measure(length, mode, threadCount, kernels);
    const ns = (ms: number) => ((ms * 1e6) / r.configurations).toFixed(2).padStart(13);
    console.log(
      `${String(r.length).padStart(6)}  ${r.mode.padEnd(17)}  ${r.forward.toFixed(2).padStart(10)}  ${r.total.toFixed(2).padStart(10)}  ${ns(r.forward)}  ${ns(r.total).padStart(17)}  ${r.cpu.toFixed(2).padStart(14)}`,
    );
  }
}
await disposeExactWorkers();
