/**
 * The engine's embedding: `x[n] = E[token_n] (+ P[position_n])` into an `N × d` stream, and its
 * backward, which scatters the stream's gradient into the rows of E (and P) it came from. Both
 * run in the element-wise module (elementwise.ts) on the tokens the pass wrote into the arena.
 */
import type { EngineKernels } from './engineKernels.js';
import type { PassContext } from './passContext.js';
import { gradAt, optionalGradAt, optionalParamAt, paramAt } from './passContext.js';

/** The pass's tokens and the tables' sizes, as both directions read them. */
function operands(ctx: PassContext) {
  const { acts, config } = ctx;
  return {
    tokens: acts.tokens,
    count: acts.batch * acts.length,
    length: acts.length,
    dModel: config.dModel,
    vocab: config.vocabSize,
  };
}

/** x = E[tokens] (+ P[0..T)) into `x`. */
export function embeddingForward(ctx: PassContext, x: number): void {
  const k: EngineKernels = ctx.k;
  const { token, position } = ctx.params.embedding;
  const [table, positions] = [paramAt(ctx, token), optionalParamAt(ctx, position)];
  k.embed({ ...operands(ctx), table, positions, x });
}

/** dE[token_n] += g[n] and dP[position_n] += g[n], from the stream's gradient at `g`. */
export function embeddingBackward(ctx: PassContext, g: number): void {
  const { token, position } = ctx.params.embedding;
  const [dTable, dPositions] = [gradAt(ctx, token), optionalGradAt(ctx, position)];
  ctx.k.embedBackward({ ...operands(ctx), g, dTable, dPositions });
}
