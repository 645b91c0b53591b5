/**
 * The long-context experiment of issue 13 (docs/results/long-context) as a list of bench
 * invocations ("slices"). Each slice is an ordinary grid on one results folder: slices of one
 * folder share their softmax and sigmoid runs (a finished run is never trained twice), every
 * slice resumes from its checkpoints, and `bench report` over the folder gives the summary.
 */

/** One part of the experiment. */
export interface LongContextSlice {
  /** Which part it belongs to (the `--only` filter of the driver): one of its set's `parts`. */
  readonly part: string;
  /** Results folder, relative to the experiment's root. */
  readonly folder: string;
  /** The bench arguments, without `--results`. */
  readonly argv: readonly string[];
}

/**
 * A list of slices `bench long-context` runs in order: issue 13's experiment
 * ({@link LONG_CONTEXT_SET}), or the converged one of issue 41 (`--converged`,
 * longContextConvergedSlices.ts). A new part (a new task's grids) is new slices with a new
 * part name, listed in `parts`.
 */
export interface LongContextSliceSet {
  /** The parts `--only` takes, in the order they run. */
  readonly parts: readonly string[];
  readonly slices: readonly LongContextSlice[];
  /** The results root without `--root`, relative to the repository. */
  readonly defaultRoot: string;
  /** What the dry run's total adds to "rough, ±50 %" (e.g. that early stopping ends runs sooner). */
  readonly etaNote?: string;
}

/** Samplers on one thread: two grid workers already use both cores. */
const ONE_THREAD = ['--sampler-options', '{"threads":1}'];
/** Exact Boltzmann attention on a banded J (w = 8) through the transfer matrix, on one thread. */
export const BANDED_TRANSFER_MATRIX = [
  '--sampler',
  'transfer-matrix',
  '--couplings',
  'banded:8',
  ...ONE_THREAD,
] as const;
const TM = BANDED_TRANSFER_MATRIX;
const TAP = ['--variants', 'boltzmann', '--sampler', 'tap', ...ONE_THREAD];
const EXACT_16 = [
  '--variants',
  'boltzmann',
  '--sampler',
  'exact',
  '--lengths',
  '16',
  ...ONE_THREAD,
];

/** The paper's model with tap on a J parameterization other than the full one, at some lengths. */
const paperTap = (couplings: string, lengths: string): readonly string[] => [
  'shakespeare',
  '--preset',
  'long',
  ...TAP,
  '--couplings',
  couplings,
  '--lengths',
  lengths,
];

/** The slices, in the order the driver runs them. */
export const LONG_CONTEXT_SLICES: readonly LongContextSlice[] = [
  // The paper's model (1 layer, 1 head, d_model 64), T = 16 … 256.
  { part: 'paper', folder: 'shakespeare', argv: ['shakespeare', '--preset', 'long', ...TM] },
  { part: 'paper', folder: 'shakespeare', argv: ['shakespeare', '--preset', 'long', ...TAP] },
  // Relative J (one value per distance) on tap up to T = 64: at 128 and 256 it would cost as much as full-J tap again.
  {
    part: 'paper',
    folder: 'shakespeare',
    argv: paperTap('relative', '16,32,64'),
  },
  { part: 'paper', folder: 'shakespeare', argv: ['shakespeare', '--preset', 'long', ...EXACT_16] },
  // Bracket matching where softmax does not saturate (3 types, prefix, d_model 16), FFN on and off.
  { part: 'brackets', folder: 'brackets', argv: ['brackets', '--preset', 'long', ...TM] },
  { part: 'brackets', folder: 'brackets', argv: ['brackets', '--preset', 'long', ...TAP] },
  { part: 'brackets', folder: 'brackets', argv: ['brackets', '--preset', 'long', ...EXACT_16] },
  // Extrapolation: trained at T = 64 without positional embedding, evaluated at 128 and 256.
  {
    part: 'extrapolation',
    folder: 'extrapolation',
    argv: [
      'shakespeare',
      '--preset',
      'long',
      '--lengths',
      '64',
      '--positions',
      'none',
      '--variants',
      'softmax,boltzmann',
      '--sampler',
      'tap',
      '--couplings',
      'relative',
      ...ONE_THREAD,
      '--save-models',
    ],
  },
  // The 4-layer, 4-head baby GPT at T = 16, 64, 256 (tap only up to 64: at 256 one run would take ~1.5 h).
  {
    part: 'gpt',
    folder: 'gpt',
    argv: ['gpt', '--preset', 'long', '--sampler', 'transfer-matrix', '--couplings', 'banded:8'],
  },
  {
    part: 'gpt',
    folder: 'gpt',
    argv: [
      'gpt',
      '--preset',
      'long',
      '--variants',
      'boltzmann',
      '--sampler',
      'tap',
      '--lengths',
      '16,64',
    ],
  },
  // The GPT's exact anchor at T = 16 and relative J (one value per distance, per layer and head)
  // on tap at T = 16 and 64, as in the paper model (added after slice 10).
  { part: 'gpt', folder: 'gpt', argv: ['gpt', '--preset', 'long', ...EXACT_16] },
  {
    part: 'gpt',
    folder: 'gpt',
    argv: ['gpt', '--preset', 'long', ...TAP, '--couplings', 'relative', '--lengths', '16,64'],
  },
  // The paper's model at T = 256 trained 3× longer: softmax's curve is still falling steeply at
  // step 1,500, so this separates how fast each learns from where it ends (added after slice 1).
  {
    part: 'longer',
    folder: 'shakespeare-longer',
    argv: [
      'shakespeare',
      '--preset',
      'long',
      '--variants',
      'softmax,boltzmann',
      ...TM,
      '--lengths',
      '256',
      '--steps',
      '4500',
    ],
  },
  // Tap on the transfer matrix's banded J (added after slices 1–4): in the paper model the banded
  // J gains on softmax and tap's full J loses, and this separates the sampler from the J form.
  // Not T = 256: 23 min per run, and T = 128 already tells (tap full J +48 %, banded −4 %).
  {
    part: 'sampler',
    folder: 'shakespeare',
    argv: paperTap('banded:8', '64,128'),
  },
];

/** Lengths at which the extrapolation models are evaluated. */
export const EXTRAPOLATION_LENGTHS = [64, 128, 256] as const;

/** Issue 13's experiment, as `bench long-context` runs it by default. */
export const LONG_CONTEXT_SET: LongContextSliceSet = {
  parts: ['paper', 'brackets', 'extrapolation', 'gpt', 'longer', 'sampler'],
  slices: LONG_CONTEXT_SLICES,
  defaultRoot: 'results/long-context',
};
