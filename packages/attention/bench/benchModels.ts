// The two reference models of the speed scripts (scripts/benchTraining.ts on tfjs,
// scripts/benchEngine.ts on the engine), their samplers, and a sampler wrapper that times them.
import {
  createRng,
  exactSampler,
  floorScaledInt,
  tapSampler,
  transferMatrixSampler,
} from '@boltzmann/ising-core';
import type { BatchEstimate, IsingBatch, Sampler } from '@boltzmann/ising-core';
import type { AttentionVariant, TokenBatch, TransformerConfig } from '../src/index.js';
import { scriptArg } from './scriptArgs.js';

/**
 * - `paper`: METHOD.md §5, 1 layer, 1 head, d_model 64, FFN 256, batch 64, T = 12.
 * - `paper-256`: the same model at T = 256, batch 4 (the 1,024 tokens a step of `bench
 *   shakespeare --preset long`, the long-context experiments' model).
 * - `baby`: nanoGPT's shakespeare_char CPU model, 4 layers × 4 heads, d_model 128, batch 12,
 *   T = 64, no biases, tied embeddings.
 * - `mqar-256`: `bench recall --preset paper --vocab-size 256` at T = 256 (the converged MQAR
 *   grid's longest runs): 2 layers, 1 head, d_model 64, attention only, batch 64, vocabulary 256,
 *   no biases, tied embeddings.
 */
export const BENCH_MODELS = {
  paper: {
    layers: 1,
    heads: 1,
    dModel: 64,
    ffnHidden: 256,
    batch: 64,
    length: 12,
    bias: true,
    tieEmbeddings: false,
    vocab: 65,
  },
  /** The paper model at the long-context experiment's longest length (issue 41's goal row). */
  'paper-256': {
    layers: 1,
    heads: 1,
    dModel: 64,
    ffnHidden: 256,
    batch: 4,
    length: 256,
    bias: true,
    tieEmbeddings: false,
    vocab: 65,
  },
  baby: {
    layers: 4,
    heads: 4,
    dModel: 128,
    ffnHidden: 512,
    batch: 12,
    length: 64,
    bias: false,
    tieEmbeddings: true,
    vocab: 65,
  },
  /** The converged MQAR grid's model at T = 256 (its ffnHidden is unused: no FFN). */
  'mqar-256': {
    layers: 2,
    heads: 1,
    dModel: 64,
    ffnHidden: 256,
    ffn: false,
    batch: 64,
    length: 256,
    bias: false,
    tieEmbeddings: true,
    vocab: 256,
  },
} as const;

/** A reference model's shape. */
export type BenchModel = (typeof BENCH_MODELS)[keyof typeof BENCH_MODELS];

/** The model of the `--model` flag (default `paper`); throws on any other name. */
export function benchModelArg(): { name: keyof typeof BENCH_MODELS; m: BenchModel } {
  const name = scriptArg('model', 'paper') as keyof typeof BENCH_MODELS;
  const m = BENCH_MODELS[name];
  if (m === undefined)
    throw new Error(`--model must be ${Object.keys(BENCH_MODELS).join(', ')}, got ${name}`);
  return { name, m };
}

/** Whether model `m` has its FFN (every model's but `mqar-256`, which is attention only). */
export function benchHasFfn(m: BenchModel): boolean {
  return !('ffn' in m) || m.ffn;
}

/** Batches of model `m`'s shape with fresh random tokens and targets, from one seeded stream. */
export function randomBatches(m: BenchModel, seed = 1): () => TokenBatch {
  const rng = createRng(seed);
  const tokens = () =>
    Int32Array.from({ length: m.batch * m.length }, () => floorScaledInt(rng, m.vocab));
  return () => ({ inputs: tokens(), targets: tokens(), batchSize: m.batch });
}

/** The configuration of reference model `m` in `variant` (sampler and couplings added by the caller). */
export function benchModelConfig(m: BenchModel, variant: AttentionVariant): TransformerConfig {
  return {
    vocabSize: m.vocab,
    maxLength: m.length,
    ffn: benchHasFfn(m),
    variant,
    layers: m.layers,
    heads: m.heads,
    dModel: m.dModel,
    ffnHidden: m.ffnHidden,
    bias: m.bias,
    tieEmbeddings: m.tieEmbeddings,
  };
}

/** A sampler of the speed scripts: exact, tap or transfer-matrix (bandwidth 8) on `threads`. */
export function benchSampler(
  name: string,
  threads: number,
  precision: 'float64' | 'float32' = 'float64',
): Sampler {
  if (name === 'exact') return exactSampler.create({ threads });
  if (name === 'tap') return tapSampler.create({ threads });
  if (name === 'transfer-matrix')
    return transferMatrixSampler.create({ bandwidth: 8, threads, precision });
  throw new Error(`--sampler must be exact, tap or transfer-matrix, got ${name}`);
}

/** Wraps a sampler to add up the wall time of its estimates and VJPs. */
export function timedSampler(inner: Sampler): { sampler: Sampler; take(): number } {
  let ms = 0;
  const sampler: Sampler = {
    name: inner.name,
    capabilities: inner.capabilities,
    dispose: () => inner.dispose?.(),
    estimate(batch: IsingBatch) {
      const t0 = performance.now();
      const e = inner.estimate!(batch) as BatchEstimate;
      ms += performance.now() - t0;
      return {
        ...e,
        vjp(g: Float64Array) {
          const t1 = performance.now();
          const out = e.vjp(g);
          ms += performance.now() - t1;
          return out;
        },
      };
    },
  };
  const take = (): number => {
    const spent = ms;
    ms = 0;
    return spent;
  };
  return { sampler, take };
}
