// The native transfer-matrix kernels (transfer.c) against the WAT ones (transfer.wat) on every
// ISA the CPU runs: the same seeded problems and arguments on two arenas (the WAT's scratch after
// the operands: the native kernels ignore those two trailing arguments), compared as written.
// Batches of 1, 3, 12 and 17 (lane groups of one length, of mixed lengths, padding lanes),
// windows 1–10, lengths up to 64, segmented VJPs, fields to |h| = 1e3 and the rows left to the
// caller. Tolerances are the references' (transferChecks.ts), relative to each output's largest
// |value|: the two round each window's sums differently (FMAs against two roundings, VW lanes
// against 4).
import { describe, expect } from 'vitest';
import { expectClose, itEveryIsa } from '../../../testing/nativeKernels.js';
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
        expect(leftWat, `rows left ${label}`).toBe(leftNative);
        if (fieldScale === 2) expect(leftWat).toBe(0);
        expectClose(pair, `w ${label}`, at.w, bhtt, 5e-7);
        expectClose(pair, `sums ${label}`, at.sums, c.batch * c.heads * c.length, 5e-7);
        const grads = [4 * at.gw, 4 * at.gh, 4 * at.gj, shape[4]!];
        pair.call('transfer_backward', ...args, ...grads, 4 * start, 4 * floats);
        expectClose(pair, `gh ${label}`, at.gh, bhtt, 4e-6);
        expectClose(pair, `gJ ${label}`, at.gj, c.heads * c.length ** 2, 4e-6);
      }
    }
  });
});
