// ising-core's WebAssembly kernels, one home folder per op (gemm/, matvec/, split/, transfer/),
// each holding the hand-written .wat and the module compiled from it (<name>Wasm.generated.ts);
// transfer/ also holds transferFloat32.mjs, which writes transfer32.wat (the float32 kernel) from
// transfer.wat, and its module. Walked by tools/wasm/buildWasm.mjs
// (`pnpm --filter @boltzmann/ising-core build:wasm`) and by kernelModules.test.ts, which fails when a
// committed file is out of date.
import { readFileSync } from 'node:fs';
import { transferFloat32 } from './transfer/transferFloat32.mjs';

export const COMMAND = 'pnpm --filter @boltzmann/ising-core build:wasm';

/** The folder the op folders are in. */
export const HOME = new URL('./', import.meta.url);

/**
 * Each kernel module: `op` its folder, `name` its .wat and module; a kernel without `writer` is
 * the hand-written `<op>/<name>.wat`, one with it is written by `text()` of that file.
 */
export const KERNELS = [
  { op: 'gemm', name: 'gemm' },
  { op: 'matvec', name: 'matvec' },
  { op: 'split', name: 'split' },
  { op: 'transfer', name: 'transfer' },
  {
    op: 'transfer',
    name: 'transfer32',
    writer: 'transferFloat32.mjs',
    text: () => transferFloat32(readFileSync(new URL('transfer/transfer.wat', HOME), 'utf8')),
  },
];
