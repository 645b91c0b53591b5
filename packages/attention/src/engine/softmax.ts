/**
 * The engine's causal softmax and sigmoid kernels over the arena (kernels/softmax/softmaxWat.mjs):
 * over `rows` rows of T × T blocks (row r is query r mod T), `w = softmax_j(β h)` over keys j ≤ i
 * and zero above, and the backward `gh = β w (gw − Σ w gw)`; the sigmoid variant's
 * `w = α / Σα`, `α = σ(2β h)` (ising-core's `causalClosedForm('sigmoid')`: a row whose float64
 * Σα would be below 1e-300 gets zero weights), and its backward
 * `gh = 2β w (gw − Σ w gw) (1 − α)`. Offsets in floats.
 */
import { engineCount, engineFits, instantiateEngineModule } from './arena.js';
import type { EngineMemory } from './arena.js';
import type { KernelBackend } from './native/engineBackend.js';
import { wasmBase64 as sharedBase64 } from './kernels/softmax/softmaxSharedWasm.generated.js';
import { wasmBase64 } from './kernels/softmax/softmaxWasm.generated.js';

interface SoftmaxExports {
  causal_softmax(...args: number[]): void;
  causal_softmax_backward(...args: number[]): void;
  causal_sigmoid(...args: number[]): void;
  causal_sigmoid_backward(...args: number[]): void;
}

/** The operands of a forward over `blocks` T × T blocks (T = `length`). */
export interface CausalForwardArgs {
  h: number;
  w: number;
  blocks: number;
  length: number;
  beta: number;
}

/** The causal softmax and sigmoid kernels bound to one arena. */
export interface SoftmaxKernels {
  /** w = causal softmax(β h) over `blocks` T × T blocks. */
  causalSoftmax(a: CausalForwardArgs): void;
  /** gh = β w (gw − Σ w gw) (gh may be gw). */
  causalSoftmaxBackward(a: {
    w: number;
    gw: number;
    gh: number;
    blocks: number;
    length: number;
    beta: number;
  }): void;
  /** w = α / Σα, α = σ(2β h), over `blocks` T × T blocks. */
  causalSigmoid(a: CausalForwardArgs): void;
  /** gh = 2β w (gw − Σ w gw) (1 − α) from the forward's h and w (gh may be gw). */
  causalSigmoidBackward(a: CausalForwardArgs & { gw: number; gh: number }): void;
}

/** Instantiates the causal softmax and sigmoid kernels on `memory`. */
export function createSoftmaxKernels(
  memory: EngineMemory,
  backend?: KernelBackend,
): SoftmaxKernels {
  const k = instantiateEngineModule(
    { plain: wasmBase64, shared: sharedBase64 },
    memory,
    'softmax',
    backend,
  ) as SoftmaxExports;
  const sized = (name: string, a: { blocks: number; length: number }, offsets: number[]) => {
    const t = engineCount(name, 'length', a.length);
    const rows = engineCount(name, 'blocks', a.blocks) * t;
    const arena = memory.buffer.byteLength >>> 2;
    for (const at of offsets) engineFits(name, 'operand', at, rows * t, arena);
    return { rows, t };
  };
  return {
    causalSoftmax(a) {
      const { rows, t } = sized('causalSoftmax', a, [a.h, a.w]);
      k.causal_softmax(4 * a.h, 4 * a.w, rows, t, a.beta);
    },
    causalSoftmaxBackward(a) {
      const { rows, t } = sized('causalSoftmaxBackward', a, [a.w, a.gw, a.gh]);
      k.causal_softmax_backward(4 * a.w, 4 * a.gw, 4 * a.gh, rows, t, a.beta);
    },
    causalSigmoid(a) {
      const { rows, t } = sized('causalSigmoid', a, [a.h, a.w]);
      k.causal_sigmoid(4 * a.h, 4 * a.w, rows, t, a.beta);
    },
    causalSigmoidBackward(a) {
      const { rows, t } = sized('causalSigmoidBackward', a, [a.h, a.w, a.gw, a.gh]);
      k.causal_sigmoid_backward(4 * a.h, 4 * a.w, 4 * a.gw, 4 * a.gh, rows, t, a.beta);
    },
  };
}
