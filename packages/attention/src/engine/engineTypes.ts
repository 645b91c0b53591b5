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

/*
 * The parameters as typed records, as llm.c's `ParameterTensors`: every field is a float offset
 * relative to the start of the parameter buffer, which is also where its gradient lies relative
 * to the start of a gradient buffer (the same layout). The shape is on each field; `d` is
 * `dModel`, `F` `ffnHidden`, `V` `vocabSize`, `L` `maxLength`, `H` `heads`. An optional field is
 * absent from some models (named on the field).
 */

/** A LayerNorm's gain and shift. */
export interface NormParams {
  /** [d] */
  readonly gamma: number;
  /** [d]; absent with `bias: false`. */
  readonly beta?: number | undefined;
}

/** A linear map `y = x·kernel + bias`. */
export interface DenseParams {
  /** [in, out] */
  readonly kernel: number;
  /** [out]; absent with `bias: false`. */
  readonly bias?: number | undefined;
}

/** The token and position tables. */
export interface EmbeddingParams {
  /** [V, d] (also the head's weights with `tieEmbeddings`) */
  readonly token: number;
  /** [L, d]; absent with `positions: 'none'`. */
  readonly position?: number | undefined;
}

/** The query and key maps, which make the fields `h = q·kᵀ/√d_k`. */
export interface FieldParams {
  /** [d, d] (+ [d]) */
  readonly query: DenseParams;
  /** [d, d] (+ [d]) */
  readonly key: DenseParams;
}

/** The feed-forward sublayer: LN2, then `output(gelu(hidden(x)))`. */
export interface FfnParams {
  readonly norm2: NormParams;
  /** [d, F] (+ [F]) */
  readonly hidden: DenseParams;
  /** [F, d] (+ [d]) */
  readonly output: DenseParams;
}

/** One block's parameters. */
export interface BlockParams {
  readonly norm1: NormParams;
  /** Absent in `coupling` (its fields are zero). */
  readonly fields?: FieldParams | undefined;
  /** [d, d] (+ [d]) */
  readonly value: DenseParams;
  /** [d, d] (+ [d]) */
  readonly output: DenseParams;
  /**
   * J's parameter: [H, L, L] (`full`, `banded:w`) or [H, L] (`relative`); absent in `softmax`
   * and `sigmoid`.
   */
  readonly couplings?: number | undefined;
  /** Absent with `ffn: false`. */
  readonly ffn?: FfnParams | undefined;
}

/** The final LayerNorm and the head. */
export interface HeadParams {
  readonly finalNorm: NormParams;
  /** [d, outputSize]; absent with `tieEmbeddings` (the head is `Eᵀ`). */
  readonly kernel?: number | undefined;
  /** [outputSize]; absent with `bias: false`. */
  readonly bias?: number | undefined;
}

/** Every parameter of the model, as records. */
export interface ModelParams {
  readonly embedding: EmbeddingParams;
  /** One per layer. */
  readonly blocks: readonly BlockParams[];
  readonly head: HeadParams;
}

/** The model's parameters as one flat buffer, and as records into it. */
export interface ParamLayout extends ModelParams {
  readonly slots: readonly ParamSlot[];
  /** Floats in the buffer (each slot aligned to 4 floats). */
  readonly size: number;
  /** The slot called `name`, or `undefined` when the model has no such parameter (by name: `Engine.view`). */
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
  /** Each causal row's `Σ α` (`B × H × T`; −1 for a row the sampler ran), kept by the transfer kernels for their backward (-1 without). */
  readonly sums: number;
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
  /** Scratch of the WebAssembly transfer-matrix kernels (`boltzmann` only, else −1) and its floats. */
  readonly transferScratch: number;
  readonly transferScratchFloats: number;
  /** `F` zeros (the FFN bias of a `bias: false` model) and `F` floats a discarded bias gradient goes to. */
  readonly zeros: number;
  readonly sink: number;
  /** Floats from the first activation to the end. */
  readonly size: number;
}
