// What a grid's runs train with, on screen: the header names each sampler with its options and
// the variants that use it, and the engine asked for; each run's start line names its sampler and
// the engine it got (issue 43: a `--sampler dqa` run must not look like an exact one).
import { samplerText } from '../samplerText.js';
import type { EngineChoice, RunConfig } from '../types.js';

export { samplerText } from '../samplerText.js';

/**
 * The header line: each sampler (with its options) and the variants on it, then the engine asked
 * for, e.g. `samplers: boltzmann on transfer-matrix {"threads":1}; softmax, sigmoid on no sampler;
 * fused engine (--engine wasm), backend auto, 1 thread a run`: the backend each run got (native or
 * WebAssembly) is on its start line.
 */
export function whatRunsLine(configs: readonly RunConfig[], engine?: EngineChoice): string {
  const bySampler = new Map<string, Set<string>>();
  for (const c of configs) {
    const key = samplerText(c);
    bySampler.set(key, (bySampler.get(key) ?? new Set()).add(c.column));
  }
  const samplers = [...bySampler].map(([s, columns]) => `${[...columns].join(', ')} on ${s}`);
  const e = engine
    ? `; ${engine.name === 'wasm' ? `fused engine (--engine wasm), backend ${engine.backend ?? 'auto'}` : `engine ${engine.name}`}, ${engine.threads} thread${engine.threads === 1 ? '' : 's'} a run`
    : '';
  return `samplers: ${samplers.join('; ')}${e}`;
}

/** A run's start-line detail: its sampler and, once known, the engine it trains on. */
export function runDetail(c: RunConfig, engineLine?: string): string {
  const engine = engineLine?.replace(/^engine: /, '');
  return `${samplerText(c)}${engine ? ` · ${engine}` : ''}`;
}
