// The shapes of a finished run's record (`runs/<id>.json`) and the figures it keeps: its curves,
// engine and environment, timings, convergence and hardware tallies. A leaf: types only.
import type { ConvergenceSummary } from '@boltzmann/ising-core';
import type { StepChoice } from '@boltzmann/quantum-adapters';
import type { EarlyStopRecord, RunConfig, TrainingEngine } from './types.js';

/** What trained a run, as its record names it (outside its config and id). */
export interface RunEngine {
  readonly name: TrainingEngine;
  /** The fused engine's kernels: `native` or `wasm` (absent for tfjs). */
  readonly backend?: 'native' | 'wasm';
  /** `avx512`, `avx2`, `base`, `neon`, or `f32x4` (wasm). */
  readonly isa?: string;
  /** Float lanes of one vector. */
  readonly lanes?: number;
  /** Threads of each step (the fused engine's). */
  readonly threads?: number;
  /** The one line printed at the run's start: `engine: native avx512 (16 lanes), 1 thread`. */
  readonly line: string;
}

/**
 * The machine and process a run trained in, as its record keeps it (results/environment.ts reads
 * it). The engine, backend, ISA, vector width and threads are the record's `engine`; the commit its
 * `gitCommit`: one home each.
 */
export interface RunEnvironment {
  /** `process.version`, e.g. `v20.20.2`. */
  readonly node: string;
  /** `os.platform()`, `os.release()` and `process.arch`. */
  readonly platform: string;
  readonly osRelease: string;
  readonly arch: string;
  /** The first CPU's model as the OS names it (`os.cpus()`), `unknown` when it gives none. */
  readonly cpuModel: string;
  /** Logical cores the OS reports (`os.cpus().length`). */
  readonly logicalCores: number;
  /** Physical memory in bytes (`os.totalmem()`). */
  readonly totalMemoryBytes: number;
  /** The grid's `--workers` (0: in the bench's own process); absent for queue workers. */
  readonly workers?: number;
}

/** The train/val loss curves of a `bench gpt` run (nats per character). */
export interface GptEval {
  readonly train: readonly CurvePoint[];
  readonly val: readonly CurvePoint[];
}

/** One point of a curve. */
export interface CurvePoint {
  readonly step: number;
  readonly value: number;
}

/** The result file of one finished run. */
export interface RunRecord {
  readonly id: string;
  readonly config: RunConfig;
  readonly gitCommit: string | null;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** Name of the final metric: `perplexity` (shakespeare) or `accuracy` (brackets). */
  readonly metricName: 'perplexity' | 'accuracy';
  readonly finalMetric: number;
  /** Final evaluation loss (mean cross-entropy). */
  readonly finalLoss: number;
  readonly trainLoss: readonly CurvePoint[];
  readonly evalMetric: readonly CurvePoint[];
  readonly wallSeconds: number;
  readonly stepsPerSecond: number;
  /** Where `wallSeconds` went: steps, evaluations, checkpoints. Absent in older records. */
  readonly timing?: RunTiming;
  /** `bench gpt`: mean loss (nats/char) over the random train and val batches at each evaluation. */
  readonly gptEval?: GptEval;
  /** Learned couplings (T × T, row-major, strict upper triangle meaningful); null when the model has none. */
  readonly couplings: readonly number[] | null;
  /** Mean learned J by distance d = 1 … T − 1, per (layer, head), layer-major; null without couplings. Absent in older records. */
  readonly couplingProfile?: readonly (readonly number[])[] | null;
  /** What trained the run: engine, backend, ISA, vector width, threads. Absent in older records. */
  readonly engine?: RunEngine;
  /**
   * Where the run trained: Node, OS, CPU, memory and the grid's worker processes (its `engine`
   * and `gitCommit` beside it complete the picture). Absent in older records.
   */
  readonly environment?: RunEnvironment;
  /** Layer 0, head 0 weights on the first evaluation sequence (the same text for every run of the task). Absent in older records. */
  readonly attentionMap?: { readonly size: number; readonly weights: readonly number[] };
  /**
   * Training-step convergence of an iterative sampler: one point per train-loss interval and the
   * whole run's total. Absent for samplers that report no diagnostics (exact, gibbs, dqa, …).
   */
  readonly convergence?: {
    readonly points: readonly ConvergencePoint[];
    readonly total: ConvergenceSummary;
  };
  /** Runs with `config.earlyStop` only: where it stopped and its best evaluation. */
  readonly earlyStop?: EarlyStopRecord;
  /**
   * A run that continued a run of its cap family (the same config with a lower step cap,
   * grid/capFamily.ts): that run's id and the step it continued from. Absent otherwise.
   */
  readonly continuedFrom?: { readonly id: string; readonly step: number };
  /**
   * `--sampler dwave` only: what its D-Wave calls did (training and evaluation, every session of
   * a resumed run). Absent for other samplers.
   */
  readonly dwave?: DwaveRunSummary;
  /** `--sampler ibm` only: its calls, jobs, and the Trotter steps and expected fidelity of each spin count. */
  readonly ibm?: IbmRunSummary;
}

/** A run's IBM calls together (training/ibmRuns.ts sums the sampler's run infos). */
export interface IbmRunSummary {
  readonly backend: string;
  readonly calls: number;
  /** Runtime jobs submitted. */
  readonly jobs: number;
  readonly shots: number;
  /** Per spin count: the steps, the anneal time and the expected fidelity (the last session's choice). */
  readonly steps: readonly IbmStepRecord[];
}

/**
 * The ibm adapter's `StepChoice` for one spin count as JSON keeps it (in a run record and in the
 * dry run's `fidelity.json`): `fidelity` is absent without a calibration.
 */
export interface IbmStepRecord extends Omit<StepChoice, 'fidelity' | 'source'> {
  readonly fidelity?: number;
  readonly source: string;
}

/** A run's D-Wave calls together (training/dwaveRuns.ts sums the sampler's run infos). */
export interface DwaveRunSummary {
  readonly calls: number;
  readonly problems: number;
  /** Reads over every problem (the answers' `num_occurrences`). */
  readonly reads: number;
  /**
   * Fraction of broken chains (qubits of one chain that disagree) over every chain of every read,
   * as dwave-system's `chain_break_fraction`, each call weighted by its reads.
   */
  readonly chainBreakFraction: number;
  /** The largest of the calls' per-problem chain-break fractions. */
  readonly maxProblemChainBreakFraction: number;
  /** Longest chain of any call's embedding. */
  readonly maxChainLength: number;
  /** QPU access time SAPI reported (`timing.qpu_access_time`), summed, in µs. */
  readonly qpuAccessTimeUs: number;
}

/**
 * Where a run's training seconds went, over all its sessions: its evaluations, its checkpoint
 * writes, and the rest, the steps with the bench's loop around them (batches, records, progress).
 */
export interface RunTiming {
  /** Seconds of the training steps and the loop around them: the wall time less the two below. */
  readonly stepSeconds: number;
  /** Seconds of every evaluation (each split, the final one too). */
  readonly evalSeconds: number;
  /** Seconds writing checkpoints (the file, and the queue's copy). */
  readonly checkpointSeconds: number;
  /**
   * The median iteration of the training loop over the run's sessions, in ms: a step with the
   * bench's loop around it (batch, records, progress, the stop poll), its evaluation and
   * checkpoint left out. Comparable with an engine benchmark's median step. Checkpoints keep the
   * loop times since 7 Dec 2026 (less the iteration that wrote each one); a run resumed from an
   * earlier checkpoint counts only its sessions since.
   */
  readonly medianStepMs?: number;
}

/** The convergence figures of an iterative sampler (mean-field, tap) over one train-loss interval. */
export interface ConvergencePoint extends ConvergenceSummary {
  /** Last step of the interval. */
  readonly step: number;
}
