// `bench gpt` (METHOD.md §7): a nanoGPT-shaped model on char-level Tiny Shakespeare in nanoGPT's
// protocol, its train and val loss in nats per character; softmax, sigmoid and boltzmann columns.
import { BenchError } from '../benchError.js';
import { MAX_LENGTH } from '../benchCommand.js';
import type { GridSpec } from '../benchCommand.js';
import { parseInteger } from '../parseValues.js';
import type { GptSettings } from '../types.js';
import { PERPLEXITY, checkCorpus } from './datasetRules.js';
import { dataFlag, variantFlags } from './taskFlags.js';
import type { ExperimentModule, MutableGrid, ReadFlag } from './types.js';

/**
 * `bench gpt` presets (METHOD.md §7): char-level Tiny Shakespeare in nanoGPT's protocol.
 *
 * - `baby`: the nanoGPT README's CPU configuration of `shakespeare_char` — 4 layers, 4 heads,
 *   d_model 128, block 64, batch 12, dropout 0, no biases, tied embeddings; AdamW β1 0.9, β2 0.99,
 *   weight decay 0.1 on matrices only, lr 1e-3 with 100 warm-up steps and cosine decay to 1e-4,
 *   clip 1.0, 2,000 iterations, evaluation every 250 over 20 random batches of each split.
 * - `small` (default): the same shape, scaled to a quick run (README: measured time).
 */
const protocol: GptSettings = {
  bias: false,
  tieEmbeddings: true,
  dropout: 0,
  warmupSteps: 100,
  beta2: 0.99,
  evalBatches: 20,
};

const shared = {
  variants: ['softmax', 'sigmoid', 'boltzmann'],
  seeds: [0],
  ffns: [true],
  ffnHidden: null,
  modes: ['balanced'],
  types: 1,
  lengths: [64],
  batchSize: 12,
  lr: 1e-3,
  minLrFraction: 0.1,
  weightDecay: 0.1,
  clipNorm: 1,
  beta: 1,
  jInit: 0.02,
  evalWindows: 0,
  logEvery: 10,
  datasets: ['shakespeare'],
  shots: [],
  // T = 64 is past the exact sampler's 24 spins: boltzmann runs default to TAP.
  sampler: 'tap',
  positions: 64,
} satisfies Partial<GridSpec>;

/** The gpt grid of a preset (`small`, `baby` or `long`). */
const presets = {
  baby: {
    ...shared,
    dModels: [128],
    layers: 4,
    heads: 4,
    steps: 2000,
    evalEvery: 250,
    checkpointEvery: 250,
    gpt: protocol,
  },
  // The long-context experiment (issue 13): the baby model at T = 16, 64 and 256 on 768 tokens
  // per step (batch 48 at T = 16, 3 at 256), 500 iterations: four layers of four heads make
  // every Ising sampler 16 times as costly as in the paper's model (bench --dry-run).
  long: {
    ...shared,
    dModels: [128],
    layers: 4,
    heads: 4,
    lengths: [16, 64, 256],
    positions: 256,
    seeds: [0, 1, 2],
    tokensPerBatch: 768,
    steps: 500,
    evalEvery: 125,
    checkpointEvery: 125,
    gpt: { ...protocol, warmupSteps: 50 },
  },
  small: {
    ...shared,
    dModels: [64],
    layers: 2,
    heads: 4,
    steps: 300,
    evalEvery: 100,
    checkpointEvery: 100,
    gpt: { ...protocol, warmupSteps: 30, evalBatches: 10 },
  },
} satisfies Record<'baby' | 'long' | 'small', GridSpec>;

/** ising-core's samplers that take a `threads` option and default to more than one thread. */
const THREADED_SAMPLERS = new Set(['tap', 'mean-field', 'transfer-matrix']);

/**
 * A threaded sampler runs single-threaded unless `threads` is given. This was needed when a
 * threaded worker kept the VJP state of only its last 4 estimates (a gpt step makes one per layer
 * and head, 16 in `baby`); ising-core now keeps 64 (`KEPT_ESTIMATES`), so it is no longer needed
 * for correctness. It stays because `threads: 1` is part of the sampler options hashed into every
 * committed gpt run id: dropping it would orphan those results. Pass `threads` in
 * --sampler-options to choose otherwise.
 */
function gptSamplerOptions(
  name: string,
  options: Record<string, unknown>,
): Record<string, unknown> {
  return THREADED_SAMPLERS.has(name) && !('threads' in options)
    ? { ...options, threads: 1 }
    : options;
}

/** `--warmup-steps` and `--eval-batches`: overrides of the preset's nanoGPT protocol. */
function applyGptFlags(read: ReadFlag, grid: MutableGrid): void {
  const warmup = read('warmupSteps');
  const batches = read('evalBatches');
  grid.gpt = {
    ...grid.gpt!,
    ...(warmup ? { warmupSteps: parseInteger('--warmup-steps', warmup, 0) } : {}),
    ...(batches ? { evalBatches: parseInteger('--eval-batches', batches, 1) } : {}),
  };
}

/** The warm-up ends before the last step; no length is past the positional table. */
function checkGptGrid(grid: GridSpec): void {
  const gpt = grid.gpt!;
  if (gpt.warmupSteps >= grid.steps)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--warmup-steps ${gpt.warmupSteps} must be below --steps ${grid.steps}`,
    );
  const positions = grid.positions ?? MAX_LENGTH;
  const tooLong = grid.lengths.find((T) => T > positions);
  if (tooLong !== undefined)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--lengths ${tooLong} is above the ${positions}-entry positional table of the gpt preset (block ${positions})`,
    );
}

/**
 * `bench gpt`: its presets, its flags (`--warmup-steps`, `--eval-batches`; no `--eval-windows`:
 * an evaluation is its random batches), and the nanoGPT protocol every run carries (`config.gpt`)
 * turned into model and trainer settings; its report leads with the loss table and curves.
 */
export const GPT: ExperimentModule = {
  name: 'gpt',
  presets,
  addFlags: (cmd) =>
    dataFlag
      .add(variantFlags.add(cmd, presets.small))
      .option('--warmup-steps <n>', 'linear learning-rate warm-up steps before the cosine decay')
      .option(
        '--eval-batches <n>',
        'random batches of each split (train, val) averaged per evaluation',
      ),
  applyFlags: (read, grid) => {
    variantFlags.apply(read, grid);
    applyGptFlags(read, grid);
    return { dataPath: dataFlag.read(read) };
  },
  checkGrid: checkGptGrid,
  datasets: () => ['shakespeare'],
  metric: () => PERPLEXITY,
  checkData: checkCorpus,
  runName: (config) => ({
    id: `gpt-L${config.layers ?? 1}`,
    label: `gpt L${config.layers ?? 1}`,
  }),
  // The rows of one evaluation (its random batches of each split), and the protocol itself.
  runFields: (grid, batchSize) => ({
    evalWindows: 2 * grid.gpt!.evalBatches * batchSize,
    gpt: grid.gpt!,
  }),
  samplerOptions: gptSamplerOptions,
  trainerOptions: (config) =>
    config.gpt ? { warmupSteps: config.gpt.warmupSteps, beta2: config.gpt.beta2 } : {},
  modelOptions: (config) =>
    config.gpt
      ? {
          bias: config.gpt.bias,
          tieEmbeddings: config.gpt.tieEmbeddings,
          dropout: config.gpt.dropout,
        }
      : {},
  report: async () => (await import('./gptReport.js')).GPT_REPORT,
};
