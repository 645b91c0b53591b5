/**
 * The converged verdict of issue 41 (point 3; its report goes to docs/results/long-context-converged): the paper's
 * model on Tiny Shakespeare at T = 64, 128 and 256, softmax, sigmoid and exact Boltzmann
 * attention on issue 13's banded J (the transfer matrix, banded:8), each run trained until its
 * validation perplexity stops improving (early stopping, recorded in its run record), on the
 * engine, with checkpoints; then the same on MQAR (`bench recall`, part `recall`, below).
 * `bench long-context --converged` runs these slices.
 *
 * Why these settings, read off issue 13's curves (docs/results/long-context) and slice 1 of a
 * first, cosine protocol (docs/results/long-context-converged/pilot-cosine-20k):
 * - **A constant rate, decayed 10× on a plateau, twice; the stop at the third plateau.** The
 *   pilot used a cosine over a 20,000-step cap with early stopping. There a run that stopped
 *   early stopped mid-schedule at a high rate (boltzmann at T = 64 stopped at 10,000 at 55 % of
 *   the peak rate, 4 % behind softmax, which got its decay), and every T = 256 run reached the cap
 *   still improving, since the cosine's end is where a run improves most. Neither is "trained
 *   until validation stops improving". Here each run trains at 3e-3 (`--min-lr-fraction 1`) until
 *   8 evaluations pass without a 0.1 % gain, then at 3e-4, then at 3e-5, and stops at the next
 *   plateau (`--early-stop-lr-decays 2`): every run ends annealed, at a step its own curve picks.
 * - **Cap 40,000 steps**, a safeguard the ETA counts in full (so its figure is an upper bound).
 *   The pilot's runs reached their best by 8,000–20,000 steps under the cosine.
 * - **An evaluation every 250 steps** (256 windows, as issue 13): ≈ 8 % of the training work at
 *   T = 256 by the ETA model.
 * - **Patience 8 evaluations (2,000 steps), min delta 0.1 %.** The pilot's evaluations scatter by
 *   ±0.3–0.5 % around their trend late in training at a high rate (T = 256, steps 17,750–20,000),
 *   so a single evaluation decides nothing; 2,000 steps without a 0.1 % gain on the best is a
 *   plateau at that rate. Early on a long context learns slowly before it drops (sigmoid at
 *   T = 256 went 11.96 → 11.65 → 11.52 over issue 13's steps 500–1,500, ≥ 0.5 % per 250 steps),
 *   which a 0.1 % threshold lets through.
 * - **Slices by seed.** Each slice is one seed of every cell (3 lengths × 3 variants, 9 runs), so
 *   each finished slice is a complete replicate and more seeds are more slices. The transfer
 *   matrix at T = 256 runs beside the other eight on the second worker.
 *
 * The MQAR part (`recall`, {@link recallSlices}) has its own settings, reasons at its slices.
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

/** A step cap with the converged runs' evaluations and early stopping (reasons above). */
const convergedTraining = (steps: number) =>
  [
    '--steps',
    String(steps),
    '--eval-every',
    '250',
    '--early-stop-patience',
    '8',
    '--early-stop-min-delta',
    '0.001',
  ] as const;

/**
 * Every Shakespeare run's schedule, cap, evaluations and early stopping: a constant rate decayed
 * 10× at each of two plateaus, the stop at the third (reasons above).
 */
export const CONVERGED_TRAINING = [
  ...convergedTraining(40000),
  '--min-lr-fraction',
  '1',
  '--early-stop-lr-decays',
  '2',
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

/**
 * MQAR (`bench recall`, Zoology's multi-query associative recall) in the `paper` preset's model
 * and data (2 layers, d_model 64, one head, attention only; 100,000 training and 3,000 test
 * sequences, warm-up 250, batch 64, lr 1e-3) at Zoology's small figure's lengths and pairs:
 * T = 64, 128, 256 × 4, 8, 16, 32 pairs where 4 · pairs ≤ T (11 cells), the same three variants
 * and banded transfer matrix as the Shakespeare part.
 * - **Vocabulary 256** (the `small` preset's), not Zoology's 8,192: the tied output layer scores
 *   every position over the whole vocabulary, so at 8,192 it is most of a step (softmax at
 *   T = 256: 1.17 s a step against 0.31 s at 256, measured, one thread, loaded machine), and the
 *   task stays recall: values are 128 ids (chance 1/128), keys 128 ids, ≥ 4× the most pairs.
 * - **Cap 5,000 steps** (the `paper` preset's; 3.2 epochs), also the cosine's length. A softmax
 *   run at T = 64, 4 pairs, capped at 4,000 went 0.24 (step 250) → 0.54 (1,000) → 0.77 (3,000)
 *   and jumped to 0.98 by 4,000 (its induction step at ≈ 3,300): easy cells solve within the cap
 *   (a run that does stops 2,000 steps after its last gain, or at the cap); harder ones may not,
 *   which their curves show, and a run at its cap says so (`stoppedAtStep` null).
 *   Over 600 steps (its own cosine) sigmoid and the transfer matrix climbed as softmax did, from
 *   chance (0.007) to 0.26 there, so all three learn the task in this model.
 *   A larger cap is more of the dominant cost, the transfer matrix at T = 256 (≈ 2 s a step).
 * - **Evaluations every 250 steps, patience 8 (2,000 steps), min delta 0.1 %** on test accuracy,
 *   as the Shakespeare part: that run's climb before its jump gained ≥ 0.26 % every 250 steps
 *   (0.6736 → 0.6753 its smallest), so 0.1 % lets a slow climb through, and 2,000 steps is more
 *   than twice its longest slow stretch (0.24 → 0.27 over steps 250–750, before 0.54 at 1,000);
 *   a solved run (accuracy ≈ 1, no 0.1 % left to gain) stops 2,000 steps on.
 * - **Slices by seed, then by length and variant**, eight a seed, so that each is at most ~2 h by
 *   the dry run where one can be: T = 64 whole; T = 128 softmax and sigmoid; T = 256 softmax and
 *   sigmoid by halves of the pairs; the transfer matrix at 128 and at 256, two runs (pairs 4, 8
 *   and 16, 32) a slice, one per worker. By the dry run (which costs the float32 transfer
 *   matrix at the engine kernels' rate since 5c100f5) those slices take 1h08m at T = 128 and
 *   4h18m at 256, one run each per worker, so a T = 256 slice is longer than 2 h by itself: it
 *   spans sessions through its checkpoints (measured on a loaded machine: 2.0 s a step at
 *   T = 256, ≈ 3 h to the caps). Sigmoid at T = 256 was measured at 1.6 s a step before the
 *   engine's fused sigmoid kernels (04f94d8, ≈ 2× faster on the paper model at T = 256).
 */
const RECALL_MODEL = ['recall', '--preset', 'paper', '--vocab-size', '256'] as const;

/** The MQAR step cap, evaluation interval and early stopping (reasons above). */
export const RECALL_TRAINING = convergedTraining(5000);

/** One seed's MQAR slices: which lengths, pairs and variants each trains (reasons above). */
const RECALL_GROUPS: readonly (readonly [lengths: string, pairs: string, variants: string])[] = [
  ['64', '4,8,16', 'softmax,sigmoid,boltzmann'],
  ['128', '4,8,16,32', 'softmax,sigmoid'],
  ['256', '4,8', 'softmax,sigmoid'],
  ['256', '16,32', 'softmax,sigmoid'],
  ['128', '4,8', 'boltzmann'],
  ['128', '16,32', 'boltzmann'],
  ['256', '4,8', 'boltzmann'],
  ['256', '16,32', 'boltzmann'],
];

/** The MQAR slices of one seed, in the order of {@link RECALL_GROUPS}. */
function recallSlices(seed: number): LongContextSlice[] {
  return RECALL_GROUPS.map(([lengths, pairs, variants]) => ({
    part: 'recall',
    folder: 'recall',
    argv: [
      ...RECALL_MODEL,
      '--lengths',
      lengths,
      '--kv-pairs',
      pairs,
      '--variants',
      variants,
      ...BANDED_FLOAT32,
      '--seeds',
      String(seed),
      ...RECALL_TRAINING,
    ],
  }));
}

/** Issue 41's converged experiment (`bench long-context --converged`). */
export const CONVERGED_SET: LongContextSliceSet = {
  parts: ['shakespeare', 'recall'],
  slices: [...SEEDS.map(shakespeareSlice), ...SEEDS.flatMap(recallSlices)],
  defaultRoot: 'results/long-context-converged',
  etaNote: 'an upper bound: each run counted to its step cap, which early stopping may cut short',
};
