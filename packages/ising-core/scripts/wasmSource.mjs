// Shared by buildWasm.mjs, the test that keeps the generated modules in step with their .wat, and
// @boltzmann/attention's scripts/buildWasm.mjs (its engine kernels), which passes its own header.
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

/**
 * The TypeScript module that embeds `bytes` as base64; `header` names the script that wrote it,
 * what to edit and the command that regenerates it (ising-core's by default).
 */
export function generatedSource(file, bytes, header = {}) {
  const {
    script = 'scripts/buildWasm.mjs',
    edit = 'the .wat',
    command = 'pnpm --filter @boltzmann/ising-core build:wasm',
  } = header;
  const base64 = Buffer.from(bytes).toString('base64');
  const lines = base64.match(/.{1,100}/g) ?? [];
  return [
    `// Generated from ${file} by ${script}. Do not edit; edit ${edit} and rerun`,
    `// \`${command}\`.`,
    `export const wasmBase64 =`,
    ...lines.map((l, i) => `  '${l}'${i === lines.length - 1 ? ';' : ' +'}`),
    '',
  ].join('\n');
}
