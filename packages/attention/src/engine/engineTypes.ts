// The engine's shapes, a leaf every engine module reads: where each parameter and each saved
// activation lives in the arena (float offsets), and the sizes of one pass.

/** One parameter in the flat parameter buffer (canonical order, the tfjs model's names). */
export interface ParamSlot {
  readonly name: string;
  readonly shape: readonly number[];
  /** Float offset of its first value, relative to the start of the parameter buffer. */
  readonly offset: number;
  readonly size: number;
  /** Whether decoupled weight decay applies. */
  readonly decay: boolean;
}

/**
 * A run of the flat parameter buffer the optimizer updates in one kernel call: a whole slot, or
 * the part of one a thread takes (cut at a multiple of 4 floats).
 */
export type ParamRun = Pick<ParamSlot, 'offset' | 'size' | 'decay'>;

/** The model's parameters as one flat buffer. */
export interface ParamLayout {
  readonly slots: readonly ParamSlot[];
  /** Floats in the buffer (each slot aligned to 4 floats). */
  readonly size: number;
  /** The slot called `name`, or `undefined` when the model has no such parameter. */
  slot(name: string): ParamSlot | undefined;
}

/** A LayerNorm's saved output and row statistics. */
export interface NormActs {
  readonly y: number;
  readonly mean: number;
  readonly rstd: number;
}

/** What one block's forward saves for its backward (absolute float offsets; -1 when absent). */
export interface BlockActs {
  readonly norm1: NormActs;
  /** Query and key projections `N × d` (absent in `coupling`). */
  readonly q: number;
  readonly k: number;
  readonly v: number;
  /** Fields `h = q·k/√d_k`, `B × H × T × T`. */
  readonly h: number;
  /** Attention weights before and after dropout, `B × H × T × T` (the same offset without dropout). */
  readonly w: number;
  readonly wDropped: number;
  /** Dropout masks of the attention weights and the two residual branches (-1 without dropout). */
  readonly maskAttention: number;
  readonly maskResidual1: number;
  readonly maskResidual2: number;
  /** Heads' outputs concatenated, `N × d`. */
  readonly o: number;
  /** The stream after the attention residual, `N × d` (the FFN's input; -1 without FFN). */
  readonly x1: number;
  readonly norm2: NormActs;
  /** FFN pre-activation (no bias) and GELU output, `N × F`. */
  readonly pre: number;
  readonly hidden: number;
  /** Φ(pre + b), saved by the GELU forward for its backward, `N × F`. */
  readonly cdf: number;
  /** The block's effective couplings `H × T × T` (zeros in sigmoid) and their gradient (-1 without J). */
  readonly j: number;
  readonly gj: number;
}

/** Every activation and scratch buffer of one pass at one batch size and length. */
export interface ActivationLayout {
  readonly batch: number;
  readonly length: number;
  /** `L + 1` residual streams `N × d`: the embedding output, then each block's output. */
  readonly streams: readonly number[];
  readonly maskEmbedding: number;
  readonly blocks: readonly BlockActs[];
  readonly finalNorm: NormActs;
  /** Logits `N × V`, overwritten by their gradient in the backward. */
  readonly logits: number;
  /** The pass's tokens (int32), the loss's targets (int32), row weights and per-row statistics (3 floats a row). */
  readonly tokens: number;
  readonly targets: number;
  readonly weights: number;
  readonly stats: number;
  /** Gradient buffers: the residual stream's, two `N × d` temporaries, q/k/v's, the fields'/weights'. */
  readonly g: number;
  readonly t1: number;
  readonly t2: number;
  readonly gq: number;
  readonly gk: number;
  readonly gv: number;
  readonly gh: number;
  readonly gw: number;
  readonly gHidden: number;
  /** Scratch of the `nt` GEMMs. */
  readonly scratch: number;
  /** `F` zeros (the FFN bias of a `bias: false` model) and `F` floats a discarded bias gradient goes to. */
  readonly zeros: number;
  readonly sink: number;
  /** Floats from the first activation to the end. */
  readonly size: number;
}
