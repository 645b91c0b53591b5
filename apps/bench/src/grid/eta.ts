import { usesSampler } from '@boltzmann/ising-core';
import { DEFAULT_ENGINE } from '../types.js';
import type { EngineChoice, RunConfig } from '../types.js';

/*
 * A rough cost model of one training step on one core. The tfjs path's constants, refitted on 1 Dec 2026 to idle
 * single-thread step times (packages/attention/scripts/benchTraining.ts: paper model 31.5 ms,
 * baby 291 ms per step) and to ising-core's sampler benchmark (its README, "Long context:
 * forward + VJP of one causal call"; run with threads 'auto' on both cores, doubled here),
 * then scaled by GRID_CONTENTION for two worker processes sharing the two cores; the exact,
 * DQA and attention-score terms refitted on 2 Dec 2026 (src/studies/measureStepTimes.ts and
 * src/studies/etaAgainstRecords.ts on the long-context grid's records). It orders the work queue
 * (resumed runs, then the longest first) and gives the up-front ETA; the live progress shows the
 * measured rate. The engine's constants (the bench's default path) follow the samplers' below.
 */
const MS_PER_STEP_BASE = 3; // fixed per-step cost: TF.js op dispatch (wasm), data
const NS_PER_PARAMETER = 20; // reading gradients, AdamW in float64, writing weights back
/** Dense layers cost more per flop at small widths (kernel overheads): 0.1 ns at d = 64, 0.08 at 128. */
const nsPerDenseFlop = (dModel: number): number => 0.06 + 2.6 / dModel;
const GRID_CONTENTION = 1.5; // two bench workers on two cores run each step about this much slower
// Exact enumeration, forward folds + VJP: a fixed cost per problem (one query's prefix) plus a
// cost per spin configuration (ising-core's benchmark: 9.5 ns/config at T = 12, 1.1–3.6 at 16).
const NS_PER_EXACT_PROBLEM = 5_000;
const NS_PER_ISING_CONFIG = 1.5;
// Per attention score (batch · layers · heads · T², forward + backward) beyond the matmul flops:
// masking and softmax inside TF.js, or, for the JavaScript causal op (sigmoid and the sampler
// variants), reading the scores out of TF.js, the per-row loops and the gradient written back.
// Fitted to the long-context grid's run records (src/studies/etaAgainstRecords.ts).
const NS_PER_SCORE_SOFTMAX = 45;
const NS_PER_SCORE_CAUSAL_OP = 130;
const NS_PER_DQA_PROBLEM = 9_000; // DQA at 64 Trotter steps: per-problem setup and calibration
const NS_PER_DQA_CONFIG = 1_000; // DQA at 64 Trotter steps: per amplitude
const NS_PER_DQA_SHOT_PROBLEM = 20_000; // finite shots: sampling + sample-covariance VJP, per problem
// Inside the run's record: first graph trace, warm-up. Was 3 s when it also stood for the worker's
// start-up (now SECONDS_PER_WORKER_START); a 1-step run's record shows 0.2 s at load 2, and 50-step
// runs 1–2 s at load 6 (of which ≈ 1 s the steps), 3 Dec 2026.
export const SECONDS_PER_RUN = 1;
/**
 * Start-up of one worker process, which its records never show: fork, tsx, the bench's imports
 * (TF.js, the samplers), the sampler registry and the first run's TF.js wasm backend. Measured
 * on 3 Dec 2026 by forking `pool/poolProcess.ts` alone and timing its `ready` message and two 1-step runs:
 * 1.8 s wall to `ready` at load 2 (5.8 s at load 12), 2.4 s of CPU to `ready` and 0.4 s more
 * CPU in the first run than in the second; two workers start at once on the two cores.
 */
export const SECONDS_PER_WORKER_START = 2.8;
/**
 * Set-up of each run in a worker, also outside its record: task data, model, optimizer, reading
 * its checkpoint. Measured 0.1 s at load 2, 0.4 s at load 12 (the same probe's second run).
 */
export const SECONDS_PER_RUN_SETUP = 0.2;
// Approximate samplers, per causal sequence of length T (forward + VJP, one thread), fitted to
// the sampler benchmark at T = 64 and 256: tap 4.3 and 130 ms, mean-field 3.1 and 88 ms,
// transfer-matrix (w = 8) 2.8 and 47 ms, (w = 4) 9.8 ms at T = 256.
const NS_PER_GIBBS_OP = 1; // chains·(burnIn + samples·thin) sweeps of n² each, plus the covariance VJP

/*
 * The same step on the engine (`--engine wasm`, the default), one thread, measured on 5 Dec 2026
 * with packages/attention/scripts/benchEngine.ts on an idle machine: paper softmax 6.5–7.5 ms,
 * baby softmax 101 ms, the causal op's work beyond its sampler 13 ms a baby step (786,432
 * scores) and 0.3 ms a paper step (9,216). The matrix work runs at ≈ 42 GFLOP/s whatever the
 * width; AdamW and the gradient norm are one fused pass over the parameters. The fixed cost (the
 * trainer, the batch, the data, some 40 kernel calls) is what the smallest bracket model's step
 * costs: 1.2 ms (src/studies/measureStepTimes.ts).
 */
const ENGINE_MS_PER_STEP_BASE = 1;
const ENGINE_NS_PER_PARAMETER = 2.5;
const ENGINE_NS_PER_DENSE_FLOP = 0.0235;
const ENGINE_NS_PER_SCORE_SOFTMAX = 6.5;
const ENGINE_NS_PER_SCORE_CAUSAL_OP = 20;
/** Each engine thread past the first adds this much of one (baby softmax: 101 → 58–60 ms on 2). */
const ENGINE_THREAD_GAIN = 0.7;
/**
 * The approximate samplers' terms on the engine, a share of the tfjs-era fits (whose records
 * also held the tfjs causal op's own overheads): GPT `baby`, one engine thread, 5 Dec 2026
 * (src/studies/measureGptSteps.ts): transfer-matrix (w = 8, float64) 589 ms a step and tap 676,
 * against sigmoid's 135 without a sampler, put their work at 0.68 and 0.66 of those fits.
 */
const ENGINE_APPROXIMATE_SAMPLER_SCALE = 0.67;
/**
 * The transfer matrix in float32 on the engine runs the engine's own transfer kernels (issue
 * 41), not the sampler: forward + VJP 1.4 ns a (query, key, window state) on one AVX2 core
 * (packages/attention/scripts/benchTransfer.ts's split of the baby step, 6 Dec 2026), about a
 * third of the sampler's float64 path above; costed so on either backend (the wasm kernels are
 * slower: an upper bound there is this times two).
 */
const ENGINE_NS_PER_FUSED_TRANSFER_STATE = 1.4;
/**
 * What the native backend's kernels take of the wasm-fitted engine terms above, by instruction
 * set, fitted on 7 Dec 2026 to the converged experiment's run records (median step against the
 * model, two workers on two cores: docs/results/long-context-converged): `model` for everything
 * but the transfer kernels (softmax and sigmoid runs: AVX2 0.34–0.66 of the wasm fit, AVX-512
 * 0.18–0.26), `transfer` for the transfer kernels' term (the boltzmann runs' remainder: AVX2
 * 0.61–1.6, AVX-512 0.31–0.51). AVX2's runs ran on a busier machine than AVX-512's, so its pair
 * is the one that keeps every cell's median within ±50 % (0.69–1.49; AVX-512 0.86–1.04), which
 * etaKernels.test.ts checks. An instruction set not here keeps the wasm fit, an upper bound.
 */
const NATIVE_SCALES: Readonly<Record<string, { model: number; transfer: number }>> = {
  avx2: { model: 0.5, transfer: 0.85 },
  avx512: { model: 0.22, transfer: 0.32 },
};
const WASM_SCALES = { model: 1, transfer: 1 } as const;

/** The kernels an engine runs on here (`engineBackendInfo`'s name and instruction set), for the ETA. */
export interface EtaKernels {
  readonly name: 'native' | 'wasm';
  readonly isa: string;
}

/** What trains a run, as the ETA sees it: the choice, and the kernels it resolves to here when known. */
export interface EtaEngine extends EngineChoice {
  /** Absent: the engine is costed on its WebAssembly fit (an upper bound where the native addon runs). */
  readonly kernels?: EtaKernels;
}

/**
 * The samplers whose work runs on every engine thread's own shard (ising-core's deterministic
 * built-ins, rebuilt on each thread from their recipe; the run's convergence recorder,
 * training/runModel.ts, gets every thread's figures): their share shrinks with the threads like
 * the rest of the step (baby transfer-matrix: 589 → 348 ms a step on 2 threads). Any other
 * (gibbs, a plugin's) is gathered on the calling thread, with its own threads if it has any.
 */
const SHARDED_SAMPLERS: ReadonlySet<string> = new Set([
  'exact',
  'transfer-matrix',
  'mean-field',
  'tap',
]);

/** The per-step constants of the path that trains `c`: the engine (and its threads, kernels) or tfjs. */
function pathCosts(c: RunConfig, engine: EtaEngine) {
  if (engine.name === 'tfjs')
    return {
      base: MS_PER_STEP_BASE,
      perParameter: NS_PER_PARAMETER,
      perFlop: nsPerDenseFlop(c.dModel),
      perScore: c.variant === 'softmax' ? NS_PER_SCORE_SOFTMAX : NS_PER_SCORE_CAUSAL_OP,
      speedup: 1,
      approximateSamplerScale: 1,
      samplerSpeedup: 1,
      transferScale: 1,
    };
  const speedup = 1 + ENGINE_THREAD_GAIN * (engine.threads - 1);
  const k = engine.kernels;
  const scale = (k?.name === 'native' ? NATIVE_SCALES[k.isa] : undefined) ?? WASM_SCALES;
  const perScore =
    c.variant === 'softmax' ? ENGINE_NS_PER_SCORE_SOFTMAX : ENGINE_NS_PER_SCORE_CAUSAL_OP;
  return {
    base: ENGINE_MS_PER_STEP_BASE * scale.model,
    perParameter: ENGINE_NS_PER_PARAMETER * scale.model,
    perFlop: ENGINE_NS_PER_DENSE_FLOP * scale.model,
    perScore: perScore * scale.model,
    speedup,
    transferScale: scale.transfer,
    approximateSamplerScale: ENGINE_APPROXIMATE_SAMPLER_SCALE,
    samplerSpeedup: SHARDED_SAMPLERS.has(c.sampler) ? speedup : 1,
  };
}

/** One causal sequence's (T queries') approximate-sampler work, in ns. */
function approximateSamplerNs(c: RunConfig): number {
  const num = (key: string, fallback: number): number => {
    const v = Number(c.samplerOptions[key] ?? fallback);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  const T = c.length;
  const sum1 = (T * (T + 1)) / 2;
  if (c.sampler === 'transfer-matrix') {
    const w = Math.min(num('bandwidth', 8), T);
    return sum1 * (2 ** w * 5.57 + 250);
  }
  if (c.sampler === 'gibbs') {
    let sum2 = 0;
    for (let n = 1; n <= T; n++) sum2 += n * n;
    const sweeps = num('chains', 8) * (num('burnIn', 200) + num('samples', 1000) * num('thin', 2));
    return (sweeps + 4 * num('chains', 8) * num('samples', 1000)) * sum2 * NS_PER_GIBBS_OP;
  }
  // tap, mean-field, and any plugin the model does not know (costed as tap).
  return c.sampler === 'mean-field' ? 3.09 * T ** 3 + 559 * T ** 2 : 4.86 * T ** 3 + 738 * T ** 2;
}

/** Whether the engine runs `c`'s causal op on its transfer kernels (boltzmann, transfer matrix in float32). */
const fusedTransfer = (c: RunConfig): boolean =>
  c.variant === 'boltzmann' &&
  c.sampler === 'transfer-matrix' &&
  c.samplerOptions.precision === 'float32';

function stepMs(c: RunConfig, batch: number, engine: EtaEngine): number {
  const vocab = c.recall?.vocabSize ?? (c.dataset === 'shakespeare' ? 65 : 2 * c.types);
  const out = c.recall?.vocabSize ?? (c.dataset === 'shakespeare' ? 65 : c.length);
  const hidden = c.ffn ? 2 * c.ffnHidden : 0;
  const layers = c.layers ?? 1;
  // Per block: the four attention projections, the FFN and the attention products (B·T·T·d).
  const block = 4 * c.dModel + hidden + 2 * c.length;
  const params =
    vocab * c.dModel +
    c.length * c.dModel +
    layers * (4 * c.dModel + hidden) * c.dModel +
    out * c.dModel;
  const flopsPerRow = 6 * c.dModel * (layers * block + out);
  const costs = pathCosts(c, engine);
  const dense =
    params * costs.perParameter * 1e-6 + batch * c.length * flopsPerRow * costs.perFlop * 1e-6;
  const scores = layers * c.heads * batch * c.length * c.length;
  let ising = 0;
  if (usesSampler(c.variant)) {
    const estimates = layers * c.heads; // one Ising batch per (layer, head)
    const problems = batch * c.length * estimates; // one per query
    const configs = estimates * batch * (2 ** (c.length + 1) - 2); // Σ_{i=1..T} 2^i over the causal prefixes
    if (c.sampler === 'dqa') {
      const shots = Number(c.samplerOptions.shots ?? 0);
      const trotter = Number(c.samplerOptions.steps ?? 64);
      const scale = Number.isFinite(trotter) && trotter > 0 ? trotter / 64 : 1;
      ising =
        (problems * NS_PER_DQA_PROBLEM + configs * NS_PER_DQA_CONFIG) * scale * 1e-6 +
        (shots > 0 ? problems * NS_PER_DQA_SHOT_PROBLEM * 1e-6 : 0);
    } else if (c.sampler === 'exact') {
      ising = (problems * NS_PER_EXACT_PROBLEM + configs * NS_PER_ISING_CONFIG) * 1e-6;
    } else if (engine.name !== 'tfjs' && fusedTransfer(c)) {
      const states = (c.length * (c.length + 1)) / 2;
      const w = Math.min(Number(c.samplerOptions.bandwidth ?? 8), c.length - 1);
      const ns = ENGINE_NS_PER_FUSED_TRANSFER_STATE * costs.transferScale;
      ising = estimates * batch * states * 2 ** w * ns * 1e-6;
    } else {
      ising = estimates * batch * approximateSamplerNs(c) * costs.approximateSamplerScale * 1e-6;
    }
  }
  const model = (costs.base + dense + scores * costs.perScore * 1e-6) / costs.speedup;
  return GRID_CONTENTION * (model + ising / costs.samplerSpeedup);
}

/** Estimated wall milliseconds of one training step of the run's batch, under grid contention. */
export const estimateStepMs = (c: RunConfig, engine: EtaEngine = DEFAULT_ENGINE): number =>
  stepMs(c, c.batchSize, engine);

/**
 * Estimated wall seconds of one run on one core (training + evaluations + setup).
 *
 * @param c the run config.
 * @param engine what trains it (default: the engine on one thread).
 * @returns seconds (a rough figure, ±50 %).
 */
export function estimateRunSeconds(c: RunConfig, engine: EtaEngine = DEFAULT_ENGINE): number {
  const train = (c.steps * stepMs(c, c.batchSize, engine)) / 1000;
  const evalRows = c.recall?.testExamples ?? (c.dataset === 'shakespeare' ? c.evalWindows : 512);
  const evals = Math.floor(c.steps / c.evalEvery) + 1;
  const evalCost = (evals * stepMs(c, evalRows, engine)) / 3000; // forward only ≈ 1/3 of a step
  return SECONDS_PER_RUN + train + evalCost;
}

/**
 * Estimated wall time of a list of runs on `workers` processes, each run in the executors' order
 * ({@link runOrder}: resumed runs, then the longest first) onto the least-loaded worker. Counts
 * what the records do not: each worker process's start-up ({@link SECONDS_PER_WORKER_START}) and
 * each run's set-up ({@link SECONDS_PER_RUN_SETUP}, also for a resumed run).
 *
 * @param runs configs still to run, with the fraction of each already done (resume).
 * @param workers parallel processes.
 * @param engine what trains them (default: the engine on one thread).
 * @returns seconds.
 */
export function estimateGridSeconds(
  runs: ReadonlyArray<{ config: RunConfig; doneFraction?: number }>,
  workers: number,
  engine: EtaEngine = DEFAULT_ENGINE,
): number {
  const ordered = runOrder(
    runs.map((r) => ({ config: r.config, doneFraction: r.doneFraction ?? 0 })),
    engine,
  );
  const costs = ordered.map(
    (r) => SECONDS_PER_RUN_SETUP + estimateRunSeconds(r.config, engine) * (1 - r.doneFraction),
  );
  // Only as many processes start as there are runs for them.
  const started = Math.max(1, Math.min(workers, runs.length));
  const load = new Array<number>(started).fill(runs.length > 0 ? SECONDS_PER_WORKER_START : 0);
  return listSchedule(costs, load);
}

/**
 * The wall time of jobs of the given costs on processes already busy for `load` seconds each,
 * every job (in the order given) to the least-loaded process.
 *
 * @returns seconds until the last process is done.
 */
export function listSchedule(costs: readonly number[], load: readonly number[]): number {
  const busy = load.length > 0 ? [...load] : [0];
  for (const cost of costs) {
    let k = 0;
    for (let i = 1; i < busy.length; i += 1) if (busy[i]! < busy[k]!) k = i;
    busy[k]! += cost;
  }
  return Math.max(...busy);
}

/**
 * The runs in the order the executors take them: runs resumed from a checkpoint first, then the
 * rest, each group longest remaining work first (ETA model), so no long run starts last while
 * the other workers idle. Resumed runs go first because their work so far exists only as a
 * checkpoint: finishing them lands their records sooner, and a grid stopped again (a session's
 * end, on a machine that may not come back) leaves fewer runs in flight. Their remaining time is
 * an upper bound anyway where early stopping ends runs before the cap.
 *
 * @param runs the runs still to train, with the fraction of each already done (resume).
 * @param engine what trains them (default: the engine on one thread).
 * @returns a sorted copy.
 */
export function runOrder<R extends { readonly config: RunConfig; readonly doneFraction: number }>(
  runs: readonly R[],
  engine: EtaEngine = DEFAULT_ENGINE,
): R[] {
  const keyed = runs.map((run) => ({
    run,
    resumed: run.doneFraction > 0 ? 1 : 0,
    left: estimateRunSeconds(run.config, engine) * (1 - run.doneFraction),
  }));
  keyed.sort((a, b) => b.resumed - a.resumed || b.left - a.left);
  return keyed.map((k) => k.run);
}
