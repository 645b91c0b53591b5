// The checks of a trainer's `lrScale` that the tfjs trainer's and the engine trainer's tests share:
// it scales `lrAt` and the rate a step uses, travels in `state()` and back through `restore`, and
// refuses bad values with a code.
import { codeOf } from '@boltzmann/ising-core/testing';
import { expect } from 'vitest';
import type { TokenBatch, Trainer } from '../index.js';

/**
 * Runs the checks on two fresh trainers of the same model and options from `make`.
 *
 * @param batch one batch the model takes.
 */
export async function checkLrScale(make: () => Trainer, batch: TokenBatch): Promise<void> {
  const trainer = make();
  const [base0, base] = [trainer.lrAt(0), trainer.lrAt(3)];
  expect(trainer.lrScale).toBe(1);
  expect(trainer.state()).not.toHaveProperty('lrScale');
  trainer.lrScale = 0.1;
  expect(trainer.lrAt(3)).toBeCloseTo(0.1 * base, 18);
  const first = await trainer.step(batch);
  expect(first.lr).toBeCloseTo(0.1 * base0, 18);
  for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
    expect(codeOf(() => (trainer.lrScale = bad))).toBe('ATTENTION_INVALID_ARGUMENT');
  expect(trainer.lrScale).toBe(0.1);

  const saved = trainer.state();
  expect(saved.lrScale).toBe(0.1);
  const resumed = make();
  resumed.restore(saved);
  expect([resumed.lrScale, resumed.stepCount]).toEqual([0.1, 1]);
  // A corrupt scale is refused before anything is restored.
  const fresh = make();
  expect(codeOf(() => fresh.restore({ ...saved, lrScale: -2 }))).toBe(
    'ATTENTION_INVALID_CHECKPOINT',
  );
  expect([fresh.lrScale, fresh.stepCount]).toEqual([1, 0]);
  // A state from before the scale existed restores it to 1.
  const { lrScale: _dropped, ...older } = saved;
  resumed.restore(older);
  expect(resumed.lrScale).toBe(1);
  for (const t of [trainer, resumed, fresh]) t.dispose();
}
