/**
 * The engine's fused element-wise kernels over the same arena as its GEMMs: bias + GELU forward
 * and backward on a row-major rows × cols float32 matrix with a per-column bias, every operand a
 * float offset into the caller's WebAssembly memory. The GELU is the exact one of the tfjs model,
 * `½ u (1 + erf(u/√2))`; the kernels are generated as WAT by
 * kernels/elementwise/elementwiseWat.mjs (f32x4), with erf and exp by the float32 rational and
 * polynomial approximations of kernels/vectorMathWat.mjs.
 */
import { AttentionError } from '../core/errors.js';
import { engineCount, engineFits, instantiateEngineModule } from './arena.js';
import type { EngineMemory } from './arena.js';
import type { KernelBackend } from './native/engineBackend.js';
import { wasmBase64 as sharedBase64 } from './kernels/elementwise/elementwiseSharedWasm.generated.js';
import { wasmBase64 } from './kernels/elementwise/elementwiseWasm.generated.js';

interface ElementwiseExports {
  bias_gelu(...args: number[]): void;
  bias_gelu_save(...args: number[]): void;
  bias_gelu_backward(...args: number[]): void;
  bias_gelu_backward_saved(...args: number[]): void;
  residual(...args: number[]): void;
  masked(...args: number[]): void;
  scale(...args: number[]): void;
  column_sums(...args: number[]): void;
  embed(...args: number[]): void;
  embed_backward(...args: number[]): void;
  bias_rows(...args: number[]): void;
}

/**
 * The embedding's operands: `count` int32 tokens at float offset `tokens`, rows of `dModel`
 * floats, and the position table (`positions` −1 for none) indexed by `i mod length`.
 */
export interface EmbedArgs {
  readonly tokens: number;
  readonly count: number;
  readonly length: number;
  readonly dModel: number;
  readonly table: number;
  readonly positions: number;
  readonly x: number;
}

/**
 * y = gelu(x + b): x and y rows × cols (contiguous), b cols; float offsets (y may equal x).
 * With `cdf` (rows × cols), Φ(x + b) is saved there for the backward.
 */
export interface BiasGeluArgs {
  readonly rows: number;
  readonly cols: number;
  readonly x: number;
  readonly bias: number;
  readonly y: number;
  readonly cdf?: number;
}

/** dx = dy · gelu'(x + b) and dBias += Σ_rows dx; float offsets (dx may equal dy). */
export interface BiasGeluBackwardArgs {
  readonly rows: number;
  readonly cols: number;
  readonly x: number;
  readonly bias: number;
  readonly dy: number;
  readonly dx: number;
  readonly dBias: number;
  /** Φ(x + b) as the forward saved it (skips computing erf again). */
  readonly cdf?: number;
}

/** The embedding's backward: the gradient rows `g` into the tables' gradients `dTable`, `dPositions`. */
export interface EmbedBackwardArgs extends Omit<EmbedArgs, 'x' | 'table' | 'positions'> {
  readonly vocab: number;
  readonly g: number;
  readonly dTable: number;
  readonly dPositions: number;
}

/** The engine's element-wise kernels bound to one arena. */
export interface ElementwiseKernels {
  /** The arena the kernels work on. */
  readonly memory: EngineMemory;
  /** y = gelu(x + b); throws `ATTENTION_INVALID_ARGUMENT` / `ATTENTION_SHAPE_MISMATCH`. */
  biasGelu(args: BiasGeluArgs): void;
  /** The backward of {@link ElementwiseKernels.biasGelu}; dBias is accumulated (+=). */
  biasGeluBackward(args: BiasGeluBackwardArgs): void;
  /** out = x + y ⊙ mask over n floats (`mask` −1: out = x + y); out may be x or y. */
  residual(args: { x: number; y: number; mask: number; out: number; n: number }): void;
  /** out = x ⊙ mask over n floats (out may be x). */
  masked(args: { x: number; mask: number; out: number; n: number }): void;
  /**
   * out = by · x over n floats, `by` rounded to float32 (out may be x); throws
   * `ATTENTION_INVALID_ARGUMENT` unless `by` is finite.
   */
  scale(args: { x: number; out: number; n: number; by: number }): void;
  /** dst += Σ_rows src over a rows × cols matrix. */
  columnSums(args: { src: number; rows: number; cols: number; dst: number }): void;
  /** x[i] = E[tokens[i]] (+ P[i mod length]); the tokens must be below the table's rows. */
  embed(args: EmbedArgs & { readonly vocab: number }): void;
  /** dE[tokens[i]] += g[i] (and dP[i mod length] += g[i]), in token order. */
  embedBackward(args: EmbedBackwardArgs): void;
  /** Every row of the rows × cols matrix `y` set to the `cols` floats at `b`. */
  biasRows(args: { b: number; y: number; rows: number; cols: number }): void;
}

/** The embedding's gather and scatter-add and the bias rows: copies and adds of whole rows. */
function rowCopyKernels(
  k: ElementwiseExports,
  memory: EngineMemory,
): Pick<ElementwiseKernels, 'embed' | 'embedBackward' | 'biasRows'> {
  /** Checks the embedding's tables and tokens; returns the token count, d and the arena size. */
  const embedShape = (name: string, a: EmbedArgs & { vocab: number }) => {
    const count = engineCount(name, 'count', a.count);
    const d = engineCount(name, 'dModel', a.dModel);
    const length = engineCount(name, 'length', a.length);
    const arena = memory.buffer.byteLength >>> 2;
    engineFits(name, 'tokens', a.tokens, count, arena);
    engineFits(name, 'table', a.table, a.vocab * d, arena);
    if (a.positions >= 0) engineFits(name, 'positions', a.positions, length * d, arena);
    return [count, d, arena] as const;
  };
  return {
    embed(a) {
      const [count, d, arena] = embedShape('embed', a);
      engineFits('embed', 'x', a.x, count * d, arena);
      const pos = a.positions >= 0 ? 1 : 0;
      k.embed(
        4 * a.tokens,
        4 * a.table,
        4 * Math.max(0, a.positions),
        4 * a.x,
        count,
        a.length,
        d,
        pos,
      );
    },
    embedBackward(a) {
      const tables = { ...a, table: a.dTable, positions: a.dPositions, x: 0 };
      const [count, d, arena] = embedShape('embedBackward', tables);
      engineFits('embedBackward', 'g', a.g, count * d, arena);
      const pos = a.dPositions >= 0 ? 1 : 0;
      const dPositions = 4 * Math.max(0, a.dPositions);
      k.embed_backward(4 * a.tokens, 4 * a.g, 4 * a.dTable, dPositions, count, a.length, d, pos);
    },
    biasRows(a) {
      const rows = engineCount('biasRows', 'rows', a.rows);
      const cols = engineCount('biasRows', 'cols', a.cols);
      const arena = memory.buffer.byteLength >>> 2;
      engineFits('biasRows', 'b', a.b, cols, arena);
      engineFits('biasRows', 'y', a.y, rows * cols, arena);
      k.bias_rows(4 * a.b, 4 * a.y, rows, cols);
    },
  };
}

/** Instantiates the element-wise kernels on `memory` (made by `createArena`); synchronous. */
export function createElementwiseKernels(
  memory: EngineMemory,
  backend?: KernelBackend,
): ElementwiseKernels {
  const k = instantiateEngineModule(
    { plain: wasmBase64, shared: sharedBase64 },
    memory,
    'element-wise',
    backend,
  ) as ElementwiseExports;
  const shape = (name: string, a: { rows: number; cols: number }) => {
    const rows = engineCount(name, 'rows', a.rows);
    const cols = engineCount(name, 'cols', a.cols);
    return { rows, cols, arena: memory.buffer.byteLength >>> 2 };
  };
  return {
    ...rowCopyKernels(k, memory),
    memory,
    biasGelu(a) {
      const { rows, cols, arena } = shape('biasGelu', a);
      for (const [name, size] of [
        ['x', rows * cols],
        ['bias', cols],
        ['y', rows * cols],
      ] as const)
        engineFits('biasGelu', name, a[name], size, arena);
      if (a.cdf === undefined) k.bias_gelu(4 * a.x, 4 * a.bias, 4 * a.y, 0, rows, cols);
      else {
        engineFits('biasGelu', 'cdf', a.cdf, rows * cols, arena);
        k.bias_gelu_save(4 * a.x, 4 * a.bias, 4 * a.y, 4 * a.cdf, rows, cols);
      }
    },
    residual(a) {
      const n = engineCount('residual', 'n', a.n);
      const arena = memory.buffer.byteLength >>> 2;
      for (const name of ['x', 'y', 'out'] as const)
        engineFits('residual', name, a[name], n, arena);
      if (a.mask >= 0) engineFits('residual', 'mask', a.mask, n, arena);
      k.residual(4 * a.x, 4 * a.y, 4 * Math.max(0, a.mask), 4 * a.out, n, a.mask >= 0 ? 1 : 0);
    },
    masked(a) {
      const n = engineCount('masked', 'n', a.n);
      const arena = memory.buffer.byteLength >>> 2;
      for (const name of ['x', 'mask', 'out'] as const)
        engineFits('masked', name, a[name], n, arena);
      k.masked(4 * a.x, 4 * a.mask, 4 * a.out, n);
    },
    scale(a) {
      const n = engineCount('scale', 'n', a.n);
      const arena = memory.buffer.byteLength >>> 2;
      for (const name of ['x', 'out'] as const) engineFits('scale', name, a[name], n, arena);
      if (!Number.isFinite(a.by))
        throw new AttentionError(
          'ATTENTION_INVALID_ARGUMENT',
          `scale: by must be a finite number, got ${String(a.by)}`,
        );
      k.scale(4 * a.x, 4 * a.out, n, a.by);
    },
    columnSums(a) {
      const { rows, cols, arena } = shape('columnSums', a);
      engineFits('columnSums', 'src', a.src, rows * cols, arena);
      engineFits('columnSums', 'dst', a.dst, cols, arena);
      k.column_sums(4 * a.src, rows, cols, 4 * a.dst);
    },
    biasGeluBackward(a) {
      const { rows, cols, arena } = shape('biasGeluBackward', a);
      const n = rows * cols;
      const sizes = { x: n, bias: cols, dy: n, dx: n, dBias: cols } as const;
      for (const [name, size] of Object.entries(sizes) as [keyof typeof sizes, number][])
        engineFits('biasGeluBackward', name, a[name], size, arena);
      if (a.cdf !== undefined) engineFits('biasGeluBackward', 'cdf', a.cdf, n, arena);
      const run = a.cdf === undefined ? k.bias_gelu_backward : k.bias_gelu_backward_saved;
      run(4 * a.x, 4 * a.bias, 4 * (a.cdf ?? 0), 4 * a.dy, 4 * a.dx, 4 * a.dBias, rows, cols);
    },
  };
}
