import type { AttentionVariant, ConvergenceSummary } from '@boltzmann/ising-core';

/** The attention variants of the paper's four-way ablation (METHOD.md §1; defined in ising-core). */
export type Variant = AttentionVariant;

/** The dataset a run trains on. */
export type DatasetName = 'shakespeare' | 'brackets' | 'mqar';

/** The experiments (grid commands), in the order the CLI lists them; each has a module in experiments/. */
export const EXPERIMENT_NAMES = ['shakespeare', 'brackets', 'dqa', 'gpt', 'recall'] as const;

/** The experiment (CLI subcommand) a run belongs to. */
export type Experiment = (typeof EXPERIMENT_NAMES)[number];

/** Bracket string mode (METHOD.md §5). */
export type BracketMode = 'balanced' | 'prefix';

/**
 * The nanoGPT-protocol settings of a `bench gpt` run (METHOD.md §7). Only gpt runs carry them,
 * so the run ids of the other tasks are unchanged.
 */
export interface GptSettings {
  /** Biases in Linear and LayerNorm layers. */
  readonly bias: boolean;
  /** LM head tied to the token embedding. */
  readonly tieEmbeddings: boolean;
  readonly dropout: number;
  /** Linear warm-up steps before the cosine decay. */
  readonly warmupSteps: number;
  /** AdamW β2. */
  readonly beta2: number;
  /** Random batches of each split (train: first 90 %, val: last 10 %) averaged per evaluation. */
  readonly evalBatches: number;
}

/**
 * The task of a `bench recall` run: multi-query associative recall (`mqarTrainingTask` of
 * `@boltzmann/datasets`, Zoology's MQAR). Only recall runs carry it, so other run ids are unchanged.
 */
export interface RecallSettings {
  /** Token ids (keys the lower half, values the upper). */
  readonly vocabSize: number;
  /** Key–value pairs per sequence, each queried once (the grid axis beside T). */
  readonly kvPairs: number;
  /** Power of the query gaps (Zoology's `power_a`). */
  readonly powerA: number;
  /** Sequences of the training set (gone through in shuffled epochs) and of the test set. */
  readonly trainExamples: number;
  readonly testExamples: number;
  /** Linear learning-rate warm-up steps before the cosine decay. */
  readonly warmupSteps: number;
}

/** Optimizer, temperature and evaluation settings shared by a grid spec and each of its runs. */
export interface TrainingSettings {
  readonly batchSize: number;
  readonly lr: number;
  readonly minLrFraction: number;
  readonly weightDecay: number;
  readonly clipNorm: number;
  readonly beta: number;
  /** Std of the N(0, σ²) initial J (0 = zeros). */
  readonly jInit: number;
  readonly evalEvery: number;
  /** Shakespeare: number of fixed validation windows. */
  readonly evalWindows: number;
  /**
   * Early stopping (`--early-stop-patience`, `--early-stop-min-delta`); absent when off, so the
   * ids of runs without it stay what they were. `steps` stays the cap and the cosine horizon.
   */
  readonly earlyStop?: EarlyStopSettings;
}

/**
 * When a run stops before its step cap: after `patience` evaluations in a row that do not improve
 * the best validation metric by more than `minDelta` of it (relative: perplexity below
 * best × (1 − minDelta), accuracy above best × (1 + minDelta)).
 */
export interface EarlyStopSettings {
  readonly patience: number;
  readonly minDelta: number;
  /**
   * Learning-rate decays on a plateau (`--early-stop-lr-decays`): the first `lrDecays` times the
   * patience runs out, the run multiplies its rate by `lrDecayFactor` and goes on with its
   * patience counted afresh (its best kept); the next time it stops. Both absent when off, so the
   * ids of runs without them stay what they were.
   */
  readonly lrDecays?: number;
  readonly lrDecayFactor?: number;
}

/**
 * What a run with early stopping records (`RunRecord.earlyStop`). Its `finalMetric` and
 * `finalLoss` are those of the best evaluation (`bestStep`), whatever came after; its couplings,
 * attention map and saved model are the last step's.
 */
export interface EarlyStopRecord extends EarlyStopSettings {
  /** The step it stopped at, or null when it trained to its step cap without stopping. */
  readonly stoppedAtStep: number | null;
  /** The step of the best evaluation and its metric (= the record's `finalMetric`). */
  readonly bestStep: number;
  readonly bestValue: number;
  /** With `lrDecays`: the evaluation steps at which the rate was decayed, in order. */
  readonly lrDecaySteps?: readonly number[];
}

/**
 * Everything that determines one training run's result. Its hash is the run id, so the
 * same config always maps to the same result and checkpoint files.
 */
export interface RunConfig extends TrainingSettings {
  readonly experiment: Experiment;
  readonly dataset: DatasetName;
  /** Column of the summary table this run belongs to (a variant, or a sampler label for `dqa`). */
  readonly column: string;
  readonly variant: Variant;
  readonly length: number;
  readonly seed: number;
  readonly dModel: number;
  readonly ffn: boolean;
  readonly ffnHidden: number;
  readonly heads: number;
  /** Transformer blocks; absent for one (so older run ids stay the same). */
  readonly layers?: number;
  readonly steps: number;
  /** Brackets only. */
  readonly mode: BracketMode;
  readonly types: number;
  readonly sampler: string;
  readonly samplerOptions: Readonly<Record<string, unknown>>;
  /** J parameterization (`relative`, `banded:w`); absent for `full`, so older run ids stay the same. */
  readonly couplingForm?: 'relative' | `banded:${number}`;
  /** `none`: no positional embedding (runs at longer T with `withMaxLength`); absent for learned positions, so older run ids stay the same. */
  readonly positions?: 'none';
  /** `bench gpt` only: the nanoGPT protocol's model, optimizer and evaluation settings. */
  readonly gpt?: GptSettings;
  /** `bench recall` only: its MQAR task (one point of the pairs axis). */
  readonly recall?: RecallSettings;
}

/** Settings that change how a run is executed but not its result (not hashed). */
export interface RunSettings {
  readonly checkpointEvery: number;
  readonly logEvery: number;
  /** Directory of the experiment's results (`runs/`, `checkpoints/` live below it). */
  readonly resultsDir: string;
  /** Paths of third-party plugin modules to register in the run's registry. */
  readonly plugins: readonly string[];
  /** Tiny Shakespeare file override (else the datasets package's lookup). */
  readonly dataPath?: string;
  /**
   * Credentials for the sampler (split off `--sampler-options`), merged into its options only
   * when it is created. They travel to worker processes over IPC and are never written.
   */
  readonly samplerSecrets?: Readonly<Record<string, unknown>>;
  /** Write the finished model (weights and config, no optimizer state) to `models/<id>.safetensors`. */
  readonly saveModels?: boolean;
  /** Also write TensorBoard event files to `tensorboard/<id>/` (`--tensorboard`; tracking/tensorboard/). */
  readonly tensorboard?: boolean;
  /** How long one sampler call may take, in ms (0 = no limit); absent: the attention package's default. */
  readonly samplerTimeoutMs?: number;
  /** What trains the runs (absent: {@link DEFAULT_ENGINE}, the wasm engine on one thread). */
  readonly engine?: EngineChoice;
  /** The grid's `--workers`, recorded in each run's `environment` (absent: not known, as on a queue worker). */
  readonly workers?: number;
}

/**
 * What trains a run: the attention package's fused WebAssembly engine (`createEngineTrainer`),
 * or its tfjs path (`createTrainer`). The same model, losses and checkpoints either way.
 */
export type TrainingEngine = 'wasm' | 'tfjs';

/**
 * The fused engine's kernels (`--engine-backend`): the native addon at the CPU's vector width,
 * WebAssembly (f32x4), or `auto` (native where the addon is built, else wasm).
 */
export type EngineBackendChoice = 'auto' | 'native' | 'wasm';

/**
 * The engine choice of a grid or run (`--engine`, `--engine-threads`, `--engine-backend`); never
 * part of a run's config or id.
 */
export interface EngineChoice {
  readonly name: TrainingEngine;
  /** Threads of each engine step (the tfjs path runs on its own backend's). */
  readonly threads: number;
  /** The fused engine's kernels (absent: `auto`). */
  readonly backend?: EngineBackendChoice;
}

/** What trains a run when nothing is chosen: the wasm engine on one thread. */
export const DEFAULT_ENGINE: EngineChoice = { name: 'wasm', threads: 1 };

/** Progress of a run, as reported to the parent process. */
export interface RunProgress {
  readonly id: string;
  readonly step: number;
  readonly steps: number;
  readonly loss: number;
  readonly stepsPerSecond: number;
  /** This step's sampler convergence figures, when the sampler reports them. */
  readonly convergence?: ConvergenceSummary;
}
