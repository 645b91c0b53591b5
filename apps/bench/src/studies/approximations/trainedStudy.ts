import { loadTransformer } from '@boltzmann/attention';
import type { TransformerJSON } from '@boltzmann/attention';
import { createRng, estimateBatch } from '@boltzmann/ising-core';
import type { BatchEstimate, IsingBatch, Sampler } from '@boltzmann/ising-core';
import type { TinyShakespeare } from '@boltzmann/datasets';
import type { RunConfig } from '../../types.js';
import { bandedBatch, discardedMass } from './banding.js';
import { compareEstimates, compareSampler } from './compareEstimates.js';
import type { EstimateError } from './compareEstimates.js';

/** A model saved by `bench … --save-models`. */
export interface SavedModel {
  readonly id: string;
  readonly config: RunConfig;
  readonly model: TransformerJSON;
}

/** One comparison on a trained model's real attention problems. */
export interface TrainedRow extends EstimateError {
  readonly run: string;
  readonly T: number;
  readonly seed: number;
  /** `mean-field`, `tap`, or `banded w=…` (exact inference on J cut to bandwidth w). */
  readonly method: string;
  /** Share of |J| a banded method drops (0 for the dense samplers). */
  readonly discardedMass: number;
  readonly missed: number;
  readonly problems: number;
}

/**
 * The Ising problems a trained model builds on the fixed validation windows: its real fields
 * and learned J (head 0), captured from the model's own `prepare`.
 */
export async function trainedBatch(
  saved: SavedModel,
  corpus: TinyShakespeare,
  windows: number,
): Promise<IsingBatch> {
  const T = saved.config.length;
  const model = loadTransformer(saved.model);
  try {
    const { inputs } = corpus.validationWindows(T, windows, 1234);
    const prepared = await model.prepare(inputs, windows);
    const head = prepared?.heads[0];
    if (!head) throw new Error(`model ${saved.id} has no Ising attention head`);
    return head.batch;
  } finally {
    model.dispose();
  }
}

/**
 * Compares the dense approximations and banded exact inference with exact enumeration on a
 * trained model's problems. `banded(batch)` must be an exact sampler for banded J (the
 * transfer matrix); each bandwidth below T − 1 is compared with the full-J exact answer.
 */
export function trainedStudy(
  saved: SavedModel,
  batch: IsingBatch,
  exact: Sampler,
  samplers: readonly Sampler[],
  banded: { sampler: (w: number) => Sampler; widths: readonly number[] } | undefined,
): TrainedRow[] {
  const T = saved.config.length;
  const grng = createRng(saved.config.seed + 77);
  const grad = Float64Array.from({ length: batch.size * batch.stride }, () => grng.normal());
  const base = { run: saved.id, T, seed: saved.config.seed, problems: batch.size };
  const rows: TrainedRow[] = samplers.map((s) => ({
    ...base,
    method: s.name,
    discardedMass: 0,
    ...compareSampler(batch, exact, s, grad),
    missed: (estimateBatch(s, batch) as BatchEstimate).diagnostics?.missed ?? 0,
  }));
  if (banded) {
    const reference = estimateBatch(exact, batch) as BatchEstimate;
    for (const w of banded.widths.filter((x) => x < T - 1)) {
      const cut = bandedBatch(batch, w);
      const approx = estimateBatch(banded.sampler(w), cut) as BatchEstimate;
      rows.push({
        ...base,
        method: `banded w=${w}`,
        discardedMass: discardedMass(batch, w),
        ...compareEstimates(batch, reference, approx, grad),
        missed: 0,
      });
    }
  }
  return rows;
}
