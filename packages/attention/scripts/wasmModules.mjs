// The engine's generated WebAssembly modules: each one's WAT writer, the wabt features it needs,
// and the TypeScript source it compiles to (src/engine/kernels/<name>Wasm.generated.ts). Read by
// scripts/buildWasm.mjs, which writes them, and by the test that keeps them in step.
import { compileWat, generatedSource } from '../../../tools/wasmSource.mjs';
import { adamWWat } from './adamWWat.mjs';
import { elementwiseWat } from './elementwiseWat.mjs';
import { gemmWat } from './gemmWat.mjs';
import { layerNormWat } from './layerNormWat.mjs';
import { lossWat } from './lossWat.mjs';
import { softmaxWat } from './softmaxWat.mjs';

/** name: the module; text: its WAT; features: wabt's; edit: the writer script's stem. */
const PLAIN_MODULES = [
  { name: 'gemm', text: gemmWat },
  {
    name: 'gemmFma',
    text: () => gemmWat({ fma: true }),
    features: { relaxed_simd: true },
    edit: 'gemm',
  },
  { name: 'elementwise', text: elementwiseWat },
  { name: 'layerNorm', text: layerNormWat },
  { name: 'softmax', text: softmaxWat },
  { name: 'loss', text: lossWat },
  { name: 'adamW', text: adamWWat },
];

/**
 * The import every module declares, and its shared-memory form: the engine's threads share one
 * `WebAssembly.Memory({ shared: true, maximum: 65536 })`, which only modules importing a shared
 * memory can use.
 */
const MEMORY = '(import "env" "memory" (memory 1))';
const SHARED_MEMORY = '(import "env" "memory" (memory 1 65536 shared))';

/** Each module twice: on a plain memory, and on a shared one (`<name>Shared`). */
export const WASM_MODULES = PLAIN_MODULES.flatMap((m) => [
  m,
  {
    name: `${m.name}Shared`,
    text: () => {
      const text = m.text();
      if (!text.includes(MEMORY)) throw new Error(`${m.name}: no ${MEMORY}`);
      return text.replace(MEMORY, SHARED_MEMORY);
    },
    features: { ...m.features, threads: true },
    edit: m.edit ?? m.name,
  },
]);

export const BUILD_COMMAND = 'pnpm --filter @boltzmann/attention build:wasm';

/** The generated TypeScript source of one module. */
export async function generatedModule({ name, text, features, edit = name }) {
  const header = {
    script: 'packages/attention/scripts/buildWasm.mjs',
    edit: `scripts/${edit}Wat.mjs`,
    command: BUILD_COMMAND,
  };
  return generatedSource(`${name}.wat`, await compileWat(`${name}.wat`, text(), features), header);
}
