import { createIsingBatch } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { encodeBase64, encodeFloat64LE, encodeInt32LE } from './base64.js';
import { fake, fast, useFakeSapi } from './testing/dwaveHarness.js';
import { createDwaveSampler } from '../index.js';
import type { DwaveRunInfo } from '../index.js';

useFakeSapi();

/** Chains of two qubits each in Chimera cell (0, 0): 0–4 and 1–5 are couplers, as is 0–5. */
const EMBEDDING = [
  [0, 4],
  [1, 5],
];
/** Answer columns: qubits 0, 1, 4, 5, so chain 0 is columns 0 and 2, chain 1 columns 1 and 3. */
const COLUMNS = [0, 1, 4, 5];

/** A `qp` answer with these rows (±1 per column) and counts. */
function answerOf(rows: number[][], counts: number[]): Record<string, unknown> {
  const packed = Uint8Array.from(rows, (row) =>
    row.reduce((byte, s, k) => (s > 0 ? byte | (0x80 >> k) : byte), 0),
  );
  return {
    format: 'qp',
    num_variables: 32,
    active_variables: encodeInt32LE(COLUMNS),
    energies: encodeFloat64LE(rows.map(() => 0)),
    num_occurrences: encodeInt32LE(counts),
    solutions: encodeBase64(packed),
    timing: { qpu_access_time: 1000 },
  };
}

// By hand. Answer A: 3 reads with no broken chain, 1 read with chain 0 broken, 1 read with both
// broken: 3 broken (read, chain) pairs of 5 × 2 = 10, a fraction of 0.3.
const A = answerOf(
  [
    [1, 1, 1, 1],
    [1, 1, -1, 1],
    [1, -1, -1, 1],
  ],
  [3, 1, 1],
);
// Answer B: 2 reads unbroken, 2 reads with both chains broken: 4 of 4 × 2 = 8, a fraction of 0.5.
const B = answerOf(
  [
    [-1, -1, -1, -1],
    [1, 1, -1, -1],
  ],
  [2, 2],
);

describe('dwave chain breaks', () => {
  it('should report the fraction of broken chains over chains and reads, per problem and per call', async () => {
    // The first problem the fake answers gets A, the other B (whichever is asked first).
    const served = new Map<unknown, Record<string, unknown>>();
    fake.tamperAnswer = (original) => {
      if (!served.has(original)) served.set(original, served.size === 0 ? A : B);
      return served.get(original);
    };
    const batch = createIsingBatch({
      fields: Float64Array.of(0.2, -0.3, 0.1, 0.4),
      couplings: Float64Array.of(0, 0.4, 0, 0),
      spins: [2, 2],
      stride: 2,
    });
    const seen: DwaveRunInfo[] = [];
    const sampler = createDwaveSampler(
      fast({ embedding: EMBEDDING, numReads: 5, onRun: (info) => seen.push(info) }),
    );
    const result = await sampler.sample(batch);
    const info = sampler.lastRunInfo()!;
    expect(seen).toEqual([info]);
    expect([...info.chainBreakFractions].sort()).toEqual([0.3, 0.5]);
    expect(info.reads).toBe(9);
    // Over the call: (0.3 · 5 + 0.5 · 4) / 9 reads.
    expect(info.chainBreakFraction).toBeCloseTo((0.3 * 5 + 0.5 * 4) / 9, 15);
    expect(info.maxChainLength).toBe(2);
    // Unbroken reads unembed to their chains' common value.
    const setOf = (q: number) => (result.kind === 'samples' ? result.sets[q]! : undefined);
    const a = info.chainBreakFractions[0] === 0.3 ? 0 : 1;
    expect(Array.from(setOf(a)!.states.slice(0, 2))).toEqual([1, 1]);
    expect(Array.from(setOf(1 - a)!.states.slice(0, 2))).toEqual([-1, -1]);
  });
});
