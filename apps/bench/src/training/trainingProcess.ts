import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * V8's young generation, in MiB per semi-space, for training processes. A Boltzmann attention
 * step allocates tens of MB of short-lived typed arrays (the fields, estimates and gradients of
 * every head); with V8's default semi-space the scavenges cost about 50 ms of a 4-layer GPT step.
 * Measured with `packages/attention/scripts/benchTraining.ts --model baby` (transfer-matrix float32,
 * 2 threads), same window: 592 → 542 ms per step; softmax unchanged (≈ 297 ms).
 */
export const SEMI_SPACE_MB = 64;

/**
 * The Node flags of a bench training process (the local pool's `pool/poolProcess.ts`, a queue worker's
 * sandboxed processor): tsx for the TypeScript sources, the source condition, and the
 * young-generation size.
 */
export function trainingExecArgv(): string[] {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  return [
    '--import',
    tsx,
    '--conditions=@boltzmann/source',
    `--max-semi-space-size=${SEMI_SPACE_MB}`,
  ];
}
