/**
 * The transfer-matrix kernels' test kit (src/engine/kernels/transfer/): one seeded problem set run
 * through either backend's kernels (native transfer.c of one ISA, or the WAT module), and the
 * slow references they are held to: ising-core's transfer-matrix sampler in float64 (itself tested
 * against enumeration) and brute-force enumeration of all 2^n states of short rows.
 */
import {
  causalBatch,
  causalWeightsFromEstimate,
  estimateTransferMatrix,
} from '@boltzmann/ising-core';
import { createArena, instantiateEngineModule } from '../engine/arena.js';
import { wasmBase64 as shared } from '../engine/kernels/transfer/transferSharedWasm.generated.js';
import { wasmBase64 as plain } from '../engine/kernels/transfer/transferWasm.generated.js';
import type { NativeAddon } from '../engine/native/nativeAddon.js';
import { transferScratchFloats } from '../engine/transfer.js';
import { seededFloats } from './nativeKernels.js';

/** One call's shape and the scales of its random inputs. */
export interface TransferCase {
  readonly batch: number;
  readonly heads: number;
  readonly length: number;
  readonly window: number;
  readonly beta: number;
  /** Scale of the fields (uniform in ±scale) and of the band couplings. */
  readonly fieldScale: number;
  readonly couplingScale: number;
  /** Edits the seeded inputs in place before they are written (fields `B × H × T × T`, couplings `H × T × T`). */
  readonly prepare?: (inputs: { h: Float32Array; j: Float32Array }) => void;
  /** Rows whose fields are all at most this have Σα far below e^−32: the kernels must leave them. */
  readonly leftBelow?: number;
}

/**
 * What a backend's kernels take, by their own rule: a row runs when each of its keys' β Σ|J| (its
 * band both ways, to the row's own keys) is at most `step`, every W + 1 consecutive keys' 2β Σ at
 * most `window`, its fields are finite and its Σα is not too small; every row whose fields are all
 * at most `leftBelow` has Σα far below that. Natively `float32` is the float32 pass's rule within
 * it (rows it takes get sums = Σα; the float64 pass's get TAKEN_WIDE, −2).
 */
export interface TransferBounds {
  readonly step: number;
  readonly window: number;
  /** Every coupling's β|J| at most this (the WAT's; natively only the float32 pass has one). */
  readonly pair?: number;
  readonly leftBelow: number;
  readonly float32?: { readonly step: number; readonly window: number; readonly pair?: number };
}

/** The WAT kernels (float32 only; Σα ≥ e^−32; every coupling's β|J| ≤ 1.5, as the native float32 pass). */
export const WAT_BOUNDS: TransferBounds = { step: 12, window: 250, pair: 1.5, leftBelow: -40 };

/**
 * The native kernels: the float64 pass's bounds (transferWide.c; Σα ≥ e^−256), with the float32
 * pass's (transfer.c) inside them: each key's β Σ|J| ≤ 12 (8 until 7 Dec 2026) and every coupling's
 * β|J| ≤ 1.5. Read off scripts/transferPrecision.ts (every key scaled to a β Σ|J|, W = 3 … 12):
 * float32 rows within 3.7e-6 of the head's largest ∂L/∂h, float64 rows within 6e-8, to 39.
 */
export const NATIVE_BOUNDS: TransferBounds = {
  step: 40,
  window: 600,
  leftBelow: -180,
  float32: { step: 12, window: 250, pair: 1.5 },
};

/** What a run wrote (and its inputs), each as its own array. */
export interface TransferRun {
  readonly left: number;
  readonly h: Float32Array;
  readonly j: Float32Array;
  readonly gw: Float32Array;
  readonly w: Float32Array;
  readonly sums: Float32Array;
  readonly gh: Float32Array;
  readonly gj: Float32Array;
}

/** Runs both kernels on case `c` from `seed`; `segment` > 0 sets the VJP's segment length (tests only). */
export type TransferRunner = (c: TransferCase, seed: number, segment?: number) => TransferRun;

/** Banded couplings (`heads × T × T`, strict upper triangle within `window`). */
function bandedCouplings(c: TransferCase, seed: number): Float32Array {
  const { heads, length: t, window: w } = c;
  const raw = seededFloats(heads * t * t, seed, c.couplingScale);
  const j = new Float32Array(heads * t * t);
  for (let hd = 0; hd < heads; hd++)
    for (let r = 0; r < t; r++)
      for (let k = r + 1; k <= Math.min(t - 1, r + w); k++)
        j[(hd * t + r) * t + k] = raw[(hd * t + r) * t + k]!;
  return j;
}

/** The float offsets of a case's operands (odd, so rows start off any vector alignment) and the floats they end at. */
export function transferOperands(c: TransferCase) {
  const { batch, heads, length: t } = c;
  const bhtt = batch * heads * t * t;
  const htt = heads * t * t;
  const h = 3;
  const j = 5 + bhtt;
  const w = 7 + bhtt + htt;
  const sums = 9 + 2 * bhtt + htt;
  const gw = sums + batch * heads * t + 11;
  const gh = gw + bhtt + 13;
  const gj = gh + bhtt + 15;
  return { h, j, w, sums, gw, gh, gj, end: gj + htt + 16 };
}

/** A case's seeded inputs and where they go. */
export function transferInputs(c: TransferCase, seed: number) {
  const bhtt = c.batch * c.heads * c.length ** 2;
  const h = seededFloats(bhtt, seed, c.fieldScale);
  const j = bandedCouplings(c, seed + 1);
  const gw = seededFloats(bhtt, seed + 2);
  c.prepare?.({ h, j });
  return { at: transferOperands(c), h, j, gw };
}

/** Writes a case's inputs into `f` (stale 7s where w goes: above each row's keys they must be zeroed). */
function writeInputs(f: Float32Array, c: TransferCase, seed: number) {
  const inputs = transferInputs(c, seed);
  const { at } = inputs;
  f.set(inputs.h, at.h);
  f.set(inputs.j, at.j);
  f.set(inputs.gw, at.gw);
  f.fill(7, at.w, at.w + c.batch * c.heads * c.length ** 2);
  return inputs;
}

type Kernel = (...args: number[]) => number | undefined;

/** Both kernels called on `f` through `forward`/`backward` with `extra` arguments after each list. */
function runOn(
  f: () => Float32Array,
  c: TransferCase,
  seed: number,
  kernels: { forward: Kernel; backward: Kernel; extra: number[] },
  segment: number,
): TransferRun {
  const { at, h, j, gw } = writeInputs(f(), c, seed);
  const { batch, heads, length: t, window: w, beta } = c;
  const args = [4 * at.h, 4 * at.j, 4 * at.w, 4 * at.sums, batch, heads, t, w, beta];
  const left = kernels.forward(...args, ...kernels.extra)!;
  kernels.backward(...args, 4 * at.gw, 4 * at.gh, 4 * at.gj, segment, ...kernels.extra);
  const bhtt = batch * heads * t * t;
  const view = (o: number, n: number) => f().slice(o, o + n);
  return {
    left,
    h,
    j,
    gw,
    w: view(at.w, bhtt),
    sums: view(at.sums, batch * heads * t),
    gh: view(at.gh, bhtt),
    gj: view(at.gj, heads * t * t),
  };
}

/** The native kernels of `isa`, on a Float32Array of their own. */
export function nativeTransferRunner(addon: NativeAddon, isa: string): TransferRunner {
  return (c, seed, segment = 0) => {
    const f = new Float32Array(transferOperands(c).end + 64);
    const k = addon.bind(new Uint8Array(f.buffer), isa);
    const kernels = { forward: k.transfer_forward!, backward: k.transfer_backward!, extra: [] };
    return runOn(() => f, c, seed, kernels, segment);
  };
}

/**
 * The WAT kernels on an arena of their own (plain or shared), with the scratch the length and
 * window need after the operands (and room for a checkpoint per position with a `segment`).
 */
export function watTransferRunner(options: { shared?: boolean } = {}): TransferRunner {
  return (c, seed, segment = 0) => {
    const start = (transferOperands(c).end + 3) & ~3;
    const states = 2 ** c.window;
    // Segments of any length keep at most a checkpoint and a segment block per position more.
    const more = segment > 0 ? c.length * (8 * states + 16) : 0;
    const scratch = transferScratchFloats(c.length, c.window) + more;
    const memory = createArena(start + scratch, { shared: options.shared ?? false });
    const k = instantiateEngineModule({ plain, shared }, memory, 'transfer') as Record<
      string,
      Kernel
    >;
    const kernels = {
      forward: k.transfer_forward!,
      backward: k.transfer_backward!,
      extra: [4 * start, 4 * scratch],
    };
    return runOn(() => new Float32Array(memory.buffer), c, seed, kernels, segment);
  };
}

/**
 * The float64 reference of head `hd`: ising-core's transfer matrix on the same float32 inputs.
 * Rows `kept` says no to (by problem index) are left out of the loss (their gw is 0) and their
 * non-finite fields read as 0, so ∂L/∂J is the kept rows' alone.
 */
export function isingReference(
  c: TransferCase,
  run: TransferRun,
  hd: number,
  kept: (problem: number) => boolean = () => true,
) {
  const { batch, heads, length: t } = c;
  const tt = t * t;
  const fields = new Float64Array(batch * tt);
  const grad = new Float64Array(batch * tt);
  for (let b = 0; b < batch; b++) {
    const at = (b * heads + hd) * tt;
    fields.set(
      run.h.subarray(at, at + tt).map((x) => (Number.isFinite(x) ? x : 0)),
      b * tt,
    );
    grad.set(run.gw.subarray(at, at + tt), b * tt);
    for (let i = 0; i < t; i++)
      if (!kept((b * heads + hd) * t + i)) grad.fill(0, b * tt + i * t, b * tt + (i + 1) * t);
  }
  const ising = causalBatch(
    fields,
    Float64Array.from(run.j.subarray(hd * tt, (hd + 1) * tt)),
    { batch, length: t },
    c.beta,
  );
  const op = causalWeightsFromEstimate(
    ising,
    estimateTransferMatrix(ising, { bandwidth: c.window }),
  );
  return { weights: op.weights, ...op.backward(grad) };
}

/** max |a − b| / max |b|. */
export function relativeError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let err = 0;
  let scale = 1e-30;
  for (let i = 0; i < b.length; i++) {
    err = Math.max(err, Math.abs(a[i]! - b[i]!));
    scale = Math.max(scale, Math.abs(b[i]!));
  }
  return err / scale;
}
