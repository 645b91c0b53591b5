import type { GridSpec } from '../grid/types.js';
import type { GptSettings } from '../types.js';

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

/** The gpt grid of a preset (`small` or `baby`). */
export const GPT_PRESETS = {
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
