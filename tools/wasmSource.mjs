// The workspace's one WebAssembly build helper: WAT text to bytes (wabt), bytes to a TypeScript
// module that embeds them as base64. Used by ising-core's and attention's scripts/buildWasm.mjs
// and by the tests that keep each package's generated modules in step with their source.
// wabt is a devDependency of @boltzmann/ising-core; the helper loads that copy rather than
// install a second one.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../packages/ising-core/package.json', import.meta.url));
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
