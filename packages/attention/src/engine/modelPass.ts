/**
 * The whole model's pass on the arena: embedding, blocks, final LayerNorm, head and the masked
 * cross-entropy, then the backward through all of them into the gradient buffer. The head is
 * tied (`logits = y Eᵀ`) or its own linear map, each with the optional bias.
 */
import { blockBackward, normBackward } from './blockBackward.js';
import { blockForward, normForward } from './blockForward.js';
import { embeddingBackward, embeddingForward } from './embedding.js';
import { linearBackward, linearForward } from './linear.js';
import {
  dropping,
  fillMask,
  gradAt,
  optionalGradAt,
  optionalParamAt,
  paramAt,
} from './passContext.js';
import type { PassContext } from './passContext.js';

function headForward(ctx: PassContext, y: number) {
  const { acts, config } = ctx;
  const rows = acts.batch * acts.length;
  const [d, v] = [config.dModel, config.outputSize];
  const { head, embedding } = ctx.params;
  const bias = optionalParamAt(ctx, head.bias);
  if (head.kernel !== undefined) {
    const w = paramAt(ctx, head.kernel);
    linearForward(ctx.k, { rows, inDim: d, outDim: v, x: y, w, b: bias, y: acts.logits });
    return;
  }
  if (bias >= 0) ctx.k.biasRows({ b: bias, y: acts.logits, rows, cols: v });
  const table = paramAt(ctx, embedding.token);
  ctx.k.gemm({
    layout: 'nt',
    m: rows,
    n: v,
    k: d,
    a: y,
    b: table,
    c: acts.logits,
    accumulate: bias >= 0,
    scratch: acts.scratch,
  });
}

function headBackward(ctx: PassContext, y: number, dy: number) {
  const { acts, config } = ctx;
  const rows = acts.batch * acts.length;
  const [d, v] = [config.dModel, config.outputSize];
  const { head, embedding } = ctx.params;
  const db = optionalGradAt(ctx, head.bias);
  if (head.kernel !== undefined) {
    const [w, dw] = [paramAt(ctx, head.kernel), gradAt(ctx, head.kernel)];
    const args = { rows, inDim: d, outDim: v, x: y, w, b: -1, dy: acts.logits, dx: dy, dw, db };
    linearBackward(ctx.k, { ...args, scratch: acts.scratch });
    return;
  }
  if (db >= 0) ctx.k.columnSums({ src: acts.logits, rows, cols: v, dst: db });
  const [table, dTable] = [paramAt(ctx, embedding.token), gradAt(ctx, embedding.token)];
  ctx.k.gemm({ m: rows, n: d, k: v, a: acts.logits, b: table, c: dy });
  const tn = { layout: 'tn' as const, m: v, n: d, k: rows, a: acts.logits, b: y, c: dTable };
  ctx.k.gemm({ ...tn, accumulate: true });
}

/** The logits of the tokens at `acts.tokens` into `acts.logits`, saving every activation. */
export async function modelForward(ctx: PassContext): Promise<void> {
  const { acts, config } = ctx;
  const nd = acts.batch * acts.length * config.dModel;
  const x0 = acts.streams[0]!;
  embeddingForward(ctx, x0);
  if (dropping(ctx)) {
    fillMask(ctx, acts.maskEmbedding, nd, 0, 'embedding');
    ctx.k.masked({ n: nd, x: x0, mask: acts.maskEmbedding, out: x0 });
  }
  for (let layer = 0; layer < config.layers; layer++) await blockForward(ctx, layer);
  normForward(ctx, acts.streams[config.layers]!, acts.finalNorm, ctx.params.head.finalNorm);
  headForward(ctx, acts.finalNorm.y);
}

/** The cross-entropy operands of a pass's activations. */
export function lossArgs(ctx: Pick<PassContext, 'acts' | 'config'>) {
  const { acts, config } = ctx;
  const { logits, targets, weights, stats } = acts;
  return {
    logits,
    rows: acts.batch * acts.length,
    classes: config.outputSize,
    targets,
    weights,
    stats,
  };
}

/**
 * The backward from the loss of the last forward against the targets and weights at
 * `acts.targets`/`acts.weights` (written by the caller): every parameter's gradient accumulated
 * into the pass's gradient buffer (zero it first). The loss is then `k.loss(lossArgs(ctx))`.
 */
export function modelBackward(ctx: PassContext): void {
  const { acts, config } = ctx;
  const rows = acts.batch * acts.length;
  ctx.k.crossEntropy(lossArgs(ctx));
  headBackward(ctx, acts.finalNorm.y, acts.t1);
  const last = acts.streams[config.layers]!;
  const at = { x: last, norm: acts.finalNorm, dy: acts.t1, dx: acts.g };
  normBackward(ctx, at, ctx.params.head.finalNorm);
  for (let layer = config.layers - 1; layer >= 0; layer--) blockBackward(ctx, layer);
  const nd = rows * config.dModel;
  if (dropping(ctx)) ctx.k.masked({ n: nd, x: acts.g, mask: acts.maskEmbedding, out: acts.g });
  embeddingBackward(ctx, acts.g);
}
