// Shared by buildWasm.mjs and the test that keeps the generated modules in step with their .wat.
import wabtInit from 'wabt';

/** Compiles WebAssembly text to binary (SIMD and bulk memory are on in wabt by default). */
export async function compileWat(file, text) {
  const wabt = await wabtInit();
  const module = wabt.parseWat(file, text);
  try {
    module.validate();
    return module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
}

/** The TypeScript module that embeds `bytes` as base64. */
export function generatedSource(file, bytes) {
  const base64 = Buffer.from(bytes).toString('base64');
  const lines = base64.match(/.{1,100}/g) ?? [];
  return [
    `// Generated from ${file} by scripts/buildWasm.mjs. Do not edit; edit the .wat and rerun`,
    '// `pnpm --filter @boltzmann/ising-core build:wasm`.',
    `export const wasmBase64 =`,
    ...lines.map((l, i) => `  '${l}'${i === lines.length - 1 ? ';' : ' +'}`),
    '',
  ].join('\n');
}
