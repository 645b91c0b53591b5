// What a parsed grid invocation (`bench shakespeare|brackets|dqa|gpt|recall …`) is: its grid (GridSpec),
// the command (BenchCommand) and the longest context (MAX_LENGTH). A root leaf that the grid flags
// and their parse (commands/), the experiments, the planner and the executors all read.
import type { CouplingForm } from '@boltzmann/attention';
import type {
  BracketMode,
  EngineChoice,
  Experiment,
  GptSettings,
  RecallSettings,
  TrainingSettings,
  Variant,
} from './types.js';

/**
 * The grid axes and training settings of one experiment. Flags override single fields.
 * DQA grids use `samplerColumns` instead of `variants` (the variant is always `boltzmann`).
 */
export interface GridSpec extends TrainingSettings {
  readonly variants: readonly Variant[];
  readonly lengths: readonly number[];
  readonly seeds: readonly number[];
  readonly steps: number;
  readonly dModels: readonly number[];
  readonly ffns: readonly boolean[];
  readonly ffnHidden: number | null;
  readonly modes: readonly BracketMode[];
  readonly types: number;
  readonly checkpointEvery: number;
  readonly logEvery: number;
  /** Datasets of a DQA grid. */
  readonly datasets: readonly ('shakespeare' | 'brackets')[];
  /** Shots of the DQA columns (0 = exact output distribution); exact training is always added. */
  readonly shots: readonly number[];
  /** Defaults of `--layers`, `--heads` and `--sampler` (1, 1 and `exact` when absent). */
  readonly layers?: number;
  readonly heads?: number;
  readonly sampler?: string;
  /** gpt: the positional table's size (nanoGPT's block_size); `--lengths` may not exceed it. */
  readonly positions?: number;
  /** gpt: the nanoGPT-protocol settings every run of the grid carries. */
  readonly gpt?: GptSettings;
  /**
   * Tokens per training batch: each run's batch size is `tokensPerBatch / T` (so every length
   * trains on the same number of tokens per step); overrides `batchSize`.
   */
  readonly tokensPerBatch?: number;
  /** recall: its MQAR task, with the pairs axis (`--kv-pairs`) in place of one number. */
  readonly recall?: RecallGrid;
  /**
   * Defaults of `--sampler-options` by sampler name (the hardware preset's shots and reads); the
   * options given on the command line override them.
   */
  readonly samplerDefaults?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** The MQAR settings of a `bench recall` grid: each run takes one of `kvPairs`. */
export interface RecallGrid extends Omit<RecallSettings, 'kvPairs'> {
  readonly kvPairs: readonly number[];
}

/** Where the grid's queue lives: a parsed `--queue` URL plus the password from the environment. */
export interface QueueSpec {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly tls: boolean;
  readonly username?: string;
  /** Never printed, logged, hashed or written: see queue/queueUrl.ts maskedUrl and redactQueue. */
  readonly password?: string;
  /** The URL with any password replaced by `***`, for messages. */
  readonly masked: string;
}

/** The name of a preset (`--preset`); each experiment has some of them (experiments/). */
export type PresetName = 'small' | 'paper' | 'baby' | 'long' | 'hardware';

/** The engine of a command before its grid is known: threads `'auto'` without `--engine-threads`. */
export type EngineRequest = Omit<EngineChoice, 'threads'> & { readonly threads: number | 'auto' };

/** Longest context `--lengths` accepts; each run is also held to its sampler's `maxSpins`. */
export const MAX_LENGTH = 1024;

/** The flags of one task as commander parsed them (keys are camelCased flag names). */
export type Raw = Record<string, string | boolean | string[] | undefined>;

/** `bench dqa`: the options of its `dqa` sampler columns and the axes of its fidelity sweep. */
export interface DqaSettings {
  /** `--dqa-options`: passed to the `dqa` sampler besides `shots` (and to the sweep's anneal). */
  readonly options: Record<string, unknown>;
  /** `--sweep-taus` and `--sweep-steps`: the fidelity sweep's anneal times and Trotter steps. */
  readonly sweepTaus: readonly number[];
  readonly sweepSteps: readonly number[];
}

/** What an experiment's own flags set besides its grid (see experiments/types.ts). */
export interface ExperimentSettings {
  /** `--data` (tasks on Tiny Shakespeare): the corpus file, else the datasets package's lookup. */
  readonly dataPath?: string | undefined;
  /** `bench dqa` only. */
  readonly dqa?: DqaSettings;
}

/** `--budget` (hardware/budget.ts): QPU seconds or US dollars, and the text it was given as. */
export interface Budget {
  readonly qpuSeconds?: number;
  readonly usd?: number;
  readonly text: string;
}

/** A fully parsed and validated bench invocation. */
export interface BenchCommand extends ExperimentSettings {
  readonly experiment: Experiment;
  readonly preset: PresetName;
  readonly grid: GridSpec;
  readonly sampler: string;
  /** `--sampler-options` without credentials: what run ids hash and run files record. */
  readonly samplerOptions: Record<string, unknown>;
  /**
   * The credentials split off `--sampler-options` (see ising-core's `splitSecretOptions`): given
   * to the sampler in memory, never hashed, written, logged or reported.
   */
  readonly samplerSecrets: Record<string, unknown>;
  readonly plugins: readonly string[];
  readonly resultsDir: string;
  readonly workers: number;
  readonly dryRun: boolean;
  readonly dataPath: string | undefined;
  /** Force plain log lines even on a TTY. */
  readonly plain: boolean;
  /** Also write each finished run's trained model to `models/<id>.safetensors`. */
  readonly saveModels: boolean;
  /** `--tensorboard`: also write TensorBoard event files to `tensorboard/<id>/`. */
  readonly tensorboard?: boolean;
  /** `--budget`: the most a hardware grid may cost (QPU seconds or US dollars); none: no limit. */
  readonly budget?: Budget;
  /** `--strict`: refuse a hardware grid whose circuits fall below their expected-fidelity threshold. */
  readonly strict: boolean;
  /** `--sampler-timeout` in ms (0 = none); undefined: the attention package's default. */
  readonly samplerTimeoutMs?: number;
  /**
   * `--engine`, `--engine-threads` and `--engine-backend`: what trains the runs, on how many
   * threads a step (`'auto'`, no flag: every core a run has to itself, see `engineThreadsFor`).
   */
  readonly engine: EngineRequest;
  /** `--queue`: train the grid on a BullMQ queue in this Redis instead of local processes. */
  readonly queue?: QueueSpec;
  /** `--detach` (with `--queue`): enqueue and return; `bench collect` writes the results. */
  readonly detach: boolean;
  /** `--remove-collected` (with `--queue`): remove finished jobs from Redis once written here. */
  readonly removeCollected?: boolean;
  /** `bench collect`: enqueue nothing; write the finished runs of the grid and its report. */
  readonly collect?: boolean;
  /** How boltzmann/coupling runs parameterize J (`full`, `relative`, `banded:w`). */
  readonly couplingForm: CouplingForm;
  /** Positional embedding of every run: learned (default) or none. */
  readonly positions: 'learned' | 'none';
  /** Transformer blocks and attention heads per block. */
  readonly layers: number;
  readonly heads: number;
}
