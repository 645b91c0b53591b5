import type { RunConfig } from './types.js';

/*
 * A rough cost model of one training step on one core, fitted to the step times that
 * src/scripts/measureStepTimes.ts printed on the development machine (2 cores shared with
 * other jobs, load average ≈ 4.5; see the README). It orders the work queue (longest first)
 * and gives the up-front ETA; the live progress shows the measured rate.
 */
const MS_PER_STEP_BASE = 10; // fixed per-step cost: TF.js op dispatch (wasm), data
const NS_PER_PARAMETER = 300; // AdamW update and gradient bookkeeping, per weight
const NS_PER_DENSE_FLOP = 0.2; // dense layers (embedding, projections, FFN, head), fwd + bwd
const NS_PER_ISING_CONFIG = 11.5; // exact enumeration: forward folds + VJP, per spin configuration
const NS_PER_DQA_PROBLEM = 90_000; // DQA at 64 Trotter steps: per-problem setup and calibration
const NS_PER_DQA_CONFIG = 520; // DQA at 64 Trotter steps: per amplitude
const NS_PER_DQA_SHOT_PROBLEM = 125_000; // finite shots: sampling + sample-covariance VJP, per problem
const SECONDS_PER_RUN = 5; // worker start, data, model, first graph trace
// Approximate samplers scale polynomially. These two are order-of-magnitude figures from the
// algorithms' operation counts at ~1 ns per multiply-add, not fitted to measured step times.
const NS_PER_MEAN_FIELD_OP = 1; // fixed point: ~MEAN_FIELD_ITERATIONS·n² per problem; backward ~n³/3
const MEAN_FIELD_ITERATIONS = 50;
const NS_PER_GIBBS_OP = 1; // chains·(burnIn + samples·thin) sweeps of n² each, plus the covariance VJP

/** Σ over one sequence's causal prefixes (n = 1..T) of an approximate sampler's work, in ns. */
function approximateSamplerNs(c: RunConfig): number {
  const num = (key: string, fallback: number): number => {
    const v = Number(c.samplerOptions[key] ?? fallback);
    return Number.isFinite(v) && v > 0 ? v : fallback;
  };
  let sum2 = 0;
  let sum3 = 0;
  for (let n = 1; n <= c.length; n++) {
    sum2 += n * n;
    sum3 += n * n * n;
  }
  if (c.sampler === 'transfer-matrix') {
    // Forward–backward over the 2^w states of the band, with its VJP: ~n·w·2^w per problem, twice.
    const w = Math.min(num('bandwidth', 8), c.length);
    let sum1 = 0;
    for (let n = 1; n <= c.length; n++) sum1 += n;
    return 4 * sum1 * Math.max(1, w) * 2 ** w * NS_PER_MEAN_FIELD_OP;
  }
  if (c.sampler === 'gibbs') {
    const sweeps = num('chains', 8) * (num('burnIn', 200) + num('samples', 1000) * num('thin', 2));
    return (sweeps + 4 * num('chains', 8) * num('samples', 1000)) * sum2 * NS_PER_GIBBS_OP;
  }
  // mean-field and tap (whose map costs about twice as much), and any plugin the model does not
  // know: a dense fixed point and an iterative backward of about as many iterations.
  const perMap = c.sampler === 'tap' ? 2 : 1;
  return (2 * perMap * MEAN_FIELD_ITERATIONS * sum2 + sum3 / 3) * NS_PER_MEAN_FIELD_OP;
}

function stepMs(c: RunConfig, batch: number): number {
  const vocab = c.dataset === 'shakespeare' ? 65 : 2 * c.types;
  const out = c.dataset === 'shakespeare' ? 65 : c.length;
  const hidden = c.ffn ? 2 * c.ffnHidden : 0;
  const layers = c.layers ?? 1;
  // Per block: the four attention projections, the FFN and the attention products (B·T·T·d).
  const block = 4 * c.dModel + hidden + 2 * c.length;
  const params = vocab * c.dModel + c.length * c.dModel + layers * (4 * c.dModel + hidden) * c.dModel + out * c.dModel;
  const flopsPerRow = 6 * c.dModel * (layers * block + out);
  const dense = params * NS_PER_PARAMETER * 1e-6 + batch * c.length * flopsPerRow * NS_PER_DENSE_FLOP * 1e-6;
  let ising = 0;
  if (c.variant === 'boltzmann' || c.variant === 'coupling') {
    const estimates = layers * c.heads; // one Ising batch per (layer, head)
    const problems = batch * c.length * estimates; // one per query
    const configs = estimates * batch * (2 ** (c.length + 1) - 2); // Σ_{i=1..T} 2^i over the causal prefixes
    if (c.sampler === 'dqa') {
      const shots = Number(c.samplerOptions['shots'] ?? 0);
      const trotter = Number(c.samplerOptions['steps'] ?? 64);
      const scale = Number.isFinite(trotter) && trotter > 0 ? trotter / 64 : 1;
      ising = (problems * NS_PER_DQA_PROBLEM + configs * NS_PER_DQA_CONFIG) * scale * 1e-6 + (shots > 0 ? problems * NS_PER_DQA_SHOT_PROBLEM * 1e-6 : 0);
    } else if (c.sampler === 'exact') {
      ising = configs * NS_PER_ISING_CONFIG * 1e-6;
    } else {
      ising = estimates * batch * approximateSamplerNs(c) * 1e-6;
    }
  }
  return MS_PER_STEP_BASE + dense + ising;
}

/**
 * Estimated wall seconds of one run on one core (training + evaluations + setup).
 *
 * @param c the run config.
 * @returns seconds (a rough figure, ±50 %).
 */
export function estimateRunSeconds(c: RunConfig): number {
  const train = (c.steps * stepMs(c, c.batchSize)) / 1000;
  const evalRows = c.dataset === 'shakespeare' ? c.evalWindows : 512;
  const evals = Math.floor(c.steps / c.evalEvery) + 1;
  const evalCost = (evals * stepMs(c, evalRows)) / 3000; // forward only ≈ 1/3 of a step
  return SECONDS_PER_RUN + train + evalCost;
}

/**
 * Estimated wall time of a list of runs on `workers` processes, scheduling the longest run
 * first onto the least-loaded worker (the order runGrid uses).
 *
 * @param runs configs still to run, with the fraction of each already done (resume).
 * @param workers parallel processes.
 * @returns seconds.
 */
export function estimateGridSeconds(runs: ReadonlyArray<{ config: RunConfig; doneFraction?: number }>, workers: number): number {
  const costs = runs.map((r) => estimateRunSeconds(r.config) * (1 - (r.doneFraction ?? 0))).sort((a, b) => b - a);
  const load = new Array<number>(Math.max(1, workers)).fill(0);
  for (const cost of costs) {
    let k = 0;
    for (let i = 1; i < load.length; i += 1) if (load[i]! < load[k]!) k = i;
    load[k]! += cost;
  }
  return Math.max(...load);
}
