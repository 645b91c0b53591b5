// IsingSampleSet against dimod's own documented examples (dimod@aca7cc3 dimod/sampleset.py
// docstrings of `first`, `data`, `aggregate` and `lowest`). dimod's models are in its sign
// convention E = Σ h s + Σ J s s; ising-core's is E = −Σ h s − Σ J s s, so each dimod model
// (h, J) is written here as (−h, −J) and the energies must come out as the same numbers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { energies as allEnergies } from '../exact.js';
import { exactSampler } from '../exactSampler.js';
import { IsingSampleSet } from './isingSampleSet.js';
import { sampleIsing } from './sampleIsing.js';

const info = { sampler: 'test', source: 'samples', beta: 1 } as const;
const exact = exactSampler.create();
const rowsOf = (set: IsingSampleSet) => set.data().map((r) => [...r.sample]);

describe('IsingSampleSet: dimod semantics', () => {
  it("matches data()'s example: ExactSolver().sample_ising({'a': -0.5, 'b': 1.0}, {('a', 'b'): -1})", async () => {
    // a = s_0, b = s_1; ising-core h = (0.5, −1), J_01 = +1.
    const set = await sampleIsing(exact, [0.5, -1], [0, 1, 0, 0], { dense: 'enumerate' });
    expect(set.size).toBe(4);
    expect(set.data().map((r) => r.energy)).toEqual([-1.5, -0.5, -0.5, 2.5]);
    const rows = rowsOf(set);
    expect(rows[0]).toEqual([-1, -1]);
    expect(rows[3]).toEqual([-1, 1]);
    expect(rows.slice(1, 3)).toEqual(
      expect.arrayContaining([
        [1, -1],
        [1, 1],
      ]),
    );
    expect([...set.occurrences]).toEqual([1, 1, 1, 1]);
    expect(set.info.source).toBe('dense-enumerate');
  });

  it("matches first's example: ExactSolver().sample_ising({'a': 1}, {('a', 'b'): 1}).first", async () => {
    const set = await sampleIsing(exact, [-1, 0], [0, -1, 0, 0], { dense: 'enumerate' });
    const first = set.first;
    expect([...first.sample]).toEqual([-1, 1]);
    expect(first.energy).toBe(-2);
    expect(first.occurrences).toBe(1);
  });

  it("matches lowest()'s example: sample_ising({'a': .001}, {('a', 'b'): -1})", async () => {
    const set = await sampleIsing(exact, [-0.001, 0], [0, 1, 0, 0], { dense: 'enumerate' });
    const low = set.lowest();
    expect(rowsOf(low)).toEqual([[-1, -1]]);
    expect(low.energies[0]).toBeCloseTo(-1.001, 12);
    const wide = set.lowest({ atol: 0.1 });
    expect(rowsOf(wide)).toEqual([
      [-1, -1],
      [1, 1],
    ]);
    expect(wide.data().map((r) => r.energy)).toEqual([
      expect.closeTo(-1.001, 12),
      expect.closeTo(-0.999, 12),
    ]);
  });

  it("matches aggregate()'s example: rows [0,0,1], [0,0,1], [1,1,1] → 2 rows, occurrences 2 and 1", () => {
    // The BINARY rows as spins (x = (s + 1)/2).
    const set = IsingSampleSet.fromStates({
      fields: new Float64Array(3),
      couplings: new Float64Array(9),
      states: Int8Array.of(-1, -1, 1, -1, -1, 1, 1, 1, 1),
      info,
    });
    const agg = set.aggregate();
    expect(agg.size).toBe(2);
    expect([...agg.states]).toEqual([-1, -1, 1, 1, 1, 1]);
    expect([...agg.occurrences]).toEqual([2, 1]);
    expect(set.size).toBe(3); // the original is untouched
  });

  it('counts() keys print spin n−1 first, bit 0 for s = +1 (Qiskit c[n−1]…c[0], s = 1 − 2b)', () => {
    const set = IsingSampleSet.fromStates({
      fields: new Float64Array(3),
      couplings: new Float64Array(9),
      // s = (+1, −1, −1) twice → bits b_0 = 0, b_1 = 1, b_2 = 1 → "110"; (−1, +1, +1) → "001".
      states: Int8Array.of(1, -1, -1, -1, 1, 1, 1, -1, -1),
      occurrences: Float64Array.of(3, 2, 4),
      info,
    });
    expect(set.counts()).toEqual({ '110': 7, '001': 2 });
  });

  it('toDimod() writes to_serializable(pack_samples=False) with energies and num_occurrences', async () => {
    const set = await sampleIsing(exact, [0.5, -1], [0, 1, 0, 0], { dense: 'enumerate' });
    const json = set.toDimod();
    expect(json).toMatchObject({
      type: 'SampleSet',
      version: { sampleset_schema: '3.2.0' },
      num_variables: 2,
      num_rows: 4,
      sample_type: 'int8',
      sample_packed: false,
      variable_labels: [0, 1],
      variable_type: 'SPIN',
      info: { sampler: 'exact', source: 'dense-enumerate', beta: 1 },
    });
    expect(json.sample_data).toEqual({
      type: 'array',
      data: [
        [-1, -1],
        [1, -1],
        [-1, 1],
        [1, 1],
      ],
      data_type: 'int8',
      shape: [4, 2],
      use_bytes: false,
    });
    expect(json.vectors.energy?.data).toEqual([-1.5, -0.5, 2.5, -0.5]);
    expect(json.vectors.num_occurrences).toMatchObject({ data: [1, 1, 1, 1], data_type: 'int64' });
    expect(json.vectors.probability?.shape).toEqual([4]);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('first on an empty set and row() out of range throw ISING_INVALID_ARGUMENT', () => {
    const empty = IsingSampleSet.fromStates({
      fields: new Float64Array(2),
      couplings: new Float64Array(4),
      states: new Int8Array(0),
      info,
    });
    expect(() => empty.first).toThrow(expect.objectContaining({ code: 'ISING_INVALID_ARGUMENT' }));
    expect(() => empty.row(0)).toThrow(expect.objectContaining({ code: 'ISING_INVALID_ARGUMENT' }));
  });
});

const problem: fc.Arbitrary<Problem> = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    h: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: n, maxLength: n }),
    upper: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), {
      minLength: n * n,
      maxLength: n * n,
    }),
    rows: fc.array(fc.integer({ min: 0, max: 2 ** n - 1 }), { minLength: 1, maxLength: 40 }),
    weights: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 40, maxLength: 40 }),
  }),
);

interface Problem {
  n: number;
  h: number[];
  upper: number[];
  rows: number[];
  weights: number[];
}

function build({ n, h, upper, rows, weights }: Problem) {
  const J = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let k = j + 1; k < n; k++) J[j * n + k] = upper[j * n + k]!;
  const states = new Int8Array(rows.length * n);
  rows.forEach((s, i) => {
    for (let j = 0; j < n; j++) states[i * n + j] = (s >>> j) & 1 ? 1 : -1;
  });
  const set = IsingSampleSet.fromStates({
    fields: Float64Array.from(h),
    couplings: J,
    states,
    occurrences: Float64Array.from(rows, (_, i) => weights[i]!),
    info,
  });
  return { set, J };
}

describe('IsingSampleSet: properties', () => {
  it('energies equal a term-by-term sum and exact.ts energies() of the same state', () => {
    fc.assert(
      fc.property(problem, (p) => {
        const { set, J } = build(p);
        const table = allEnergies(Float64Array.from(p.h), J, p.n);
        p.rows.forEach((s, i) => {
          let e = 0;
          for (let j = 0; j < p.n; j++) {
            const sj = (s >>> j) & 1 ? 1 : -1;
            e -= p.h[j]! * sj;
            for (let k = j + 1; k < p.n; k++) e -= J[j * p.n + k]! * sj * ((s >>> k) & 1 ? 1 : -1);
          }
          expect(set.energies[i]).toBeCloseTo(e, 10);
          expect(set.energies[i]).toBeCloseTo(table[s]!, 10);
        });
      }),
    );
  });

  it('aggregate() keeps the total, makes rows unique, keeps energies; first is the minimum; counts sum up', () => {
    fc.assert(
      fc.property(problem, (p) => {
        const { set } = build(p);
        const agg = set.aggregate();
        expect(agg.totalOccurrences).toBe(set.totalOccurrences);
        expect(agg.size).toBe(new Set(p.rows).size);
        expect(agg.first.energy).toBe(Math.min(...set.energies));
        expect(set.first.energy).toBe(Math.min(...set.energies));
        const data = set.data();
        for (let i = 1; i < data.length; i++)
          expect(data[i]!.energy).toBeGreaterThanOrEqual(data[i - 1]!.energy);
        const counts = set.counts();
        expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(set.totalOccurrences);
        expect(Object.keys(counts).length).toBe(agg.size);
        expect(agg.aggregate().size).toBe(agg.size);
      }),
    );
  });
});

describe('IsingSampleSet.fromStates: refusals', () => {
  const base = { fields: new Float64Array(2), couplings: new Float64Array(4), info };
  it.each([
    ['a partial row', { ...base, states: Int8Array.of(1, 1, 1) }, 'ISING_SHAPE_MISMATCH'],
    [
      'couplings of the wrong side',
      { ...base, couplings: new Float64Array(9), states: Int8Array.of(1, 1) },
      'ISING_SHAPE_MISMATCH',
    ],
    [
      'occurrences of the wrong length',
      { ...base, states: Int8Array.of(1, 1), occurrences: Float64Array.of(1, 2) },
      'ISING_SHAPE_MISMATCH',
    ],
    ['an entry that is not ±1', { ...base, states: Int8Array.of(1, 0) }, 'ISING_BAD_SAMPLES'],
  ])('%s', (_, input, code) => {
    expect(() => IsingSampleSet.fromStates(input)).toThrow(expect.objectContaining({ code }));
  });
});
