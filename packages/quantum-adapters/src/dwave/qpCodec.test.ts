import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeQpAnswer, encodeQpProblem, isAdapterError, qpFullRows } from '../index.js';

const square = {
  qubits: [0, 1, 2, 3],
  couplers: [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 0],
  ] as [number, number][],
};
const lin = (entries: [number, number][]) => new Map(entries);
const quad = (entries: [string, number][]) => new Map(entries);

function expectMalformed(fn: () => unknown, fragment: string): void {
  try {
    fn();
  } catch (e) {
    expect(isAdapterError(e, 'ADAPTER_MALFORMED')).toBe(true);
    expect((e as { retryable: boolean }).retryable).toBe(false);
    expect((e as Error).message).toContain(fragment);
    return;
  }
  throw new Error('expected ADAPTER_MALFORMED');
}

describe('encodeQpProblem', () => {
  it('should reproduce the published lin/quad test vectors (QUANTUM_APIS.md §1.4.1)', () => {
    const all = encodeQpProblem(square, {
      linear: lin([
        [0, 1],
        [1, 1],
        [2, 1],
        [3, 1],
      ]),
      quadratic: quad([
        ['0,1', -1],
        ['1,2', -1],
        ['2,3', -1],
        ['3,0', -1],
      ]),
    });
    expect(all.lin).toBe('AAAAAAAA8D8AAAAAAADwPwAAAAAAAPA/AAAAAAAA8D8=');
    expect(all.quad).toBe('AAAAAAAA8L8AAAAAAADwvwAAAAAAAPC/AAAAAAAA8L8=');
    const two = encodeQpProblem(square, {
      linear: lin([
        [0, 1],
        [1, 1],
      ]),
      quadratic: quad([['0,1', -1]]),
    });
    expect(two.lin).toBe('AAAAAAAA8D8AAAAAAADwPwAAAAAAAPh/AAAAAAAA+H8=');
    expect(two.quad).toBe('AAAAAAAA8L8=');
    const reversed = encodeQpProblem(square, { linear: lin([]), quadratic: quad([['0,3', -1]]) });
    expect(reversed.lin).toBe('AAAAAAAAAAAAAAAAAAD4fwAAAAAAAPh/AAAAAAAAAAA=');
    expect(reversed.quad).toBe('AAAAAAAA8L8=');
    const implicit = encodeQpProblem(square, {
      linear: lin([
        [0, 0],
        [3, 0],
      ]),
      quadratic: quad([]),
    });
    expect(implicit.lin).toBe(reversed.lin);
    expect(implicit.quad).toBe('AAAAAAAAAAA=');
    expect(implicit.format).toBe('qp');
    expect(implicit.offset).toBe(0);
  });

  it('should reject biases on missing qubits or couplers and non-finite biases', () => {
    const bad = [
      () => encodeQpProblem(square, { linear: lin([[7, 1]]), quadratic: quad([]) }),
      () => encodeQpProblem(square, { linear: lin([]), quadratic: quad([['0,2', 1]]) }),
      () => encodeQpProblem(square, { linear: lin([[0, Number.NaN]]), quadratic: quad([]) }),
    ];
    for (const fn of bad)
      expect(fn).toThrow(expect.objectContaining({ code: 'ADAPTER_INVALID_ARGUMENT' }));
  });
});

describe('decodeQpAnswer', () => {
  it('should decode the dwave-cloud-client test vector', () => {
    const a = decodeQpAnswer({
      format: 'qp',
      num_variables: 5,
      energies: 'AAAAAAAALsA=',
      num_occurrences: 'ZAAAAA==',
      active_variables: 'AAAAAAEAAAACAAAAAwAAAAQAAAA=',
      solutions: 'AAAAAA==',
    });
    expect([...a.energies]).toEqual([-15]);
    expect([...a.numOccurrences]).toEqual([100]);
    expect([...a.activeVariables]).toEqual([0, 1, 2, 3, 4]);
    expect([...a.solutions]).toEqual([-1, -1, -1, -1, -1]);
  });

  it('should decode the constructed vector MSB-first, as ising and as qubo', () => {
    const raw = {
      format: 'qp',
      num_variables: 6,
      active_variables: 'AAAAAAIAAAAFAAAA',
      solutions: 'oCA=',
      energies: 'AAAAAAAA8L8AAAAAAADwvw==',
    };
    const ising = decodeQpAnswer(raw, 'ising');
    expect([...ising.activeVariables]).toEqual([0, 2, 5]);
    expect([...qpFullRows(ising, 0)]).toEqual([1, 0, -1, 0, 0, 1, -1, 0, -1, 0, 0, 1]);
    expect([...ising.numOccurrences]).toEqual([1, 1]);
    expect([...qpFullRows(decodeQpAnswer(raw, 'qubo'), 3)]).toEqual([
      1, 3, 0, 3, 3, 1, 0, 3, 0, 3, 3, 1,
    ]);
  });

  it('should decode the docs example answer (two distinct ground states)', () => {
    const a = decodeQpAnswer({
      format: 'qp',
      num_variables: 5760,
      active_variables: 'HgAAAB8AAAA=',
      energies: 'AAAAAAAA8L8AAAAAAADwvw==',
      num_occurrences: 'BgAAAAQAAAA=',
      solutions: 'AMA=',
    });
    expect([...a.activeVariables]).toEqual([30, 31]);
    expect([...a.energies]).toEqual([-1, -1]);
    expect([...a.numOccurrences]).toEqual([6, 4]);
    expect([...a.solutions]).toEqual([-1, -1, 1, 1]);
  });

  it('should add answer.offset to the energies when present', () => {
    const a = decodeQpAnswer({
      format: 'qp',
      num_variables: 5,
      energies: 'AAAAAAAALsA=',
      active_variables: 'AAAAAAEAAAACAAAAAwAAAAQAAAA=',
      solutions: 'AAAAAA==',
      offset: 2.5,
    });
    expect([...a.energies]).toEqual([-12.5]);
  });

  it('should reject malformed answers as ADAPTER_MALFORMED, never retryable', () => {
    const good = {
      format: 'qp',
      num_variables: 5,
      energies: 'AAAAAAAALsA=',
      num_occurrences: 'ZAAAAA==',
      active_variables: 'AAAAAAEAAAACAAAAAwAAAAQAAAA=',
      solutions: 'AAAAAA==',
    };
    expectMalformed(() => decodeQpAnswer(null), 'answer');
    expectMalformed(() => decodeQpAnswer({ ...good, format: 'bq' }), 'format');
    expectMalformed(() => decodeQpAnswer({ ...good, num_variables: undefined }), 'num_variables');
    expectMalformed(
      () => decodeQpAnswer({ ...good, energies: 'AAAA*AAALsA=' }),
      'energies is not valid base64',
    );
    expectMalformed(() => decodeQpAnswer({ ...good, energies: 'AAAAAAA=' }), 'not a multiple of 8');
    expectMalformed(
      () => decodeQpAnswer({ ...good, solutions: undefined }),
      'solutions must be a base64 string',
    );
    expectMalformed(() => decodeQpAnswer({ ...good, solutions: '' }), 'solutions has 0 bytes');
    expectMalformed(
      () => decodeQpAnswer({ ...good, num_occurrences: 'ZAAAAGQAAAA=' }),
      '2 entries for 1 energies',
    );
    expectMalformed(
      () => decodeQpAnswer({ ...good, active_variables: 'BQAAAAQAAAA=' }),
      'not ascending',
    );
    expectMalformed(() => decodeQpAnswer({ ...good, num_variables: 3 }), 'out of range');
  });

  it('should round-trip random solution matrices through the bit packing', () => {
    for (let trial = 0; trial < 20; trial++) {
      const nActive = 1 + ((trial * 7) % 19);
      const nSol = 1 + (trial % 4);
      const rows = Array.from({ length: nSol }, (_, i) =>
        Array.from({ length: nActive }, (_, k) => ((i * 31 + k * 17 + trial) % 3 === 0 ? 1 : 0)),
      );
      const bytesPer = Math.ceil(nActive / 8);
      const bytes = new Uint8Array(nSol * bytesPer);
      rows.forEach((row, i) =>
        row.forEach((b, k) => {
          if (b) bytes[i * bytesPer + (k >> 3)]! |= 0x80 >> (k & 7);
        }),
      );
      const active = new Int32Array(nActive).map((_, k) => 2 * k);
      const a = decodeQpAnswer({
        format: 'qp',
        num_variables: 2 * nActive,
        active_variables: Buffer.from(active.buffer).toString('base64'),
        energies: Buffer.from(new Float64Array(nSol).buffer).toString('base64'),
        solutions: Buffer.from(bytes).toString('base64'),
      });
      expect([...a.solutions]).toEqual(rows.flat().map((b) => (b ? 1 : -1)));
    }
  });
});

describe('encodeQpProblem (property)', () => {
  it('should put each bias at its qubit/coupler position, NaN exactly at inactive qubits, summing both orientations', () => {
    const graph = {
      qubits: [0, 2, 3, 5, 7, 8],
      couplers: [
        [0, 2],
        [3, 2],
        [5, 7],
        [0, 8],
        [7, 8],
        [3, 5],
      ] as [number, number][],
    };
    const decode = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      return [...new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8)];
    };
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom(...graph.qubits), fc.double({ min: -8, max: 8, noNaN: true })),
          { maxLength: 6 },
        ),
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: graph.couplers.length - 1 }),
            fc.boolean(),
            fc.double({ min: -2, max: 2, noNaN: true }),
          ),
          { maxLength: 8 },
        ),
        (lin, quad) => {
          const linear = new Map(lin);
          const quadratic = new Map<string, number>();
          for (const [c, flip, bias] of quad) {
            const [a, b] = graph.couplers[c]!;
            quadratic.set(flip ? `${b},${a}` : `${a},${b}`, bias);
          }
          const data = encodeQpProblem(graph, { linear, quadratic });
          const active = new Set<number>(linear.keys());
          for (const key of quadratic.keys()) key.split(',').forEach((q) => active.add(Number(q)));
          const l = decode(data.lin);
          expect(l).toHaveLength(graph.qubits.length);
          graph.qubits.forEach((q, i) => {
            if (active.has(q)) expect(l[i]).toBe(linear.get(q) ?? 0);
            else expect(Number.isNaN(l[i]!)).toBe(true);
          });
          const expected = graph.couplers
            .filter(([a, b]) => active.has(a) && active.has(b))
            .map(([a, b]) => (quadratic.get(`${a},${b}`) ?? 0) + (quadratic.get(`${b},${a}`) ?? 0));
          expect(decode(data.quad)).toEqual(expected);
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});
