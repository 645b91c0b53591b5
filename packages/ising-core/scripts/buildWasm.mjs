// Compiles src/internal/kernels/wasm/*.wat with wabt and writes each module's bytes, base64, to
// `<name>Wasm.generated.ts` beside it (so the package needs no .wasm asset or loader at run time).
// Usage: `pnpm --filter @boltzmann/ising-core build:wasm`; `--check` exits 1 when a generated file
// is out of date (a test runs the same comparison).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileWat, generatedSource } from './wasmSource.mjs';

const dir = fileURLToPath(new URL('../src/internal/kernels/wasm/', import.meta.url));
const check = process.argv.includes('--check');
let stale = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.wat'))) {
  const name = file.slice(0, -'.wat'.length);
  const target = `${dir}${name}Wasm.generated.ts`;
  const source = generatedSource(
    file,
    await compileWat(file, readFileSync(`${dir}${file}`, 'utf8')),
  );
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current === source) {
    console.log(`${file}: up to date`);
  } else if (check) {
    console.error(
      `${file}: ${name}Wasm.generated.ts is out of date; run pnpm --filter @boltzmann/ising-core build:wasm`,
    );
    stale++;
  } else {
    writeFileSync(target, source);
    console.log(`${file}: wrote ${name}Wasm.generated.ts`);
  }
}
process.exit(stale > 0 ? 1 : 0);
