// The timing loop of the engine's speed scripts (scripts/benchEngine.ts, scripts/benchScaling.ts):
// a warm-up that reaches the steady state, then steps timed one by one.
import type { TokenBatch, Trainer } from '../src/index.js';

/** Least wall time of warm-up steps before the measured ones. */
export const WARM_UP_MS = 1500;

/**
 * Warm-up: the first shapes, the workers' start, and every thread's JIT and wasm tiers. Three
 * steps are not enough on two threads: there the first ~50 paper steps run 20–40 % slower than
 * the steady state a training run spends its time in (6.1–6.4 ms a step measured over steps 4–43,
 * 4.7–5.0 over steps 4–303). So: at least 3 steps and `ms` of wall time, each on a fresh batch
 * (1.5 s on one batch overfits it: loss 4.2 → 0.05).
 */
export async function warmUp(
  trainer: Pick<Trainer, 'step'>,
  fresh: () => TokenBatch,
  ms = WARM_UP_MS,
): Promise<void> {
  const start = performance.now();
  for (let s = 0; s < 3 || performance.now() - start < ms; s++) await trainer.step(fresh());
}

/** The wall time (ms) of each step on `batch`: at least `count` steps and `minMs` of wall time. */
export async function stepTimes(
  trainer: Pick<Trainer, 'step'>,
  batch: TokenBatch,
  count: number,
  minMs = 0,
): Promise<number[]> {
  const wall: number[] = [];
  const start = performance.now();
  while (wall.length < count || performance.now() - start < minMs) {
    const t0 = performance.now();
    await trainer.step(batch);
    wall.push(performance.now() - t0);
  }
  return wall;
}
