/**
 * One block's backward on the arena: from `acts.g = ∂L/∂x_{ℓ+1}` to `acts.g = ∂L/∂x_ℓ`,
 * accumulating every parameter's gradient. The reverse of blockForward.ts, sublayer by sublayer.
 */
import { fieldsBackward, headsBackward } from './attentionHeads.js';
import { weightsRead } from './blockForward.js';
import { couplingsBackward } from './couplingParams.js';
import type { BlockActs, DenseParams, FfnParams, NormActs, NormParams } from './engineTypes.js';
import { linearBackward } from './linear.js';
import { dropping, gradAt, optionalGradAt, paramAt } from './passContext.js';
import type { PassContext } from './passContext.js';

/** LN backward of `norm` (input `x`, parameters `p`) from `dy`: dx into `dx`, gain and shift gradients accumulated. */
export function normBackward(
  ctx: PassContext,
  at: { x: number; norm: NormActs; dy: number; dx: number },
  p: NormParams,
) {
  const { batch, length } = ctx.acts;
  ctx.k.layerNormBackward({
    rows: batch * length,
    cols: ctx.config.dModel,
    x: at.x,
    gamma: paramAt(ctx, p.gamma),
    mean: at.norm.mean,
    rstd: at.norm.rstd,
    dy: at.dy,
    dx: at.dx,
    dGamma: gradAt(ctx, p.gamma),
    ...(p.beta === undefined ? {} : { dBeta: gradAt(ctx, p.beta) }),
  });
}

/**
 * The backward of the linear map `p` (d → d unless `dims`): `part` `'dx'` or `'dw'` alone (the
 * weight gradients can wait for the causal op), or both.
 */
function dense(
  ctx: PassContext,
  p: DenseParams,
  at: { x: number; dy: number; dx: number; accumulateDx?: boolean },
  dims?: [number, number],
  part: 'dx' | 'dw' | 'both' = 'both',
) {
  const d = ctx.config.dModel;
  const [inDim, outDim] = dims ?? [d, d];
  linearBackward(ctx.k, {
    rows: ctx.acts.batch * ctx.acts.length,
    inDim,
    outDim,
    ...at,
    dx: part === 'dw' ? -1 : at.dx,
    w: paramAt(ctx, p.kernel),
    b: -1,
    dw: part === 'dx' ? -1 : gradAt(ctx, p.kernel),
    db: optionalGradAt(ctx, p.bias),
    scratch: ctx.acts.scratch,
  });
}

/** The residual branch's gradient `g ⊙ mask` in `t1` (or `g` itself without dropout). */
function branchGradient(ctx: PassContext, mask: number): number {
  const { acts } = ctx;
  if (!dropping(ctx)) return acts.g;
  const nd = acts.batch * acts.length * ctx.config.dModel;
  ctx.k.masked({ n: nd, x: acts.g, mask, out: acts.t1 });
  return acts.t1;
}

/** `g += t2` over the stream. */
function addIntoStream(ctx: PassContext) {
  const { acts } = ctx;
  const nd = acts.batch * acts.length * ctx.config.dModel;
  ctx.k.residual({ n: nd, x: acts.g, y: acts.t2, mask: -1, out: acts.g });
}

/**
 * The FFN's backward, but for its hidden layer's weight gradient, which it returns as work for
 * later (it reads the saved LN2 output and `gHidden`, which nothing writes until the next block).
 */
function ffnBackward(ctx: PassContext, p: FfnParams, a: BlockActs): () => void {
  const { acts, config } = ctx;
  const [n, f] = [acts.batch * acts.length, config.ffnHidden];
  const gf = branchGradient(ctx, a.maskResidual2);
  dense(ctx, p.output, { x: a.hidden, dy: gf, dx: acts.gHidden }, [f, config.dModel]);
  const { bias } = p.hidden;
  ctx.k.biasGeluBackward({
    rows: n,
    cols: f,
    x: a.pre,
    bias: bias === undefined ? acts.zeros : paramAt(ctx, bias),
    cdf: a.cdf,
    dy: acts.gHidden,
    dx: acts.gHidden,
    dBias: bias === undefined ? acts.sink : gradAt(ctx, bias),
  });
  const hidden = {
    rows: n,
    inDim: config.dModel,
    outDim: f,
    x: a.norm2.y,
    dy: acts.gHidden,
    w: paramAt(ctx, p.hidden.kernel),
    b: -1,
    db: -1,
    scratch: acts.scratch,
  };
  linearBackward(ctx.k, { ...hidden, dx: acts.t1, dw: -1 });
  normBackward(ctx, { x: a.x1, norm: a.norm2, dy: acts.t1, dx: acts.t2 }, p.norm2);
  addIntoStream(ctx);
  const dw = gradAt(ctx, p.hidden.kernel);
  return () => linearBackward(ctx.k, { ...hidden, dx: -1, dw });
}

/** ∂L/∂h (and ∂L/∂J) from ∂L/∂w in `acts.gw`; `independent` runs beside the causal op. */
function weightsBackward(ctx: PassContext, layer: number, a: BlockActs, independent: () => void) {
  const { acts, config } = ctx;
  const { batch, length } = acts;
  if (config.variant === 'softmax' || config.variant === 'sigmoid') {
    const blocks = batch * config.heads;
    const at = { w: a.w, gw: acts.gw, gh: acts.gh, blocks, length, beta: config.beta };
    if (config.variant === 'softmax') ctx.k.causalSoftmaxBackward(at);
    else ctx.k.causalSigmoidBackward({ ...at, h: a.h }); // J is unused: no gradient
    independent();
    return;
  }
  ctx.exchange.backward(layer, independent);
  const { couplings } = ctx.params.blocks[layer]!;
  if (couplings === undefined) return;
  const sizes = { heads: config.heads, length, maxLength: config.maxLength };
  couplingsBackward(ctx.k.f32(), ctx.form, sizes, { gj: a.gj, grad: gradAt(ctx, couplings) });
}

/**
 * The attention sublayer's backward. What does not need ∂L/∂h (the weight gradients of W_o, of
 * the values and of `deferred`, and the values' input gradient) runs beside the causal op.
 */
function attentionBackward(ctx: PassContext, layer: number, deferred: () => void) {
  const { acts, config } = ctx;
  const [a, p] = [acts.blocks[layer]!, ctx.params.blocks[layer]!];
  const shape = {
    batch: acts.batch,
    heads: config.heads,
    length: acts.length,
    dModel: config.dModel,
  };
  const ga = branchGradient(ctx, a.maskResidual1);
  const output = { x: a.o, dy: ga, dx: acts.t2 };
  dense(ctx, p.output, output, undefined, 'dx');
  const x = a.norm1.y;
  const independent = () => {
    dense(ctx, p.output, output, undefined, 'dw'); // before t1 (maybe ga) is overwritten
    dense(ctx, p.value, { x, dy: acts.gv, dx: acts.t1 });
    deferred();
  };
  const w = weightsRead(ctx, a);
  headsBackward(ctx.k, shape, {
    w,
    v: a.v,
    go: acts.t2,
    gw: acts.gw,
    gv: acts.gv,
    scratch: acts.scratch,
  });
  if (dropping(ctx)) {
    const bhtt = acts.batch * config.heads * acts.length * acts.length;
    ctx.k.masked({ n: bhtt, x: acts.gw, mask: a.maskAttention, out: acts.gw });
  }
  weightsBackward(ctx, layer, a, independent);
  if (p.fields !== undefined) {
    fieldsBackward(ctx.k, shape, { q: a.q, k: a.k, gh: acts.gh, gq: acts.gq, gk: acts.gk });
    dense(ctx, p.fields.query, { x, dy: acts.gq, dx: acts.t1, accumulateDx: true });
    dense(ctx, p.fields.key, { x, dy: acts.gk, dx: acts.t1, accumulateDx: true });
  }
  const input = acts.streams[layer]!;
  normBackward(ctx, { x: input, norm: a.norm1, dy: acts.t1, dx: acts.t2 }, p.norm1);
  addIntoStream(ctx);
}

/** Block `layer`'s backward: `acts.g` from ∂L/∂x_{ℓ+1} to ∂L/∂x_ℓ. */
export function blockBackward(ctx: PassContext, layer: number): void {
  const { ffn } = ctx.params.blocks[layer]!;
  const a = ctx.acts.blocks[layer]!;
  const deferred = ffn ? ffnBackward(ctx, ffn, a) : () => {};
  attentionBackward(ctx, layer, deferred);
}
