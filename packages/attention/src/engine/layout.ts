/**
 * Where everything lives in the engine's arena: the parameters as one flat buffer in the tfjs
 * model's canonical order (so one AdamW pass covers them all), and every activation a pass saves
 * for its backward at one batch size and length. Offsets are in floats, aligned to 4 (16 bytes).
 */
import { AttentionError } from '../core/errors.js';
import { COUPLINGS, RELATIVE_COUPLINGS, layerName, paramSpecs } from '../core/paramSpecs.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfigTypes.js';
import { usesSampler } from '../core/variants.js';
import { transferPassScratchFloats } from './transfer.js';
import type {
  ActivationLayout,
  BlockActs,
  BlockParams,
  DenseParams,
  ModelParams,
  NormActs,
  NormParams,
  ParamLayout,
  ParamSlot,
} from './engineTypes.js';

const align = (n: number): number => (n + 3) & ~3;

/** A bump allocator of aligned float ranges from `base`. */
function bump(base: number): { take(size: number): number; end(): number } {
  let at = align(base);
  return {
    take(size) {
      const offset = at;
      at = align(at + size);
      return offset;
    },
    end: () => at,
  };
}

/** The flat parameter buffer of a configuration: every parameter of `paramSpecs`, in order. */
export function planParams(config: ResolvedTransformerConfig): ParamLayout {
  const alloc = bump(0);
  const slots: ParamSlot[] = paramSpecs(config).map((spec) => {
    const size = spec.shape.reduce((a, b) => a * b, 1);
    return {
      name: spec.name,
      shape: spec.shape,
      offset: alloc.take(size),
      size,
      decay: spec.decay,
    };
  });
  const byName = new Map(slots.map((s) => [s.name, s]));
  const records = paramRecords(slots, config.layers);
  return { ...records, slots, size: alloc.end(), slot: (name) => byName.get(name) };
}

/**
 * Takes slots by name, each once: `required` throws when the specs lack it, `optional` leaves the
 * field absent; a block's names are block 0's, renamed for the block at hand.
 */
interface Taker {
  has(name: string): boolean;
  optional(name: string): number | undefined;
  required(name: string): number;
}

const norm = (t: Taker, name: string): NormParams => ({
  gamma: t.required(`${name}/gamma`),
  beta: t.optional(`${name}/beta`),
});

const dense = (t: Taker, name: string): DenseParams => ({
  kernel: t.required(`${name}/kernel`),
  bias: t.optional(`${name}/bias`),
});

/*
 * The one table of the engine's parameter names (`norm`, `dense`, `block` and `model`): each
 * record field from its name in `paramSpecs`. Nothing else in the engine names a parameter.
 */
const block = (t: Taker): BlockParams => ({
  norm1: norm(t, 'block/norm1'),
  fields: t.has('attention/query/kernel')
    ? { query: dense(t, 'attention/query'), key: dense(t, 'attention/key') }
    : undefined,
  value: dense(t, 'attention/value'),
  output: dense(t, 'attention/output'),
  couplings: t.optional(COUPLINGS) ?? t.optional(RELATIVE_COUPLINGS),
  ffn: t.has('ffn/hidden/kernel')
    ? {
        norm2: norm(t, 'block/norm2'),
        hidden: dense(t, 'ffn/hidden'),
        output: dense(t, 'ffn/output'),
      }
    : undefined,
});

const model = (t: Taker, blocks: BlockParams[]): ModelParams => ({
  embedding: { token: t.required('embedding/token'), position: t.optional('embedding/position') },
  blocks,
  head: {
    finalNorm: norm(t, 'final/norm'),
    kernel: t.optional('head/kernel'),
    bias: t.optional('head/bias'),
  },
});

/**
 * The records of a model's slots (`paramSpecs` order) of `layers` blocks, built once. Throws
 * ATTENTION_INVALID_CONFIG when the specs lack a parameter the table requires or list one it
 * does not know (a misspelt or new name), instead of running without it.
 */
export function paramRecords(slots: readonly ParamSlot[], layers: number): ModelParams {
  const left = new Map(slots.map((s) => [s.name, s.offset]));
  const taker = (rename: (name: string) => string): Taker => ({
    has: (name) => left.has(rename(name)),
    optional(name) {
      const at = left.get(rename(name));
      left.delete(rename(name));
      return at;
    },
    required(name) {
      const at = this.optional(name);
      if (at !== undefined) return at;
      const message = `engine: the parameter specs lack "${rename(name)}", which the engine requires`;
      throw new AttentionError('ATTENTION_INVALID_CONFIG', message);
    },
  });
  const blocks = Array.from({ length: layers }, (_, layer) =>
    block(taker((name) => layerName(layer, name))),
  );
  const topLevel = taker((name) => name);
  const records = model(topLevel, blocks);
  if (left.size > 0) {
    const names = [...left.keys()].map((n) => `"${n}"`).join(', ');
    const message = `engine: no parameter record has a field for ${names} (engine/layout.ts)`;
    throw new AttentionError('ATTENTION_INVALID_CONFIG', message);
  }
  return records;
}

/** The activations of one pass of `batch` sequences of `length` tokens, from float `base`. */
export function planActivations(
  config: ResolvedTransformerConfig,
  batch: number,
  length: number,
  base: number,
): ActivationLayout {
  const { dModel: d, heads, ffnHidden: f, outputSize: v, layers, variant } = config;
  const n = batch * length;
  const bhtt = batch * heads * length * length;
  const dropout = config.dropout > 0;
  const alloc = bump(base);
  const take = (size: number, when = true): number => (when ? alloc.take(size) : -1);
  const norm = (when = true): NormActs => ({
    y: take(n * d, when),
    mean: take(n, when),
    rstd: take(n, when),
  });
  const streams = Array.from({ length: layers + 1 }, () => take(n * d));
  const maskEmbedding = take(n * d, dropout);
  const fields = variant !== 'coupling';
  const blocks: BlockActs[] = Array.from({ length: layers }, () => {
    const w = take(bhtt);
    return {
      norm1: norm(),
      q: take(n * d, fields),
      k: take(n * d, fields),
      v: take(n * d),
      h: take(bhtt),
      w,
      wDropped: dropout ? take(bhtt) : w,
      maskAttention: take(bhtt, dropout),
      maskResidual1: take(n * d, dropout),
      maskResidual2: take(n * d, dropout && config.ffn),
      o: take(n * d),
      x1: take(n * d, config.ffn),
      norm2: norm(config.ffn),
      pre: take(n * f, config.ffn),
      hidden: take(n * f, config.ffn),
      cdf: take(n * f, config.ffn),
      j: take(heads * length * length, variant !== 'softmax'),
      gj: take(heads * length * length, usesSampler(variant)),
      sums: take(batch * heads * length, variant === 'boltzmann'),
    };
  });
  const finalNorm = norm();
  const logits = take(n * v);
  const loss = { tokens: take(n), targets: take(n), weights: take(n), stats: take(3 * n) };
  const widest = Math.max(d * d, d * f, d * v, n * d, f);
  const transferFloats = variant === 'boltzmann' ? transferPassScratchFloats(length) : 0;
  const grads = {
    g: take(n * d),
    t1: take(n * d),
    t2: take(n * d),
    gq: take(n * d),
    gk: take(n * d),
    gv: take(n * d),
    gh: take(bhtt),
    gw: take(bhtt),
    gHidden: take(n * f, config.ffn),
    scratch: take(widest),
    transferScratch: take(transferFloats, transferFloats > 0),
    transferScratchFloats: transferFloats,
    zeros: take(f, config.ffn),
    sink: take(f, config.ffn),
  };
  return {
    batch,
    length,
    streams,
    maskEmbedding,
    blocks,
    finalNorm,
    logits,
    ...loss,
    ...grads,
    size: alloc.end() - base,
  };
}
