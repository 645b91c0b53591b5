import { estimateBatch } from './estimateBatch.js';
import { shardRecipeOf, withShardRecipe } from './internal/pool/shardRecipe.js';
import type { BatchEstimate, IsingBatch, MaybePromise, Sampler } from './types.js';

/**
 * Convergence figures of an iterative sampler summed over the calls since the last drain.
 *
 * @category Samplers
 */
export interface ConvergenceSummary {
  /** Sampler calls that reported diagnostics. */
  readonly calls: number;
  /** Problems (queries) solved in those calls. */
  readonly problems: number;
  /** Problems whose fixed point missed its tolerance (they kept their last iterate). */
  readonly missed: number;
  /** Largest final residual of any problem. */
  readonly maxResidual: number;
  /** Mean iterations per problem. */
  readonly meanIterations: number;
  /** Most iterations any problem took. */
  readonly maxIterations: number;
}

/**
 * A sampler that forwards to another and keeps its convergence figures for {@link RecordingSampler.drain}.
 *
 * @category Samplers
 */
export interface RecordingSampler extends Sampler {
  /** The figures since the previous drain (undefined when no call reported any), then resets. */
  drain(): ConvergenceSummary | undefined;
  /**
   * Adds figures recorded elsewhere to the current stretch: those of the copies of this sampler
   * that other threads rebuilt from its recipe and ran on their shares of a batch (the attention
   * engine does this), each of whose calls counts as a call.
   */
  absorb(summary: ConvergenceSummary | undefined): void;
  /** The wrapped sampler. */
  readonly inner: Sampler;
}

const recorders = new WeakSet<object>();

/** `sampler` as a {@link RecordingSampler} of {@link recordConvergence}, or undefined. */
export function recordingOf(sampler: unknown): RecordingSampler | undefined {
  return typeof sampler === 'object' && sampler !== null && recorders.has(sampler)
    ? (sampler as RecordingSampler)
    : undefined;
}

/**
 * Wraps a sampler so that the `diagnostics` of its estimates (mean-field, tap: iterations,
 * residuals, problems that missed the tolerance) are summed up for a training loop to log per
 * step. Name and capabilities are the inner sampler's; answers pass through `estimateBatch`
 * unchanged, so the wrapper works for any sampler (sync or async, `estimate` or `sample`).
 *
 * @summary Wraps a sampler so that its estimates' convergence diagnostics are summed for a training loop to log.
 * @param inner the sampler to record.
 * @returns the recording sampler; `dispose` disposes the inner one.
 * @example
 * import { causalBatch, estimateBatch, meanFieldSampler, recordConvergence } from '@boltzmann/ising-core';
 *
 * const sampler = recordConvergence(meanFieldSampler.create());
 * const fields = Float64Array.from({ length: 64 }, (_, i) => Math.sin(i));
 * await estimateBatch(sampler, causalBatch(fields, new Float64Array(64), { batch: 1, length: 8 }));
 * console.log(sampler.drain()); // { calls, problems, missed, maxResidual, meanIterations, maxIterations }
 * @category Samplers
 */
export function recordConvergence(inner: Sampler): RecordingSampler {
  let calls = 0;
  let problems = 0;
  let missed = 0;
  let maxResidual = 0;
  let iterations = 0;
  let maxIterations = 0;
  const record = (estimate: BatchEstimate): BatchEstimate => {
    const d = estimate.diagnostics;
    if (d === undefined) return estimate;
    calls += 1;
    problems += d.iterations.length;
    missed += d.missed;
    for (let q = 0; q < d.iterations.length; q++) {
      const its = d.iterations[q]!;
      iterations += its;
      if (its > maxIterations) maxIterations = its;
      const r = d.residual[q]!;
      if (r > maxResidual || Number.isNaN(r)) maxResidual = r;
    }
    return estimate;
  };
  const estimate = (batch: IsingBatch): MaybePromise<BatchEstimate> => {
    const result = estimateBatch(inner, batch);
    return result instanceof Promise ? result.then(record) : record(result);
  };
  const recording: RecordingSampler = {
    name: inner.name,
    capabilities: inner.capabilities,
    inner,
    estimate,
    drain() {
      if (calls === 0) return undefined;
      const summary = {
        calls,
        problems,
        missed,
        maxResidual,
        meanIterations: problems > 0 ? iterations / problems : 0,
        maxIterations,
      };
      calls = problems = missed = iterations = maxIterations = 0;
      maxResidual = 0;
      return summary;
    },
    absorb(summary) {
      if (summary === undefined || summary.calls === 0) return;
      calls += summary.calls;
      problems += summary.problems;
      missed += summary.missed;
      iterations += summary.meanIterations * summary.problems;
      maxIterations = Math.max(maxIterations, summary.maxIterations);
      const r = summary.maxResidual;
      if (r > maxResidual || Number.isNaN(r)) maxResidual = r;
    },
    dispose: () => inner.dispose?.(),
  };
  recorders.add(recording);
  // A built-in sampler keeps its recipe: the threads that rebuild it from there (the attention
  // engine's shards) record their own calls with recordConvergence and hand the figures to
  // `absorb`, so none is lost.
  const recipe = shardRecipeOf(inner);
  return recipe === undefined ? recording : withShardRecipe(recording, recipe);
}

/**
 * The summary of two stretches of calls together (either may be undefined: nothing recorded).
 *
 * @example
 * import { causalBatch, estimateBatch, mergeConvergence, recordConvergence, tapSampler } from '@boltzmann/ising-core';
 * import type { ConvergenceSummary } from '@boltzmann/ising-core';
 *
 * const sampler = recordConvergence(tapSampler.create());
 * const steps: (ConvergenceSummary | undefined)[] = [];
 * for (let step = 0; step < 3; step++) {
 *   const fields = Float64Array.from({ length: 64 }, (_, i) => Math.sin(i + step));
 *   await estimateBatch(sampler, causalBatch(fields, new Float64Array(64), { batch: 1, length: 8 }));
 *   steps.push(sampler.drain());
 * }
 * console.log(steps.reduce(mergeConvergence, undefined)); // the three steps' figures as one
 * @category Samplers
 */
export function mergeConvergence(
  a: ConvergenceSummary | undefined,
  b: ConvergenceSummary | undefined,
): ConvergenceSummary | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const problems = a.problems + b.problems;
  return {
    calls: a.calls + b.calls,
    problems,
    missed: a.missed + b.missed,
    maxResidual: Math.max(a.maxResidual, b.maxResidual),
    meanIterations:
      problems > 0 ? (a.meanIterations * a.problems + b.meanIterations * b.problems) / problems : 0,
    maxIterations: Math.max(a.maxIterations, b.maxIterations),
  };
}
