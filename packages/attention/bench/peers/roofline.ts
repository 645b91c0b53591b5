// The roofline of the goals scripts/benchPeers.ts misses, from the figures of the same run: what
// the engine's work costs at 100 % of its backend's peak (native FMA or wasm f32x4) measured
// beside it, against the time each goal allows. Pure (no I/O), so a test checks the arithmetic without a benchmark run.
import type { BenchEngineFigure, TwinFigure } from './peerTable.js';

/** PyTorch's own products at the paper's shapes (`bench/peers/torch_gemm.py`). */
export interface TorchGemmFigure {
  readonly threads: number;
  readonly capability: string;
  /** The rate over all of the paper step's products: their flops over their summed time. */
  readonly gflops: number;
}

/** torch_gemm.py's JSON line, or undefined. */
export function parseTorchGemm(text: string): TorchGemmFigure | undefined {
  for (const line of text.trim().split('\n').reverse()) {
    if (!line.startsWith('{')) continue;
    try {
      const v = JSON.parse(line) as Partial<TorchGemmFigure>;
      if (typeof v.gflops === 'number' && Number.isFinite(v.gflops)) return v as TorchGemmFigure;
    } catch {
      // not its line
    }
  }
  return undefined;
}

const ms = (x: number): string => `${x.toFixed(2)} ms`;

/** The least ratios of the one-core paper goals the roofline prices (default: issue 26's). */
export interface OneCoreGoals {
  readonly softmax: number;
  readonly boltzmann: number;
}

/**
 * The one-core paper goals against the roofline: the engine's matrix work at 100 % of the peak
 * measured beside it (`softmax` must carry benchEngine.ts's one-thread split figures; the peak is
 * its backend's own, `peakName`, wasm f32x4 when unnamed), the time each goal allows (the twin's
 * step over the goal's ratio), and the twin's own GEMM rate. Lines to print; none when the
 * figures are missing.
 */
export function oneCoreRoofline(
  softmax: BenchEngineFigure | undefined,
  twins: { softmax?: TwinFigure | undefined; boltzmann?: TwinFigure | undefined },
  torchGemm: TorchGemmFigure | undefined,
  goals: OneCoreGoals = { softmax: 1, boltzmann: 2 },
): string[] {
  const { matrixGflop, peakGflops, otherMs, peakName = 'f32x4' } = softmax ?? {};
  if (matrixGflop === undefined || peakGflops === undefined || otherMs === undefined) return [];
  const floor = (1000 * matrixGflop) / peakGflops;
  const lines = [
    `roofline of the one-core paper goals: the step's matrix work, ${matrixGflop.toFixed(3)} GFLOP, takes ${ms(floor)} at 100 % of the ${peakGflops.toFixed(1)} GFLOP/s ${peakName} peak measured beside it`,
  ];
  if (twins.softmax) {
    const allowed = twins.softmax.msPerStep / goals.softmax;
    const left = allowed - floor;
    const head = `- softmax ≥ ${goals.softmax.toFixed(1)}× the twin: the twin's step is ${ms(twins.softmax.msPerStep)}, so a step of ${ms(allowed)}`;
    lines.push(
      left <= 0
        ? `${head}, below the matrix work's ${ms(floor)} alone: out of reach at this peak whatever the rest costs`
        : `${head}, which leaves ${ms(left)} for everything but the matrix work; that takes ${ms(otherMs)} here (the other kernels, JavaScript)${left < otherMs ? `, so the goal needs it ${(otherMs / left).toFixed(1)}× faster with every GEMM at 100 %` : ''}`,
    );
  }
  if (twins.boltzmann) {
    const allowed = twins.boltzmann.msPerStep / goals.boltzmann;
    lines.push(
      `- boltzmann ≥ ${goals.boltzmann.toFixed(1)}× the twin: a step of ${ms(allowed)}, ${allowed < floor ? `below the matrix work's ${ms(floor)} alone: out of reach at this peak whatever the sampler and the rest cost` : `above the matrix work's ${ms(floor)}`}`,
    );
  }
  const lanes = peakName.startsWith('native') ? '' : ' (wasm SIMD has 4 float lanes)';
  if (torchGemm)
    lines.push(
      `- the twin's own products at these shapes (${torchGemm.threads} thread, ${torchGemm.capability.replace(/^- /, '')}): ${torchGemm.gflops.toFixed(1)} GFLOP/s, ${(torchGemm.gflops / peakGflops).toFixed(2)}× the ${peakName} peak${lanes}`,
    );
  return lines;
}

/**
 * Flops per window state of a banded transfer-matrix pass (window W: 2^W states a position, the
 * coupling at distance W in the transition, so each state has two predecessors with their own
 * weights), forward and VJP:
 * - `kernel`: ising-core's transfer.wat as written: 12 for the magnetizations, 48 for the VJP.
 * - `fewest`: what any forward–backward pass over the window states must do, recomputing the
 *   forward's messages in the VJP. Forward: the two recursions, 3.5 each (two products and their
 *   sum; the query's field multiplies half the states, the other half's factor folded into the
 *   position's normalization), and the magnetization read-out (a multiply-add), 9 in all. VJP:
 *   the two recursions again (7), their tangents (5.5 each: the recursion, its field half, and
 *   the multiply-add of the source term, 11), the read-out of ∂L/∂h (α′β + αβ′ accumulated with
 *   its sign, 4) and the accumulation of that product for ∂L/∂J (1): 23. 32 in all, the pair at
 *   distance W not counted: its ∂L/∂J reads the transitions, not the states (the engine's kernels
 *   spend 12 flops a state on its six sums, transferVjpForward.h's third state loop), so the
 *   printed line says so.
 * - `kept`: the VJP reading the forward's two messages back from memory instead (16 bytes a
 *   state, written and read) and doing the other 16 flops; with the forward's 9, 25.
 */
export const TRANSFER_FLOPS_PER_STATE = { kernel: 60, fewest: 32, kept: 25 } as const;
/** Bytes a state the `kept` variant moves: two float32 messages, written in the forward and read in the VJP. */
export const KEPT_BYTES_PER_STATE = 16;

/** A model's shape for the transfer-matrix roofline. */
export interface TransferShape {
  readonly layers: number;
  readonly heads: number;
  readonly batch: number;
  readonly length: number;
  /** The window: couplings up to this distance (banded:W); 2^W states per position. */
  readonly window: number;
}

/**
 * The transfer-matrix goal (its step ≤ 1.5× the engine's softmax step) against both cores'
 * roofs: the window states of a step (every query's chain of 1 … T positions, 2^W states each,
 * on every layer, head and sequence), and the time at 100 % of `peakGflops` of today's kernel and
 * of the fewest flops an exact pass needs, or (keeping the forward's messages) the larger of its
 * flops at the peak and its bytes at `bandwidth` (GB/s), against the half softmax step the goal
 * allows the whole causal op. With the measured transfer-matrix step (`boltzmannMs`), also what
 * today's kernel achieved: its flops over the step's excess on the softmax step (an upper bound
 * of the causal op's time, so a lower bound of the kernel's GFLOP/s).
 */
export function transferRoofline(
  shape: TransferShape,
  softmaxMs: number | undefined,
  roofs: { readonly peakGflops: number; readonly bandwidth: number },
  boltzmannMs?: number,
): string[] {
  if (softmaxMs === undefined) return [];
  const { layers, heads, batch, length, window } = shape;
  const { peakGflops, bandwidth } = roofs;
  const states = layers * heads * batch * ((length * (length + 1)) / 2) * 2 ** window;
  const at = (flops: number) => (states * flops) / peakGflops / 1e6;
  const allowed = softmaxMs / 2;
  const share = (x: number) => `${((100 * x) / allowed).toFixed(0)} % of what the goal allows`;
  const { kernel, fewest, kept } = TRANSFER_FLOPS_PER_STATE;
  const moved = (states * KEPT_BYTES_PER_STATE) / bandwidth / 1e6;
  const keptMs = Math.max(at(kept), moved);
  const excess = boltzmannMs === undefined ? 0 : boltzmannMs - softmaxMs;
  const achieved = (states * kernel) / excess / 1e6;
  const measured =
    excess > 0
      ? [
          `- measured: the causal op took at most ${ms(excess)} a step (the transfer-matrix step less the softmax step), so today's kernel ran at ≥ ${achieved.toFixed(1)} GFLOP/s, ${((100 * achieved) / peakGflops).toFixed(0)} % of both cores' peak`,
        ]
      : [];
  return [
    `roofline of the transfer-matrix goal: ${(states / 1e6).toFixed(1)} M window states a step; the goal allows the whole causal op ${ms(allowed)} (half the softmax step); both cores give ${peakGflops.toFixed(1)} GFLOP/s and ${bandwidth.toFixed(1)} GB/s`,
    `- today's kernel, ${kernel} flops a state: ${ms(at(kernel))} at 100 % of the peak, ${share(at(kernel))}`,
    `- the fewest flops an exact pass needs, ${fewest} a state without the read-out of the coupling at distance W (the engine's kernels spend 12 a state on it: transferVjpForward.h's third state loop): ${ms(at(fewest))}, ${share(at(fewest))}`,
    `- keeping the forward's messages, ${kept} flops and ${KEPT_BYTES_PER_STATE} bytes a state: ${ms(at(kept))} of flops, ${ms(moved)} of memory traffic; at best (both roofs at once) ${ms(keptMs)}, ${share(keptMs)}`,
    ...measured,
  ];
}
