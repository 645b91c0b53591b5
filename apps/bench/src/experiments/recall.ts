// `bench recall`: multi-query associative recall (MQAR; Zoology, Arora et al. 2023) in a 2-layer
// GPT, accuracy at the queries; the attention variants are its columns, and its axes are the
// sequence length T and the number of key–value pairs (`--kv-pairs`).
import { BenchError } from '../benchError.js';
import type { GridSpec, PresetName, RecallGrid } from '../benchCommand.js';
import { intItem, parseInteger, parseList, parsePositive } from '../parseValues.js';
import type { RunConfig } from '../types.js';
import { ACCURACY } from './datasetRules.js';
import { recallOf } from './recallSettings.js';
import { variantFlags } from './taskFlags.js';
import type { ExperimentModule, MutableGrid, ReadFlag } from './types.js';

/**
 * What every preset shares: Zoology's small models (2 layers, d_model 64, one head, blocks of
 * attention only: its figure 2 sets the state mixer to Identity, `--ffn on` adds the MLP), no
 * biases, tied embeddings, AdamW with weight decay 0.1 and a cosine decay after a linear warm-up.
 * T = 64 is past the exact sampler's 24 spins, so boltzmann runs default to TAP, as `bench gpt`.
 */
const shared = {
  variants: ['softmax', 'sigmoid', 'boltzmann'],
  seeds: [0],
  dModels: [64],
  ffns: [false],
  ffnHidden: null,
  modes: ['balanced'],
  types: 1,
  batchSize: 64,
  lr: 1e-3,
  minLrFraction: 0.1,
  weightDecay: 0.1,
  clipNorm: 1,
  beta: 1,
  jInit: 0.02,
  evalWindows: 0,
  logEvery: 10,
  datasets: [],
  shots: [],
  sampler: 'tap',
  layers: 2,
  heads: 1,
} satisfies Partial<GridSpec>;

/**
 * - `small` (default): a quick grid, T = 32 and 64, 2, 4 and 8 pairs over 256 token ids,
 *   300 steps of batch 64 over 20,000 training sequences (one epoch), tested on 500.
 * - `paper`: Zoology's figure-2 data at d_model 64: vocabulary 8,192, T = 64, 128, 256, 4 … 64
 *   pairs (the cells with 4 · pairs ≤ T), 100,000 training and 3,000 test sequences, 3 seeds.
 *   The steps are ours (Zoology trains 64 epochs at batch 512 over a learning-rate sweep).
 */
const presets: Partial<Record<PresetName, GridSpec>> = {
  small: {
    ...shared,
    lengths: [32, 64],
    steps: 300,
    evalEvery: 100,
    checkpointEvery: 100,
    recall: {
      vocabSize: 256,
      kvPairs: [2, 4, 8],
      powerA: 0.01,
      trainExamples: 20_000,
      testExamples: 500,
      warmupSteps: 30,
    },
  },
  paper: {
    ...shared,
    lengths: [64, 128, 256],
    seeds: [0, 1, 2],
    steps: 5000,
    evalEvery: 250,
    checkpointEvery: 250,
    recall: {
      vocabSize: 8192,
      kvPairs: [4, 8, 16, 32, 64],
      powerA: 0.01,
      trainExamples: 100_000,
      testExamples: 3000,
      warmupSteps: 250,
    },
  },
};

/** The MQAR flags: overrides of the preset's task. */
function applyRecallFlags(read: ReadFlag, grid: MutableGrid): void {
  const r: { -readonly [K in keyof RecallGrid]: RecallGrid[K] } = { ...grid.recall! };
  const flag = (key: string, apply: (raw: string) => void): void => {
    const raw = read(key);
    if (raw !== undefined) apply(raw);
  };
  flag('kvPairs', (raw) => {
    r.kvPairs = parseList('--kv-pairs', raw, intItem(1, 1 << 16), 'integers ≥ 1');
  });
  flag('vocabSize', (raw) => {
    r.vocabSize = parseInteger('--vocab-size', raw, 4, 1 << 24);
  });
  flag('powerA', (raw) => {
    r.powerA = parsePositive('--power-a', raw);
  });
  flag('trainExamples', (raw) => {
    r.trainExamples = parseInteger('--train-examples', raw, 1, 10_000_000);
  });
  flag('testExamples', (raw) => {
    r.testExamples = parseInteger('--test-examples', raw, 1, 1_000_000);
  });
  flag('warmupSteps', (raw) => {
    r.warmupSteps = parseInteger('--warmup-steps', raw, 0);
  });
  grid.recall = r;
}

/** The pairs of the grid that fit a sequence of length T (`4 · pairs ≤ T`, Zoology's rule). */
export function pairsAt(grid: GridSpec, length: number): number[] {
  return (grid.recall?.kvPairs ?? []).filter((n) => 4 * n <= length);
}

/**
 * The warm-up ends before the last step and every number of pairs fits some length (the rest of
 * an MQAR task's rules, even T and enough key ids, are the datasets package's: {@link checkRecallData}).
 */
function checkRecallGrid(grid: GridSpec): void {
  const r = grid.recall!;
  if (r.warmupSteps >= grid.steps)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--warmup-steps ${r.warmupSteps} must be below --steps ${grid.steps}`,
    );
  const longest = Math.max(...grid.lengths);
  const unfit = r.kvPairs.find((n) => 4 * n > longest);
  if (unfit !== undefined)
    throw new BenchError(
      'BENCH_INVALID_OPTION',
      `--kv-pairs ${unfit} fits no length: MQAR needs 4 · pairs ≤ T, and the longest --lengths is ${longest}`,
    );
}

/**
 * Every cell is an MQAR task (`checkMqarSpec`: even T, enough key ids) and its training set is not
 * above `MAX_MQAR_TOKENS`, checked before any run (also in `--dry-run`).
 *
 * @throws DATASET_INVALID_ARGUMENT naming the offending value.
 */
async function checkRecallData(configs: readonly RunConfig[]): Promise<void> {
  const { DatasetError, MAX_MQAR_TOKENS, checkMqarSpec } = await import('@boltzmann/datasets');
  for (const c of configs) {
    const r = recallOf(c);
    checkMqarSpec({ ...r, length: c.length, numKvPairs: r.kvPairs });
    if (r.trainExamples * c.length > MAX_MQAR_TOKENS)
      throw new DatasetError(
        'DATASET_INVALID_ARGUMENT',
        `--train-examples ${r.trainExamples} × T ${c.length} is above ${MAX_MQAR_TOKENS.toLocaleString('en-US')} tokens`,
      );
  }
}

/**
 * `bench recall`: its presets, its flags (`--kv-pairs`, `--vocab-size`, `--power-a`,
 * `--train-examples`, `--test-examples`, `--warmup-steps`), its cells (one per number of pairs that
 * fits each length) and its report (accuracy against pairs, one panel per length).
 */
export const RECALL: ExperimentModule = {
  name: 'recall',
  presets,
  addFlags: (cmd) =>
    variantFlags
      .add(cmd, presets.small)
      .option(
        '--kv-pairs <list>',
        'key-value pairs per sequence, e.g. 4,8,16 (an axis; lengths with 4·pairs > T leave that cell out)',
      )
      .option('--vocab-size <n>', 'token ids: keys the lower half, values the upper')
      .option('--power-a <a>', "power of the query gaps, p(g) ∝ g^(a-1) (Zoology's power_a)")
      .option('--train-examples <n>', 'training sequences, gone through in shuffled epochs')
      .option('--test-examples <n>', 'held-out test sequences, the same for every run')
      .option('--warmup-steps <n>', 'linear learning-rate warm-up steps before the cosine decay'),
  applyFlags: (read, grid) => {
    variantFlags.apply(read, grid);
    applyRecallFlags(read, grid);
    return {};
  },
  checkGrid: checkRecallGrid,
  cells: (grid, length) =>
    pairsAt(grid, length).map((kvPairs) => {
      const { kvPairs: _, ...task } = grid.recall!;
      return { recall: { ...task, kvPairs } };
    }),
  datasets: () => ['mqar'],
  metric: () => ACCURACY,
  checkData: (_command, configs) => checkRecallData(configs),
  runName: (config) => ({
    id: `recall-P${config.recall?.kvPairs ?? 0}`,
    label: `recall pairs=${config.recall?.kvPairs ?? 0}`,
  }),
  trainerOptions: (config) => ({ warmupSteps: recallOf(config).warmupSteps }),
  modelOptions: () => ({ bias: false, tieEmbeddings: true, dropout: 0 }),
  report: async () => (await import('./recallReport.js')).RECALL_REPORT,
};
