// Compiles src/internal/kernels/wasm/*.wat with wabt and writes each module's bytes, base64, to
// `<name>Wasm.generated.ts` beside it (so the package needs no .wasm asset or loader at run time).
// Usage: `pnpm --filter @boltzmann/ising-core build:wasm`; `--check` exits 1 when a generated file
// is out of date (a test runs the same comparison).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transferFloat32 } from './transferFloat32.mjs';
import { compileWat, generatedSource } from './wasmSource.mjs';

const dir = fileURLToPath(new URL('../src/internal/kernels/wasm/', import.meta.url));
const check = process.argv.includes('--check');
let stale = 0;
/** Modules derived from another's text: the float32 transfer kernel from transfer.wat. */
const DERIVED = { 'transfer.wat': [{ name: 'transfer32', derive: transferFloat32 }] };

const modules = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.wat'))) {
  const text = readFileSync(`${dir}${file}`, 'utf8');
  modules.push({ label: file, name: file.slice(0, -'.wat'.length), text });
  for (const { name, derive } of DERIVED[file] ?? [])
    modules.push({
      label: `${file} (${name}, scripts/${derive.name}.mjs)`,
      name,
      text: derive(text),
    });
}
for (const { label, name, text } of modules) {
  const target = `${dir}${name}Wasm.generated.ts`;
  const source = generatedSource(label, await compileWat(`${name}.wat`, text));
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current === source) {
    console.log(`${label}: up to date`);
  } else if (check) {
    console.error(
      `${label}: ${name}Wasm.generated.ts is out of date; run pnpm --filter @boltzmann/ising-core build:wasm`,
    );
    stale++;
  } else {
    writeFileSync(target, source);
    console.log(`${label}: wrote ${name}Wasm.generated.ts`);
  }
}
process.exit(stale > 0 ? 1 : 0);
