import { causalBatch, estimateBatch } from '@boltzmann/ising-core';
import type { BatchEstimate, IsingBatch, RealArray, Sampler } from '@boltzmann/ising-core';
import { AttentionError } from '../core/errors.js';
import type { PreparedEstimates } from './preparedTypes.js';
import { callSampler, checkSamplerTimeout } from './samplerDeadline.js';

export type { PreparedEstimates, PreparedHead, ResidentHead } from './preparedTypes.js';

/**
 * Where the causal op gets its moments.
 *
 * @category Attention
 */
export interface MagnetizationSource {
  /** The sampler called (synchronously) when no `prepared` estimates are given. */
  readonly sampler: Sampler;
  /** Inverse temperature of the Ising model. */
  readonly beta: number;
  /** Estimates computed beforehand for exactly these fields and couplings. */
  readonly prepared?: PreparedEstimates | undefined;
}

/**
 * Splits `B×H×T×T` fields and `H×T×T` couplings into one causal {@link IsingBatch} per head.
 *
 * @throws {AttentionError} ATTENTION_SHAPE_MISMATCH; {IsingError} ISING_NOT_FINITE on NaN/∞ fields.
 * @example
 * import { headBatches } from '@boltzmann/attention';
 *
 * const [batch, heads, length] = [2, 1, 4];
 * const hData = Float32Array.from({ length: batch * heads * length * length }, (_, i) => Math.sin(i));
 * const jData = new Float32Array(heads * length * length).fill(0.1);
 * const [head0] = headBatches(hData, jData, { batch, heads, length }, 1); // 8 problems of 1..4 spins
 * console.log(head0?.size);
 * @category Attention
 */
export function headBatches(
  fields: RealArray,
  couplings: RealArray,
  shape: { batch: number; heads: number; length: number },
  beta: number,
): IsingBatch[] {
  const { batch, heads, length: t } = shape;
  const tt = t * t;
  if (fields.length !== batch * heads * tt || couplings.length !== heads * tt) {
    throw new AttentionError(
      'ATTENTION_SHAPE_MISMATCH',
      `fields (${fields.length}) and couplings (${couplings.length}) do not fit batch ${batch} × heads ${heads} × length ${t}`,
    );
  }
  const out: IsingBatch[] = [];
  for (let hd = 0; hd < heads; hd++) {
    const f = new Float64Array(batch * tt);
    for (let b = 0; b < batch; b++) {
      const src = (b * heads + hd) * tt;
      f.set(fields.subarray(src, src + tt), b * tt);
    }
    const j = Float64Array.from(couplings.subarray(hd * tt, (hd + 1) * tt));
    out.push(causalBatch(f, j, { batch, length: t }, beta));
  }
  return out;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs the sampler on every head's batch and awaits the answers (heads in parallel), each for at
 * most `options.timeoutMs`: the backend-free part of `prepareEstimates` (the engine's phase 1).
 *
 * @param fields `B×H×T×T` attention fields `h_ij` (row-major, `j > i` ignored).
 * @param couplings `H×T×T` coupling matrices (strict upper triangle used).
 * @param options.timeoutMs the longest wait for one answer (default `DEFAULT_SAMPLER_TIMEOUT_MS`,
 *   30 minutes; 0 or Infinity: no deadline). Its timer is cleared when the call settles.
 * @returns each head's batch and estimate.
 * @throws {AttentionError} ATTENTION_SAMPLER_TIMEOUT when an answer takes longer than `timeoutMs`;
 *   ATTENTION_INVALID_ARGUMENT for a bad `timeoutMs`.
 * @throws {IsingError} whatever else the sampler or batch validation throws.
 * @example
 * const { heads } = await sampleEstimates(hData, jData, { batch: 2, heads: 1, length: 4 }, sampler, 1);
 */
export async function sampleEstimates(
  fields: RealArray,
  couplings: RealArray,
  shape: { batch: number; heads: number; length: number },
  sampler: Sampler,
  beta: number,
  options: { readonly timeoutMs?: number | undefined } = {},
): Promise<PreparedEstimates> {
  const timeoutMs = checkSamplerTimeout(
    options.timeoutMs,
    'timeoutMs',
    'ATTENTION_INVALID_ARGUMENT',
  );
  const batches = headBatches(fields, couplings, shape, beta);
  // When one head fails, the others' deadlines are dropped too: nothing keeps the process alive.
  const done = new AbortController();
  let estimates: Awaited<ReturnType<typeof estimateBatch>>[];
  try {
    estimates = await Promise.all(
      batches.map((b) =>
        callSampler(sampler, () => estimateBatch(sampler, b), timeoutMs, done.signal),
      ),
    );
  } finally {
    done.abort();
  }
  return { heads: batches.map((batch, i) => ({ batch, estimate: estimates[i]! })) };
}

function assertSame(
  fresh: Float64Array,
  prepared: Float64Array,
  what: string,
  used: (i: number) => boolean,
): void {
  for (let i = 0; i < fresh.length; i++) {
    if (!used(i)) continue;
    const a = fresh[i]!;
    const b = prepared[i]!;
    if (Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(b))) {
      throw new AttentionError(
        'ATTENTION_STALE_ESTIMATE',
        `prepared estimate was made for ${what}[${i}] = ${b}, but the differentiable pass sees ${a}; ` +
          'prepare the estimates again after changing the inputs or the weights',
      );
    }
  }
}

/**
 * Each head's estimate: the prepared one (checked against the batch the differentiable pass
 * sees), or a synchronous call of the sampler.
 *
 * @throws {AttentionError} ATTENTION_STALE_ESTIMATE, ATTENTION_ASYNC_SAMPLER.
 */
export function headEstimates(batches: IsingBatch[], source: MagnetizationSource): BatchEstimate[] {
  const { prepared, sampler } = source;
  if (prepared !== undefined) {
    if (prepared.heads.length !== batches.length) {
      throw new AttentionError(
        'ATTENTION_STALE_ESTIMATE',
        `prepared estimates have ${prepared.heads.length} heads; the layer has ${batches.length}`,
      );
    }
    return batches.map((fresh, hd) => {
      const { batch, estimate } = prepared.heads[hd]!;
      if (batch.size !== fresh.size || batch.stride !== fresh.stride || batch.beta !== fresh.beta) {
        throw new AttentionError(
          'ATTENTION_STALE_ESTIMATE',
          `prepared estimate of head ${hd} is for ${batch.size} problems of stride ${batch.stride} at beta ${batch.beta}; ` +
            `the layer needs ${fresh.size} of stride ${fresh.stride} at beta ${fresh.beta}`,
        );
      }
      const s = fresh.stride;
      assertSame(
        fresh.fields,
        batch.fields,
        `head ${hd} fields`,
        (i) => i % s < fresh.spins[Math.floor(i / s)]!,
      );
      assertSame(
        fresh.couplings,
        batch.couplings,
        `head ${hd} couplings`,
        (i) => Math.floor(i / s) < i % s,
      );
      return estimate;
    });
  }
  return batches.map((batch) => {
    const result = estimateBatch(sampler, batch);
    if (isThenable(result)) {
      // Swallow the rejection of the promise we abandon; the caller gets the coded error below.
      Promise.resolve(result).catch(() => undefined);
      throw new AttentionError(
        'ATTENTION_ASYNC_SAMPLER',
        `sampler "${sampler.name}" answered asynchronously; use the async API (model.forward, trainer.step, evaluate) ` +
          'or pass prepared estimates',
      );
    }
    return result;
  });
}
