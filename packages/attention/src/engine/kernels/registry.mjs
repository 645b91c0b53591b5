// The engine's WebAssembly kernels, one home folder per op (gemm/, elementwise/, layerNorm/,
// softmax/, crossEntropy/, adamW/, transfer/), each holding its WAT writer (<op>Wat.mjs), the .wat text the
// writer produces and the modules compiled from it (<name>Wasm.generated.ts, and
// <name>SharedWasm.generated.ts on a shared memory), all committed. Walked by
// tools/wasm/buildWasm.mjs (`pnpm --filter @boltzmann/attention build:wasm`) and by
// kernelModules.test.ts, which fails when a committed file is out of date.
import { adamWWat } from './adamW/adamWWat.mjs';
import { crossEntropyWat } from './crossEntropy/crossEntropyWat.mjs';
import { elementwiseWat } from './elementwise/elementwiseWat.mjs';
import { gemmWat } from './gemm/gemmWat.mjs';
import { layerNormWat } from './layerNorm/layerNormWat.mjs';
import { softmaxWat } from './softmax/softmaxWat.mjs';
import { transferWat } from './transfer/transferWat.mjs';

export const COMMAND = 'pnpm --filter @boltzmann/attention build:wasm';

/** The folder the op folders are in. */
export const HOME = new URL('./', import.meta.url);

/**
 * Each kernel module: `op` its folder, `name` its .wat and modules, `writer` the file in the folder
 * whose `text()` writes it, `features` wabt's, and `shared` for a second module on a shared memory
 * (the engine's threads share one `WebAssembly.Memory({ shared: true })`).
 */
export const KERNELS = [
  { op: 'gemm', name: 'gemm', writer: 'gemmWat.mjs', text: gemmWat },
  {
    op: 'gemm',
    name: 'gemmFma',
    writer: 'gemmWat.mjs',
    text: () => gemmWat({ fma: true }),
    features: { relaxed_simd: true },
  },
  { op: 'elementwise', name: 'elementwise', writer: 'elementwiseWat.mjs', text: elementwiseWat },
  { op: 'layerNorm', name: 'layerNorm', writer: 'layerNormWat.mjs', text: layerNormWat },
  { op: 'softmax', name: 'softmax', writer: 'softmaxWat.mjs', text: softmaxWat },
  {
    op: 'crossEntropy',
    name: 'crossEntropy',
    writer: 'crossEntropyWat.mjs',
    text: crossEntropyWat,
  },
  { op: 'adamW', name: 'adamW', writer: 'adamWWat.mjs', text: adamWWat },
  { op: 'transfer', name: 'transfer', writer: 'transferWat.mjs', text: transferWat },
].map((k) => ({ ...k, shared: true }));
