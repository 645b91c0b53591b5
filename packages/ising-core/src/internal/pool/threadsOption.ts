// The `threads` option of the threaded samplers: its type, how a plugin separates it from its
// other options, and the batch sizes at which `'auto'` uses more than one thread.
import type { SamplerOptionSpec } from '../../types.js';

/**
 * The `threads` option of the `mean-field`, `tap` and `transfer-matrix` plugins.
 *
 * @category Runtime
 */
export interface ThreadsOption {
  /**
   * Threads per estimate and VJP: `'auto'` (default) uses every core once the batch is large
   * enough to pay (mean-field, tap: `Σ n² ≥ 2^15`; transfer-matrix: `Σ n ≥ 2^14` at bandwidth
   * ≤ 1, `Σ n · 2^w ≥ 2^20` window-state steps from bandwidth 2), the calling thread below; a
   * positive integer forces that many (1 = no pool workers), at most the core count. Results
   * equal the one-thread run (`∂L/∂J` up to summation order).
   */
  readonly threads?: 'auto' | number;
}

/** The `threads` option as data, for the threaded plugins' `options`. */
export const THREADS_OPTION: SamplerOptionSpec = {
  name: 'threads',
  type: "'auto' | number",
  default: "'auto'",
  doc: "Threads per estimate and VJP: 'auto' uses every core once the batch is large enough to pay; a number forces that many, at most the core count.",
};

// Measured on 2 cores, forward + VJP (bench/threadedSamplers.bench.ts; figures in docs/benchmarks/ising-core.md): a second
// thread costs about 0.3 ms per call (copies, posting, waking), so it loses below these sizes.
/** Smallest `Σ n²` at which `'auto'` runs mean-field or tap on more than one thread (1 × 48 pays 1.4×, 1 × 32 breaks even). */
export const FIXED_POINT_AUTO_MIN_COST = 2 ** 15;
/** Smallest `Σ n` at which `'auto'` runs a bandwidth ≤ 1 transfer matrix on more than one thread (8 × 64 pays 1.1×, 6 × 64 loses). */
export const TRANSFER_AUTO_MIN_COST = 2 ** 14;

/**
 * Separates `threads` from a plugin's other options (which its own validator then checks); a
 * value that is not a plain options object passes through unchanged for that validator to refuse.
 */
export function splitThreadsOption<T>(options: T): { threads: unknown; rest: T } {
  if (
    options === null ||
    typeof options !== 'object' ||
    Array.isArray(options) ||
    !('threads' in options)
  )
    return { threads: undefined, rest: options };
  const { threads, ...rest } = options as T & ThreadsOption;
  return { threads, rest: rest as T };
}
