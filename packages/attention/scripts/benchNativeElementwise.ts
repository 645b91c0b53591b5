/**
 * The engine's element-wise kernels, native (elementwise.c, every ISA the CPU runs) against wasm
 * (elementwise.wat) on the same arena, at the models' shapes: the FFN's bias + GELU at the paper
 * model's 768 × 256 and GPT baby's 768 × 512 (12 × 64 tokens), a 768 × 1024 matrix, and the
 * residual over 768 × 1024 floats. One core, best of 5 timings of ≥ 40 ms each
 * (bench/wasmPeak.ts's `time`); each row prints the time per call, the memory traffic per second
 * (the floats the kernel reads and writes) and the speed-up over wasm.
 *
 *   cd packages/attention && npx tsx --conditions=@boltzmann/source scripts/benchNativeElementwise.ts
 */
import { time } from '../bench/wasmPeak.js';
import { createArena, instantiateEngineModule } from '../src/engine/arena.js';
import { wasmBase64 as shared } from '../src/engine/kernels/elementwise/elementwiseSharedWasm.generated.js';
import { wasmBase64 as plain } from '../src/engine/kernels/elementwise/elementwiseWasm.generated.js';
import { loadNativeAddon, type NativeKernels } from '../src/engine/native/nativeAddon.js';

/** One timed call: the export's name, its arguments (byte offsets), and the floats it moves. */
interface Row {
  readonly name: string;
  readonly args: readonly number[];
  readonly floats: number;
}

const MAX = 768 * 1024;
/** Float offsets of six MAX-float matrices (x, y, Φ, dy, dx, the mask) and two bias rows. */
const [X, Y, C, DY, DX, M] = [0, MAX, 2 * MAX, 3 * MAX, 4 * MAX, 5 * MAX] as const;
const B = 6 * MAX;
const DB = B + 1024;

function rows(): Row[] {
  const out: Row[] = [];
  for (const [r, c] of [
    [768, 256],
    [768, 512],
    [768, 1024],
  ] as const) {
    const n = r * c;
    const at = `${r} × ${c}`;
    out.push(
      { name: `bias_gelu ${at}`, args: [4 * X, 4 * B, 4 * Y, 0, r, c], floats: 2 * n },
      { name: `bias_gelu_save ${at}`, args: [4 * X, 4 * B, 4 * Y, 4 * C, r, c], floats: 3 * n },
      {
        name: `bias_gelu_backward ${at}`,
        args: [4 * X, 4 * B, 0, 4 * DY, 4 * DX, 4 * DB, r, c],
        floats: 3 * n,
      },
      {
        name: `bias_gelu_backward_saved ${at}`,
        args: [4 * X, 4 * B, 4 * C, 4 * DY, 4 * DX, 4 * DB, r, c],
        floats: 4 * n,
      },
    );
  }
  out.push(
    { name: `residual ${MAX}`, args: [4 * X, 4 * Y, 0, 4 * DX, MAX, 0], floats: 3 * MAX },
    {
      name: `residual masked ${MAX}`,
      args: [4 * X, 4 * Y, 4 * M, 4 * DX, MAX, 1],
      floats: 4 * MAX,
    },
  );
  return out;
}

function main(): void {
  const load = loadNativeAddon();
  if (load.addon === undefined) throw new Error(`no native addon: ${load.reason}`);
  const memory = createArena(DB + 2048);
  const view = new Float32Array(memory.buffer);
  for (let i = 0; i < view.length; i++) view[i] = Math.sin(i * 0.7318) * 3;
  for (let i = 0; i < MAX; i++) view[M + i] = i % 10 === 0 ? 0 : 1.1;
  const wasm = instantiateEngineModule({ plain, shared }, memory, 'element-wise') as NativeKernels;
  const isas = load.addon.isas();
  const natives = isas.map((isa) => load.addon.bind(new Uint8Array(memory.buffer), isa));
  const head = ['kernel'.padEnd(34), 'wasm'.padStart(22), ...isas.map((i) => i.padStart(28))];
  console.log(head.join(''));
  for (const row of rows()) {
    const seconds = (k: NativeKernels) => time(() => k[row.name.split(' ')[0]!]!(...row.args));
    const base = seconds(wasm);
    const cell = (s: number) =>
      `${(s * 1e3).toFixed(3)} ms ${((4 * row.floats) / s / 1e9).toFixed(1)} GB/s`;
    const cells = natives.map((k) => {
      const s = seconds(k);
      return `${cell(s)} ${(base / s).toFixed(1)}×`.padStart(28);
    });
    console.log([row.name.padEnd(34), cell(base).padStart(22), ...cells].join(''));
  }
}

main();
