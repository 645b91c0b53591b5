// The embedding's gather and scatter-add and the bias rows, against float64 loops on random
// tokens (repeats included), widths that are not multiples of four, with and without positions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAttentionError } from '../core/errors.js';
import { createElementwiseKernels } from './elementwise.js';
import { createArena } from './gemm.js';
import { testKernelBackend } from '../testing/engineBackend.js';

const kernels = createElementwiseKernels(createArena(1 << 16), testKernelBackend());
const view = () => new Float32Array(kernels.memory.buffer);

const problem = fc.record({
  vocab: fc.integer({ min: 1, max: 9 }),
  length: fc.integer({ min: 1, max: 5 }),
  sequences: fc.integer({ min: 1, max: 3 }),
  d: fc.integer({ min: 1, max: 19 }),
  positions: fc.boolean(),
  seed: fc.integer(),
});

type Problem = typeof problem extends fc.Arbitrary<infer P> ? P : never;

/** The arena laid out as tokens, E, P, x/g (and a guard float after each), filled at random. */
function layout(p: Problem) {
  const count = p.sequences * p.length;
  const tokens = 0;
  const table = count + 1;
  const positions = table + p.vocab * p.d + 1;
  const x = positions + p.length * p.d + 1;
  const end = x + count * p.d + 1;
  let s = p.seed >>> 0;
  const mem = view();
  for (let i = 0; i < end; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    mem[i] = (s / 2 ** 32 - 0.5) * 4;
  }
  const ints = new Int32Array(kernels.memory.buffer);
  for (let i = 0; i < count; i++) ints[tokens + i] = ((s + i * 7) % p.vocab) >>> 0;
  const at = { tokens, table, positions: p.positions ? positions : -1, x, count, end };
  return { ...at, before: mem.slice(0, end), tokenIds: Array.from(ints.subarray(0, count)) };
}

describe('engine embedding kernels', () => {
  it('embed: x[i] = E[token i] (+ P[i mod T]), nothing else written', () => {
    fc.assert(
      fc.property(problem, (p) => {
        const l = layout(p);
        const args = { ...l, length: p.length, dModel: p.d, vocab: p.vocab };
        kernels.embed(args);
        const out = view();
        for (let i = 0; i < l.count; i++)
          for (let c = 0; c < p.d; c++) {
            const e = l.before[l.table + l.tokenIds[i]! * p.d + c]!;
            const pos = p.positions ? l.before[l.positions + (i % p.length) * p.d + c]! : 0;
            expect(out[l.x + i * p.d + c]).toBe(Math.fround(e + pos));
          }
        expect(out[l.end - 1]).toBe(l.before[l.end - 1]);
        expect(out.slice(0, l.x)).toEqual(l.before.slice(0, l.x));
      }),
      { seed: 7, numRuns: 80 },
    );
  });

  it('embedBackward: every row of g added into its token row (and position row), in order', () => {
    fc.assert(
      fc.property(problem, (p) => {
        const l = layout(p);
        const [dTable, dPositions, g] = [l.table, l.positions, l.x];
        kernels.embedBackward({
          ...l,
          g,
          dTable,
          dPositions,
          length: p.length,
          dModel: p.d,
          vocab: p.vocab,
        });
        const want = Float64Array.from(l.before);
        for (let i = 0; i < l.count; i++)
          for (let c = 0; c < p.d; c++) {
            const gi = l.before[g + i * p.d + c]!;
            want[dTable + l.tokenIds[i]! * p.d + c] = Math.fround(
              want[dTable + l.tokenIds[i]! * p.d + c]! + gi,
            );
            if (p.positions) {
              const at = dPositions + (i % p.length) * p.d + c;
              want[at] = Math.fround(want[at]! + gi);
            }
          }
        expect(view().slice(0, l.end)).toEqual(Float32Array.from(want));
      }),
      { seed: 8, numRuns: 80 },
    );
  });

  it('biasRows: every row is the bias, the row after is untouched', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 19 }), (rows, cols) => {
        const mem = view();
        mem.fill(9, 0, cols + rows * cols + 2);
        for (let j = 0; j < cols; j++) mem[j] = j - 0.5;
        kernels.biasRows({ b: 0, y: cols + 1, rows, cols });
        for (let i = 0; i < rows; i++)
          for (let j = 0; j < cols; j++) expect(mem[cols + 1 + i * cols + j]).toBe(j - 0.5);
        expect(mem[cols + 1 + rows * cols]).toBe(9);
      }),
      { seed: 9, numRuns: 40 },
    );
  });

  it('refuses a table or a stream that does not fit in the arena, with a code', () => {
    const floats = kernels.memory.buffer.byteLength >>> 2;
    const bad = {
      tokens: 0,
      count: 4,
      length: 2,
      dModel: 8,
      vocab: 3,
      table: floats - 4,
      positions: -1,
      x: 100,
    };
    let error: unknown;
    try {
      kernels.embed(bad);
    } catch (e) {
      error = e;
    }
    expect(isAttentionError(error) && error.code).toBe('ATTENTION_SHAPE_MISMATCH');
  });
});
