// The native transfer-matrix kernels (transfer.c) against the WAT ones (transfer.wat) on every
// ISA the CPU runs: the same seeded problems and arguments on two arenas (the WAT's scratch after
// the operands: the native kernels ignore those two trailing arguments), compared as written.
// Batches of 1, 3, 12 and 17 (lane groups of one length, of mixed lengths, padding lanes),
// windows 1–10, lengths up to 64, segmented VJPs, fields to |h| = 1e3 and the rows left to the
// caller (the native kernels' float64 pass takes rows the WAT leaves: rowsOnlyNativeTook). Tolerances are the references' (transferChecks.ts), relative to each output's largest
// |value|: the two round each window's sums differently (FMAs against two roundings, VW lanes
// against 4).
import { describe, expect } from 'vitest';
import { expectClose, itEveryIsa } from '../../../testing/nativeKernels.js';
import type { KernelPair } from '../../../testing/nativeKernels.js';
import { transferInputs } from '../../../testing/transferKernels.js';
import type { TransferCase } from '../../../testing/transferKernels.js';
import { transferScratchFloats } from '../../transfer.js';
import { wasmBase64 as shared } from './transferSharedWasm.generated.js';
import { wasmBase64 as plain } from './transferWasm.generated.js';

/** [batch, heads, length, window, segment] (segment 0: the default, the whole sweep here). */
const SHAPES: [number, number, number, number, number][] = [
  [1, 1, 64, 8, 0],
  [3, 2, 16, 1, 0],
  [3, 2, 16, 5, 0],
  [12, 1, 64, 10, 0],
  [12, 3, 9, 3, 0],
  [17, 2, 24, 8, 0],
  [17, 1, 33, 2, 0],
  [3, 1, 64, 6, 0],
  [5, 2, 40, 6, 5],
  [5, 2, 40, 6, 1],
];

const caseOf = ([batch, heads, length, window]: number[]): TransferCase => ({
  batch: batch!,
  heads: heads!,
  length: length!,
  window: window!,
  beta: 0.5 + window! / 8,
  fieldScale: 2,
  couplingScale: 0.4,
});

/** Where the scratch starts (16-aligned, after the operands) and its floats. */
function scratchOf(shape: number[]) {
  const c = caseOf(shape);
  const start = (transferInputs(c, 0).at.end + 3) & ~3;
  const segment = shape[4]!;
  const more = segment > 0 ? c.length * (8 * 2 ** c.window + 16) : 0;
  return { start, floats: transferScratchFloats(c.length, c.window) + more };
}

/**
 * The rows only the native kernels took (Σα below the WAT's e^−32, at least their float64 pass's
 * e^−256; checked against the references in transferNative.test.ts), made left in the native
 * arena as in the WAT's (w back to the WAT's, sums −1) so that the rest compares as written.
 * Returns their count.
 */
function rowsOnlyNativeTook(
  pair: KernelPair,
  at: { w: number; sums: number },
  c: TransferCase,
): number {
  const { wat, native } = pair.views();
  const t = c.length;
  let count = 0;
  for (let p = 0; p < c.batch * c.heads * t; p++) {
    if (wat[at.sums + p] !== -1 || native[at.sums + p] === -1) continue;
    expect(native[at.sums + p], `row ${p}: the float64 pass's mark`).toBe(-2);
    native.set(wat.subarray(at.w + p * t, at.w + (p + 1) * t), at.w + p * t);
    native[at.sums + p] = -1;
    count++;
  }
  return count;
}

/**
 * Each row's Σα as the WAT wrote it, but rows the native float64 pass took (sums −2, couplings
 * past its float32 pass's bound, 8 below W = 8: the WAT's own bound is 12) are only checked to be rows the
 * WAT took.
 */
function expectSums(pair: KernelPair, at: number, rows: number, what: string): void {
  const { wat, native } = pair.views();
  let diff = 0;
  let scale = 1e-30;
  for (let p = at; p < at + rows; p++) {
    if (native[p] === -2) {
      expect(wat[p], `${what}: row ${p - at}`).toBeGreaterThanOrEqual(0);
      continue;
    }
    diff = Math.max(diff, Math.abs(native[p]! - wat[p]!));
    scale = Math.max(scale, Math.abs(wat[p]!));
  }
  expect(diff / scale, `${what}: max |native − wat| ${diff} over ${scale}`).toBeLessThanOrEqual(
    5e-7,
  );
}

const FLOATS = Math.max(...SHAPES.map((s) => scratchOf(s).start + scratchOf(s).floats)) + 64;

describe('native transfer-matrix kernels against the WAT', () => {
  itEveryIsa('transfer_forward and transfer_backward', { plain, shared }, FLOATS, (pair) => {
    for (const [n, shape] of SHAPES.entries()) {
      const c = caseOf(shape);
      for (const fieldScale of [2, 1e3]) {
        const { at, h, j, gw } = transferInputs({ ...c, fieldScale }, 31 * n + 7);
        const { start, floats } = scratchOf(shape);
        const bhtt = c.batch * c.heads * c.length ** 2;
        pair.set(at.h, h);
        pair.set(at.j, j);
        pair.set(at.gw, gw);
        pair.set(at.w, new Float32Array(bhtt).fill(7));
        pair.set(at.gh, new Float32Array(bhtt).fill(5));
        const args = [4 * at.h, 4 * at.j, 4 * at.w, 4 * at.sums, c.batch, c.heads, c.length];
        args.push(c.window, c.beta);
        const [leftWat, leftNative] = pair.call('transfer_forward', ...args, 4 * start, 4 * floats);
        const label = `${shape.join(' ')}${fieldScale > 2 ? ', |h| to 1e3' : ''}`;
        const wide = rowsOnlyNativeTook(pair, at, c);
        expect(leftWat, `rows left ${label}`).toBe((leftNative ?? 0) + wide);
        if (fieldScale === 2) expect(leftWat).toBe(0);
        expectClose(pair, `w ${label}`, at.w, bhtt, 5e-7);
        expectSums(pair, at.sums, c.batch * c.heads * c.length, `sums ${label}`);
        const grads = [4 * at.gw, 4 * at.gh, 4 * at.gj, shape[4]!];
        pair.call('transfer_backward', ...args, ...grads, 4 * start, 4 * floats);
        expectClose(pair, `gh ${label}`, at.gh, bhtt, 4e-6);
        expectClose(pair, `gJ ${label}`, at.gj, c.heads * c.length ** 2, 4e-6);
      }
    }
  });
});
