// The engine's backends in scripts/benchPeers.ts (issue 40): every engine row is measured once
// per backend in each round, side by side with the same peer figure. Pure (no I/O), so a test
// checks the flag, the names and the goals without a benchmark run.
import type { PeerRow } from './peerTable.js';

/** A backend the engine rows run on. */
export type PeerBackend = 'native' | 'wasm';

/** What the engine reports about the backend it runs (its `engine.backend`). */
export interface BackendProbe {
  readonly name: PeerBackend;
  readonly isa: string;
  readonly reason?: string;
}

/**
 * The backends of `--backends` (comma-separated `native`, `wasm`; each once), or by default
 * native and wasm where `auto` picks native, else wasm alone with one line saying why. Throws
 * on any other name, on an empty list, and on `native` where the addon does not run.
 */
export function peerBackends(
  arg: string | undefined,
  auto: BackendProbe,
): { backends: PeerBackend[]; line: string } {
  const native = auto.name === 'native';
  if (arg === undefined) {
    const line = native
      ? `engine backends: native ${auto.isa} and wasm, side by side`
      : `engine backends: wasm only (native: ${auto.reason ?? 'the addon does not run here'})`;
    return { backends: native ? ['native', 'wasm'] : ['wasm'], line };
  }
  const asked = arg.split(',').filter((x) => x !== '');
  for (const name of asked)
    if (name !== 'native' && name !== 'wasm')
      throw new Error(`--backends: native and/or wasm, comma-separated; got ${name}`);
  const backends = [...new Set(asked)] as PeerBackend[];
  if (backends.length === 0) throw new Error('--backends: name at least one of native, wasm');
  if (backends.includes('native') && !native)
    throw new Error(`--backends native: ${auto.reason ?? 'the native addon does not run here'}`);
  const named = backends.map((b) => (b === 'native' ? `native ${auto.isa}` : b));
  return { backends, line: `engine backends: ${named.join(' and ')}` };
}

/**
 * The "here" column of an engine row: `engine native avx512, 1 thread`, `engine wasm, 2 threads`
 * (the ISA as the engine reported it; wasm's is always f32x4).
 */
export function engineHereName(backend: string, isa: string | undefined, threads: number): string {
  const on = `${threads} thread${threads === 1 ? '' : 's'}`;
  return backend === 'native' ? `engine native ${isa ?? '?'}, ${on}` : `engine ${backend}, ${on}`;
}

/** A row's goal on `backend`: the native goal on native; on wasm none, marked the fallback. */
export function backendGoal(
  backend: PeerBackend,
  goal: number,
): Pick<PeerRow, 'goal' | 'goalNote'> {
  return backend === 'native' ? { goal } : { goalNote: 'wasm (fallback)' };
}

/**
 * Issue 40's goals on the native backend (the least ratio, here's speed over the peer's):
 * the paper model on one core against the twin, softmax and boltzmann (exact); on all cores
 * against the twin at its best thread count; GPT baby softmax per iteration on all cores
 * against nanoGPT at its best; 200 iterations as whole processes against nanoGPT's.
 */
export const NATIVE_GOALS = {
  paperSoftmax: 1.3,
  paperBoltzmann: 2,
  paperAllCores: 2,
  babySoftmax: 1.3,
  wholeProcess: 1,
} as const;
