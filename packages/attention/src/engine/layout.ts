/**
 * Where everything lives in the engine's arena: the parameters as one flat buffer in the tfjs
 * model's canonical order (so one AdamW pass covers them all), and every activation a pass saves
 * for its backward at one batch size and length. Offsets are in floats, aligned to 4 (16 bytes).
 */
import { paramSpecs } from '../core/paramSpecs.js';
import type { ResolvedTransformerConfig } from '../core/transformerConfig.js';
import { usesSampler } from '../core/variants.js';
import type {
  ActivationLayout,
  BlockActs,
  NormActs,
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
  return { slots, size: alloc.end(), slot: (name) => byName.get(name) };
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
    };
  });
  const finalNorm = norm();
  const logits = take(n * v);
  const loss = { tokens: take(n), targets: take(n), weights: take(n), stats: take(3 * n) };
  const widest = Math.max(d * d, d * f, d * v, n * d, f);
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
