// WAT text to bytes (wabt), and bytes to a TypeScript module that embeds them as base64: the two
// steps of buildWasm.mjs beside it (which the tests that keep each package's generated modules in
// step with their source also run), and the compiler of the benchmarks' peak kernels.
// wabt is a devDependency of @boltzmann/ising-core; the helper loads that copy rather than
// install a second one.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../packages/ising-core/package.json', import.meta.url));
const wabtInit = require('wabt');

/**
 * Compiles WebAssembly text to binary (SIMD and bulk memory are on in wabt by default; `features`
 * turns on others, e.g. `{ relaxed_simd: true }`).
 */
export async function compileWat(file, text, features = {}) {
  const wabt = await wabtInit();
  const module = wabt.parseWat(file, text, features);
  try {
    // wabt.js's validator rejects every shared memory, the threads feature on or not; a shared
    // variant is validated by the JavaScript engine that compiles it (the engine's tests do).
    if (features.threads !== true) module.validate();
    return module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
}

/**
 * The TypeScript module that embeds `bytes` (compiled from `file`) as base64; `header` names the
 * script that wrote it, the file to edit and the command that regenerates it.
 */
export function generatedSource(file, bytes, { script, edit, command }) {
  const base64 = Buffer.from(bytes).toString('base64');
  const lines = base64.match(/.{1,100}/g) ?? [];
  return [
    `// Generated from ${file} by ${script}. Do not edit:`,
    `// edit ${edit} and rerun \`${command}\`.`,
    `export const wasmBase64 =`,
    ...lines.map((l, i) => `  '${l}'${i === lines.length - 1 ? ';' : ' +'}`),
    '',
  ].join('\n');
}
