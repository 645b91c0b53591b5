/**
 * The converged verdict of issue 41 (point 3; its report goes to docs/results/long-context-converged): the paper's
 * model on Tiny Shakespeare at T = 64, 128 and 256, softmax, sigmoid and exact Boltzmann
 * attention on issue 13's banded J (the transfer matrix, banded:8), each run trained until its
 * validation perplexity stops improving (early stopping, recorded in its run record), on the
 * engine, with checkpoints. `bench long-context --converged` runs these slices.
 *
 * Why these settings, read off issue 13's curves (docs/results/long-context):
 * - **Cap 20,000 steps.** At 4,500 steps (the `longer` slice, T = 256) both curves were still
 *   falling by 0.1–2 % every 500 steps. 20,000 steps is 4.4× that and about 20 passes over the
 *   training split (1,024 tokens a step, ≈ 1.0 M training characters); it is also the largest cap
 *   whose slices the dry run puts at about 2 h each. `--steps` is the cosine schedule's length
 *   too, so the learning rate still decays to 10 % at the cap; a run that stops early stops at
 *   its step's rate.
 * - **An evaluation every 250 steps** (256 windows, as issue 13): ≈ 8 % of the training work at
 *   T = 256 by the ETA model, and four times the resolution of issue 13's 500.
 * - **Patience 8 evaluations (2,000 steps), min delta 0.1 %.** Early on, a long context learns
 *   slowly before it drops: sigmoid at T = 256 went 11.96 → 11.65 → 11.52 over steps 500–1,500
 *   and softmax 12.1 → 10.6 over 500–1,000, i.e. ≥ 0.5 % per 250 steps, which a 0.1 % threshold
 *   lets through. Late, single evaluations stall while the trend goes on: over 4,000 → 4,500 one
 *   softmax seed rose 0.1 % and one transfer-matrix seed fell only 0.13 % while the others fell
 *   1.2–2 %; 2,000 steps span four such 500-step stalls. And 0.1 % is 1/25 of the smallest paired
 *   gap issue 13 reported (2.6 %), so where a run stops cannot decide the verdict.
 * - **Slices by seed.** Each slice is one seed of every cell (3 lengths × 3 variants, 9 runs), so
 *   each finished slice is a complete replicate and more seeds are more slices. The transfer
 *   matrix at T = 256 (≈ 1.5 h to its cap) runs beside the other eight on the second worker.
 *
 * More parts (MQAR's `bench recall` grids) are more slices with their own part name and folder.
 */
import type { LongContextSlice, LongContextSliceSet } from './longContextSlices.js';

/**
 * Issue 13's banded J (w = 8) through the transfer matrix, in float32: on the native engine that
 * runs the engine's own transfer kernels (packages/attention/src/engine/transfer.ts, ≈ 4–6× the
 * speed of the sampler's float64 path; rows beyond the float32 range still go through it), which
 * is what makes 20,000-step caps affordable. Magnetizations agree with float64 to ~1e-6 relative
 * (transferNative.test.ts), below the engine's own float32 rounding of everything around them.
 */
const BANDED_FLOAT32 = [
  '--sampler',
  'transfer-matrix',
  '--couplings',
  'banded:8',
  '--sampler-options',
  '{"threads":1,"precision":"float32"}',
] as const;

/** The step cap, evaluation interval and early stopping of every converged run (reasons above). */
export const CONVERGED_TRAINING = [
  '--steps',
  '20000',
  '--eval-every',
  '250',
  '--early-stop-patience',
  '8',
  '--early-stop-min-delta',
  '0.001',
] as const;

/** The seeds, one slice each (issue 41: at least 3). */
const SEEDS = [0, 1, 2] as const;

/** The paper's model at T = 64, 128, 256, every variant, one seed. */
const shakespeareSlice = (seed: number): LongContextSlice => ({
  part: 'shakespeare',
  folder: 'shakespeare',
  argv: [
    'shakespeare',
    '--preset',
    'long',
    '--lengths',
    '64,128,256',
    '--variants',
    'softmax,sigmoid,boltzmann',
    ...BANDED_FLOAT32,
    '--seeds',
    String(seed),
    ...CONVERGED_TRAINING,
  ],
});

/** Issue 41's converged experiment (`bench long-context --converged`). */
export const CONVERGED_SET: LongContextSliceSet = {
  parts: ['shakespeare'],
  slices: SEEDS.map(shakespeareSlice),
  defaultRoot: 'results/long-context-converged',
  etaNote: 'an upper bound: each run counted to its step cap, which early stopping may cut short',
};
