/**
 * One pre-LayerNorm block's forward on the arena, saving what its backward reads:
 * `x1 = x + drop(W_o · attention(LN1(x)))`, then `x2 = x1 + drop(FFN(LN2(x1)))`. The attention
 * weights are the masked softmax or sigmoid (the engine's kernels), or ising-core's causal op
 * through the pass's exchange (causalExchange.ts); an asynchronous sampler is awaited in the
 * middle of the pass.
 */
import { fieldsForward, headsForward } from './attentionHeads.js';
import { couplingsForward } from './couplingParams.js';
import type { BlockActs, DenseParams, NormActs, NormParams } from './engineTypes.js';
import { linearForward } from './linear.js';
import { dropping, fillMask, optionalParamAt, paramAt } from './passContext.js';
import type { PassContext } from './passContext.js';

/** The offset of the attention weights the heads read: dropped in a dropping pass. */
export function weightsRead(ctx: PassContext, a: BlockActs): number {
  return dropping(ctx) ? a.wDropped : a.w;
}

/** LN(x) into `norm` with the gain and shift `p` (a block's or the final). */
function normForward(ctx: PassContext, x: number, norm: NormActs, p: NormParams) {
  const { batch, length } = ctx.acts;
  ctx.k.layerNorm({
    rows: batch * length,
    cols: ctx.config.dModel,
    x,
    gamma: paramAt(ctx, p.gamma),
    ...(p.beta === undefined ? {} : { beta: paramAt(ctx, p.beta) }),
    y: norm.y,
    mean: norm.mean,
    rstd: norm.rstd,
  });
}

/** The linear map `p` (d → d unless `dims`) from `x` into `y`. */
function dense(
  ctx: PassContext,
  p: DenseParams,
  at: { x: number; y: number },
  dims?: [number, number],
) {
  const d = ctx.config.dModel;
  const [inDim, outDim] = dims ?? [d, d];
  linearForward(ctx.k, {
    rows: ctx.acts.batch * ctx.acts.length,
    inDim,
    outDim,
    x: at.x,
    w: paramAt(ctx, p.kernel),
    b: optionalParamAt(ctx, p.bias),
    y: at.y,
  });
}

/**
 * The causal op's weights of block `layer` (boltzmann, coupling), J first; `independent`
 * runs while the op does, where the exchange allows.
 */
async function causalWeights(
  ctx: PassContext,
  layer: number,
  a: BlockActs,
  independent: () => void,
) {
  const { maxLength, heads } = ctx.config;
  const { couplings } = ctx.params.blocks[layer]!;
  if (couplings !== undefined) {
    const sizes = { heads, length: ctx.acts.length, maxLength };
    const at = { param: paramAt(ctx, couplings), out: a.j };
    couplingsForward(ctx.k.f32(), ctx.form, sizes, at);
  }
  await ctx.exchange.forward(layer, independent);
}

/**
 * The attention sublayer: LN1, fields, weights, heads; its output (before W_o) in `a.o`. The
 * values and the weights' dropout mask do not depend on the weights: they are computed while the
 * causal op runs.
 */
async function attention(ctx: PassContext, layer: number, x: number) {
  const { acts, config } = ctx;
  const [a, p] = [acts.blocks[layer]!, ctx.params.blocks[layer]!];
  const { batch, length } = acts;
  const bhtt = batch * config.heads * length * length;
  normForward(ctx, x, a.norm1, p.norm1);
  if (p.fields !== undefined) {
    dense(ctx, p.fields.query, { x: a.norm1.y, y: a.q });
    dense(ctx, p.fields.key, { x: a.norm1.y, y: a.k });
  }
  const independent = () => {
    dense(ctx, p.value, { x: a.norm1.y, y: a.v });
    if (dropping(ctx)) fillMask(ctx, a.maskAttention, bhtt, layer, 'attention');
  };
  const shape = { batch, heads: config.heads, length, dModel: config.dModel };
  if (config.variant === 'coupling') ctx.k.f32().fill(0, a.h, a.h + bhtt);
  else fieldsForward(ctx.k, shape, { q: a.q, k: a.k, h: a.h, scratch: acts.scratch });
  if (config.variant === 'softmax' || config.variant === 'sigmoid') {
    const at = { h: a.h, w: a.w, blocks: batch * config.heads, length, beta: config.beta };
    if (config.variant === 'softmax') ctx.k.causalSoftmax(at);
    else ctx.k.causalSigmoid(at);
    independent();
  } else await causalWeights(ctx, layer, a, independent);
  if (dropping(ctx)) ctx.k.masked({ n: bhtt, x: a.w, mask: a.maskAttention, out: a.wDropped });
  headsForward(ctx.k, shape, { w: weightsRead(ctx, a), v: a.v, o: a.o });
}

/** Block `layer` from stream `layer` to stream `layer + 1`. */
export async function blockForward(ctx: PassContext, layer: number): Promise<void> {
  const { acts, config } = ctx;
  const [a, p] = [acts.blocks[layer]!, ctx.params.blocks[layer]!];
  const n = acts.batch * acts.length;
  const nd = n * config.dModel;
  const [x, out] = [acts.streams[layer]!, acts.streams[layer + 1]!];
  await attention(ctx, layer, x);
  const drop = dropping(ctx);
  dense(ctx, p.output, { x: a.o, y: acts.t1 });
  if (drop) fillMask(ctx, a.maskResidual1, nd, layer, 'attention/residual');
  const mask1 = drop ? a.maskResidual1 : -1;
  const { ffn } = p;
  ctx.k.residual({ n: nd, x, y: acts.t1, mask: mask1, out: ffn ? a.x1 : out });
  if (ffn === undefined) return;
  normForward(ctx, a.x1, a.norm2, ffn.norm2);
  const f = config.ffnHidden;
  linearForward(ctx.k, {
    rows: n,
    inDim: config.dModel,
    outDim: f,
    x: a.norm2.y,
    w: paramAt(ctx, ffn.hidden.kernel),
    b: -1,
    y: a.pre,
  });
  const { bias } = ffn.hidden;
  ctx.k.biasGelu({
    rows: n,
    cols: f,
    x: a.pre,
    bias: bias === undefined ? acts.zeros : paramAt(ctx, bias),
    y: a.hidden,
    cdf: a.cdf,
  });
  dense(ctx, ffn.output, { x: a.hidden, y: acts.t1 }, [f, config.dModel]);
  if (drop) fillMask(ctx, a.maskResidual2, nd, layer, 'ffn/residual');
  ctx.k.residual({ n: nd, x: a.x1, y: acts.t1, mask: drop ? a.maskResidual2 : -1, out });
}

export { normForward };
