import * as attention from '@boltzmann/attention';
import type { SamplerRegistry } from '@boltzmann/ising-core';
import { BenchError } from '../benchError.js';
import type { RunConfig } from '../types.js';
import type { TaskData, TrainBatch } from './taskData.js';

/** What the bench needs from a model and its trainer, whatever the attention package calls it. */
export interface Engine {
  step(batch: TrainBatch): Promise<number>;
  /** Mean loss and counts over the batches (loss weighted by counted positions). */
  evaluate(batches: readonly TrainBatch[]): Promise<{ loss: number; correct: number; count: number }>;
  /** Learned J of head 0 as T × T row-major, or null for variants without couplings. */
  couplings(): number[] | null;
  save(): unknown;
  restore(state: unknown): void;
  dispose(): void;
}

type AnyFn = (...args: any[]) => any;
const api = attention as unknown as Record<string, unknown>;

function need(name: string): AnyFn {
  const fn = api[name];
  if (typeof fn !== 'function') {
    throw new BenchError('BENCH_MISSING_API', `@boltzmann/attention does not export ${name}() yet; the bench cannot train`);
  }
  return fn as AnyFn;
}

let backendReady: Promise<unknown> | undefined;

/**
 * Builds the model and trainer of one run through `@boltzmann/attention`.
 *
 * @param config the run config.
 * @param data the run's data (vocabulary and output sizes).
 * @param registry the bench's frozen sampler registry.
 * @returns the engine.
 * @throws BENCH_MISSING_API when the attention package lacks an entry point; its own coded errors for bad configs.
 */
export async function createEngine(config: RunConfig, data: TaskData, registry: SamplerRegistry): Promise<Engine> {
  backendReady ??= Promise.resolve(need('initBackend')());
  await backendReady;
  const usesSampler = config.variant === 'boltzmann' || config.variant === 'coupling';
  const model = need('createTransformer')({
    vocabSize: data.vocabSize,
    outputSize: data.outputSize,
    maxLength: config.length,
    dModel: config.dModel,
    heads: config.heads,
    ffn: config.ffn,
    ffnHidden: config.ffnHidden,
    variant: config.variant,
    beta: config.beta,
    jInit: config.jInit === 0 ? 'zeros' : 'normal',
    jInitStd: config.jInit,
    seed: config.seed,
    ...(usesSampler ? { sampler: config.sampler, samplerOptions: config.samplerOptions, registry } : {}),
  });
  const trainer = need('createTrainer')(model, {
    lr: config.lr,
    minLrFraction: config.minLrFraction,
    totalSteps: config.steps,
    weightDecay: config.weightDecay,
    clipNorm: config.clipNorm,
  });
  const evaluate = need('evaluate');
  return {
    async step(batch) {
      const r = await trainer.step(batch);
      return r.loss as number;
    },
    async evaluate(batches) {
      let loss = 0;
      let correct = 0;
      let count = 0;
      for (const b of batches) {
        const r = await evaluate(model, b);
        loss += r.loss * r.count;
        correct += r.correct;
        count += r.count;
      }
      return { loss: count > 0 ? loss / count : Number.NaN, correct, count };
    },
    couplings() {
      if (!usesSampler) return null;
      const j = model.couplings();
      const first = Array.isArray(j) && j.length > 0 && typeof j[0] !== 'number' ? j[0] : j;
      return Array.from(first as ArrayLike<number>);
    },
    save: () => ({ model: model.toJSON(), trainer: trainer.saveState() }),
    restore(state) {
      const s = state as { model: unknown; trainer: unknown };
      model.loadJSON(s.model);
      trainer.restoreState(s.trainer);
    },
    dispose() {
      trainer.dispose?.();
      model.dispose?.();
    },
  };
}
