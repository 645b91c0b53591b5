/**
 * Each run names the engine it trains on as it starts (`engine: native avx512 (16 lanes), 1 thread`,
 * or `engine: wasm f32x4, 1 thread (native addon: …)`): the grid prints each distinct line once,
 * so a grid on one machine shows one line, and runs that differ (a worker without the addon) show
 * theirs.
 */
import type { ProgressDisplay } from './types.js';

const seen = new WeakMap<ProgressDisplay, Set<string>>();

/** Logs `line` on `progress` unless this display has printed it already. */
export function logEngineLine(progress: ProgressDisplay, line: string | undefined): void {
  if (line === undefined) return;
  const lines = seen.get(progress) ?? new Set<string>();
  seen.set(progress, lines);
  if (lines.has(line)) return;
  lines.add(line);
  progress.log(line);
}
