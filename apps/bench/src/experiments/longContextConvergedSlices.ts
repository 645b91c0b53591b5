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
export const BANDED_FLOAT32 = [
  '--sampler',
  'transfer-matrix',
  '--couplings',
  'banded:8',
  '--sampler-options',
  '{"threads":1,"precision":"float32"}',
] as const;

/**
 * The plateau protocol (reasons above): a constant rate decayed 10× at each of two plateaus (no
 * 0.1 % gain on the best over `patience` evaluations, one every 250 steps), the stop at the third,
 * within a cap of `steps`.
 */
const plateauTraining = (steps: number, patience: number): readonly string[] => [
  '--steps',
  String(steps),
  '--eval-every',
  '250',
  '--early-stop-patience',
  String(patience),
  '--early-stop-min-delta',
  '0.001',
  '--min-lr-fraction',
  '1',
  '--early-stop-lr-decays',
  '2',
];

/** Every Shakespeare run's schedule, cap, evaluations and early stopping (reasons above). */
export const CONVERGED_TRAINING = plateauTraining(40000, 8);

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
 * sequences, warm-up 250, batch 64, lr 1e-3) at Zoology's small figure's pairs: T = 64 and 128 ×
 * 4, 8, 16, 32 pairs where 4 · pairs ≤ T (7 cells), the same three variants and banded transfer
 * matrix as the Shakespeare part.
 * - **T = 64 and 128 only.** T = 256 (4 more cells) is left out: its transfer-matrix runs cost
 *   ≈ 2 s a step (measured on a loaded machine, one thread; the dry run's 4h18m for two runs to a
 *   5,000-step cap), so its 12 boltzmann runs to this protocol's cap would take ≈ 80 worker-hours
 *   (≈ 40 h of the 2-core machine), more than the sessions leave for this issue; it waited for
 *   the transfer kernel at its roofline (issue 41, point 1), which is not in sight, so from 7 Dec
 *   2026 it runs as its own grid outside these slices (`bench recall --lengths 256 --kv-pairs
 *   4,8,16,32,64`, the converged README's "What runs").
 * - **Vocabulary 256** (the `small` preset's), not Zoology's 8,192: the tied output layer scores
 *   every position over the whole vocabulary, so at 8,192 it is most of a step (softmax at
 *   T = 256: 1.17 s a step against 0.31 s at 256, measured, one thread, loaded machine), and the
 *   task stays recall: values are 128 ids (chance 1/128), keys 128 ids, ≥ 4× the most pairs.
 * - **The Shakespeare part's protocol**: a constant rate (1e-3 after the warm-up) decayed 10× at
 *   each of two plateaus, the stop at the third, with an evaluation every 250 steps and min delta
 *   0.1 % on test accuracy. A cosine over a cap (the first plan here) would end runs at
 *   different rates, as the Shakespeare pilot showed.
 * - **Patience 4 evaluations (1,000 steps)**, not 8: a solved run (accuracy ≈ 1, no 0.1 % left
 *   to gain) pays three plateaus after it solves, 3,000 steps at patience 4 against 6,000 at 8.
 *   A softmax run at T = 64, 4 pairs (cosine, cap 4,000) climbed ≥ 0.26 % every 250 steps
 *   before its jump (0.6736 → 0.6753 its smallest) and its longest slow stretch was 500 steps
 *   (0.24 → 0.27 over steps 250–750): 1,000 steps without a 0.1 % gain is past both.
 * - **Cap 40,000 steps** (the Shakespeare part's), a safeguard the ETA counts in full. The first
 *   cap, 12,000 (7.7 epochs, room for a run 2× slower to solve than that softmax run, whose
 *   induction step came at ≈ 3,300), cut seed 0's T = 128, 4-pair softmax and sigmoid runs while
 *   they still gained (slice 5, 7 Dec 2026), and a run cut by its cap is not trained until it
 *   stops improving. The rate is constant, so no run depends on its cap (grid/capFamily.ts):
 *   every run that early stopping ended below 12,000 is also this cap's run, and a run in
 *   training or kept at 12,000 continues from its checkpoint; only runs whose checkpoints were
 *   gone before caps were kept (seed 0's three at the cap) train again from step 0. A run at its
 *   cap says so (`stoppedAtStep` null).
 * - **Slices by seed, then by length and variant**, four a seed: T = 64 whole; T = 128 softmax
 *   and sigmoid; the transfer matrix at 128 in two slices of two runs (pairs 4, 8 and 16, 32),
 *   one run per worker.
 */
const RECALL_MODEL = ['recall', '--preset', 'paper', '--vocab-size', '256'] as const;

/** The MQAR schedule, step cap, evaluations and early stopping (reasons above). */
export const RECALL_TRAINING = plateauTraining(40000, 4);

/** One seed's MQAR slices: which lengths, pairs and variants each trains (reasons above). */
const RECALL_GROUPS: readonly (readonly [lengths: string, pairs: string, variants: string])[] = [
  ['64', '4,8,16', 'softmax,sigmoid,boltzmann'],
  ['128', '4,8,16,32', 'softmax,sigmoid'],
  ['128', '4,8', 'boltzmann'],
  ['128', '16,32', 'boltzmann'],
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
