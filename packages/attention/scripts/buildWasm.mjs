// Compiles the engine's WebAssembly kernels (their text written by scripts/gemmWat.mjs) with
// the workspace's wabt helper (tools/wasmSource.mjs) and writes each module's bytes, base64, to
// src/engine/kernels/<name>Wasm.generated.ts. Usage: `pnpm --filter @boltzmann/attention build:wasm`;
// `--check` exits 1 when a generated file is out of date (a test runs the same comparison).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileWat, generatedSource } from '../../../tools/wasmSource.mjs';
import { elementwiseWat } from './elementwiseWat.mjs';
import { gemmWat } from './gemmWat.mjs';
import { layerNormWat } from './layerNormWat.mjs';

const dir = fileURLToPath(new URL('../src/engine/kernels/', import.meta.url));
const check = process.argv.includes('--check');
const HEADER = {
  script: 'packages/attention/scripts/buildWasm.mjs',
  edit: 'scripts/gemmWat.mjs',
  command: 'pnpm --filter @boltzmann/attention build:wasm',
};
const modules = [
  { name: 'gemm', text: gemmWat() },
  { name: 'elementwise', text: elementwiseWat() },
  { name: 'layerNorm', text: layerNormWat() },
];

let stale = 0;
for (const { name, text } of modules) {
  const target = `${dir}${name}Wasm.generated.ts`;
  const header = { ...HEADER, edit: `scripts/${name}Wat.mjs` };
  const source = generatedSource(`${name}.wat`, await compileWat(`${name}.wat`, text), header);
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current === source) console.log(`${name}: up to date`);
  else if (check) {
    console.error(`${name}Wasm.generated.ts is out of date; run ${HEADER.command}`);
    stale++;
  } else {
    writeFileSync(target, source);
    console.log(`${name}: wrote ${name}Wasm.generated.ts`);
  }
}
process.exit(stale > 0 ? 1 : 0);
