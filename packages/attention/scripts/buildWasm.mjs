// Compiles the engine's WebAssembly kernels (their text written by the scripts/*Wat.mjs listed in
// scripts/wasmModules.mjs) and writes each module's bytes, base64, to
// src/engine/kernels/<name>Wasm.generated.ts. Usage: `pnpm --filter @boltzmann/attention build:wasm`;
// `--check` exits 1 when a generated file is out of date (a test runs the same comparison).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUILD_COMMAND, WASM_MODULES, generatedModule } from './wasmModules.mjs';

const dir = fileURLToPath(new URL('../src/engine/kernels/', import.meta.url));
const check = process.argv.includes('--check');

let stale = 0;
for (const module of WASM_MODULES) {
  const { name } = module;
  const target = `${dir}${name}Wasm.generated.ts`;
  const source = await generatedModule(module);
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current === source) console.log(`${name}: up to date`);
  else if (check) {
    console.error(`${name}Wasm.generated.ts is out of date; run ${BUILD_COMMAND}`);
    stale++;
  } else {
    writeFileSync(target, source);
    console.log(`${name}: wrote ${name}Wasm.generated.ts`);
  }
}
process.exit(stale > 0 ? 1 : 0);
