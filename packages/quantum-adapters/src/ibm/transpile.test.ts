import { createRng } from '@boltzmann/ising-core';
import { codeOf } from '@boltzmann/ising-core/testing';
import { toQasm3 } from '@boltzmann/dqa-sim';
import type { AnnealOptions, IsingProblem } from '@boltzmann/dqa-sim';
import { describe, expect, it } from 'vitest';
import { simulateQasm } from '../shared/testing/qasmInterpreter.js';
import type { IbmTarget, IsaCircuit } from './ibmTypes.js';
import { IBM_BRISBANE_SNAPSHOT, IBM_FEZ_SNAPSHOT } from './knownDevices.js';
import { parseConfiguration } from './runtimeParse.js';
import { selectLayout, transpileAnneal } from './transpile.js';

/** A random problem: fields, and couplings within `band` of the diagonal (n − 1 = dense). */
function problem(n: number, band: number, seed: number): IsingProblem {
  const rng = createRng(seed);
  const couplings = new Float64Array(n * n);
  for (let j = 0; j < n; j++)
    for (let k = j + 1; k <= Math.min(n - 1, j + band); k++) couplings[j * n + k] = rng.normal();
  return { fields: Array.from({ length: n }, () => rng.normal()), couplings };
}

/** The routed circuit's distribution with bit j = spin j (the decoding's permutation undone). */
function routedDistribution(isa: IsaCircuit): Float64Array {
  const { probabilities } = simulateQasm(isa.qasm);
  const out = new Float64Array(probabilities.length);
  probabilities.forEach((p, bits) => {
    let logical = 0;
    isa.logicalOfBit.forEach((spin, k) => {
      if ((bits >> k) & 1) logical |= 1 << spin;
    });
    out[logical] = out[logical]! + p;
  });
  return out;
}

/** Largest |p_routed − p_unrouted| over all bitstrings (the unrouted circuit is dqa-sim's export). */
function mismatch(p: IsingProblem, anneal: AnnealOptions, target: IbmTarget): number {
  const isa = transpileAnneal(p, anneal, target);
  const routed = routedDistribution(isa);
  const plain = simulateQasm(toQasm3(p, anneal)).probabilities;
  let worst = 0;
  for (let s = 0; s < plain.length; s++) worst = Math.max(worst, Math.abs(routed[s]! - plain[s]!));
  return worst;
}

const withRzz = (t: IbmTarget): IbmTarget => ({
  configuration: { ...t.configuration, basis_gates: [...t.configuration.basis_gates, 'rzz'] },
  fractionalGates: true,
});

const TARGETS: readonly [string, IbmTarget][] = [
  ['ibm_fez (cz)', IBM_FEZ_SNAPSHOT],
  ['ibm_brisbane (ecr, one direction)', IBM_BRISBANE_SNAPSHOT],
  ['ibm_fez with fractional rzz', withRzz(IBM_FEZ_SNAPSHOT)],
  ['ibm_brisbane with fractional rzz', withRzz(IBM_BRISBANE_SNAPSHOT)],
];

describe('transpileAnneal: the routed ISA circuit equals the unrouted one in simulation', () => {
  for (const [name, target] of TARGETS) {
    it(`small dense and banded problems, orders 1 and 2, on ${name}`, () => {
      for (const n of [1, 2, 3, 4, 5, 6]) {
        for (const band of [1, 2, n - 1]) {
          const p = problem(n, Math.max(band, 0), 100 * n + band);
          expect(mismatch(p, { tau: 2, steps: 3 }, target)).toBeLessThan(1e-10);
          expect(mismatch(p, { tau: 1.5, steps: 2, order: 2, beta: 0.8 }, target)).toBeLessThan(
            1e-10,
          );
        }
      }
    });

    it(`12 spins, dense and banded (band 3), on ${name}`, () => {
      for (const band of [11, 3]) {
        const p = problem(12, band, 1200 + band);
        expect(mismatch(p, { tau: 2, steps: 2 }, target)).toBeLessThan(1e-10);
      }
    });
  }

  it('also with the calibrated schedule, the D-Wave schedule and large angles', () => {
    const p = problem(5, 4, 77);
    const big = {
      fields: Array.from(p.fields, (h) => 3 * h),
      couplings: Array.from(p.couplings!, (j) => 4 * j),
    };
    for (const target of [IBM_FEZ_SNAPSHOT, withRzz(IBM_BRISBANE_SNAPSHOT)]) {
      expect(mismatch(p, { tau: 3, steps: 4, calibrate: 'linear-response' }, target)).toBeLessThan(
        1e-10,
      );
      expect(mismatch(p, { tau: 2, steps: 3, schedule: 'dwave' }, target)).toBeLessThan(1e-10);
      expect(mismatch(big, { tau: 2, steps: 3 }, target)).toBeLessThan(1e-10);
    }
  });
});

describe('transpileAnneal: the device’s rules', () => {
  // The gate calls on physical qubits (not the header, the definitions' bodies or the measures).
  const gatesOf = (isa: IsaCircuit) =>
    isa.qasm
      .split('\n')
      .filter((l) => /^[a-z]+(\([^)]*\))? \$/.test(l))
      .map((l) => {
        const m = /^([a-z]+)(?:\(([^)]*)\))? (.*);$/.exec(l)!;
        return {
          name: m[1]!,
          angle: m[2],
          qubits: m[3]!.split(', ').map((q) => Number(q.slice(1))),
        };
      });

  it('uses only the basis gates, on coupled qubits, ecr only in its calibrated direction, rzz in [0, π/2]', () => {
    for (const [, target] of TARGETS) {
      const basis = target.configuration.basis_gates;
      const directed = new Set(target.configuration.coupling_map.map(([a, b]) => `${a},${b}`));
      const isa = transpileAnneal(problem(8, 7, 5), { tau: 2, steps: 3 }, target);
      let rzz = 0;
      for (const g of gatesOf(isa)) {
        expect(basis).toContain(g.name);
        if (g.qubits.length === 2) expect(directed.has(`${g.qubits[0]},${g.qubits[1]}`)).toBe(true);
        if (g.name === 'rzz') {
          rzz++;
          const a = Number(g.angle);
          expect(a).toBeGreaterThan(0);
          expect(a).toBeLessThanOrEqual(Math.PI / 2);
        }
      }
      expect(rzz > 0).toBe(basis.includes('rzz'));
      const definitions = isa.qasm.match(/^gate \w+/gm) ?? [];
      const natives = basis.includes('cz') ? [] : ['gate ecr'];
      expect(definitions).toEqual([...natives, ...(rzz > 0 ? ['gate rzz'] : [])]);
      expect(isa.qasm.startsWith('OPENQASM 3.0;\ninclude "stdgates.inc";\n')).toBe(true);
      expect(isa.qasm.indexOf('\nbit[8] c;\n')).toBeGreaterThan(isa.qasm.lastIndexOf('}'));
      expect(isa.qasm).toContain(`c[7] = measure $${isa.physicalQubits[7]};`);
      expect([...isa.logicalOfBit].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(isa.stats.twoQubitGates).toBe(
        gatesOf(isa).filter((g) => g.qubits.length === 2).length,
      );
    }
  });

  it('needs n layers per step for dense couplings, fewer for banded ones, none for a chain', () => {
    const layers = (band: number) =>
      transpileAnneal(problem(10, band, 9), { tau: 2, steps: 2 }, IBM_FEZ_SNAPSHOT).stats
        .swapLayersPerStep;
    expect(layers(9)).toBe(10);
    expect(layers(1)).toBe(2); // the first and last layers apply couplings without swapping
    expect(layers(3)).toBeLessThan(10);
    const dense = transpileAnneal(problem(10, 9, 9), { tau: 2, steps: 2 }, IBM_FEZ_SNAPSHOT);
    const chain = transpileAnneal(problem(10, 1, 9), { tau: 2, steps: 2 }, IBM_FEZ_SNAPSHOT);
    expect(chain.stats.twoQubitGates).toBeLessThan(dense.stats.twoQubitGates / 5);
    expect(chain.stats.depth).toBeLessThan(dense.stats.depth);
  });

  it('picks a coupled path and avoids qubits with a high error when properties are given', () => {
    const conf = IBM_FEZ_SNAPSHOT.configuration;
    const path = selectLayout(IBM_FEZ_SNAPSHOT, 12).physicalQubits;
    const coupled = new Set(conf.coupling_map.map(([a, b]) => `${a},${b}`));
    expect(new Set(path).size).toBe(12);
    for (let p = 0; p + 1 < 12; p++) expect(coupled.has(`${path[p]},${path[p + 1]}`)).toBe(true);
    // Make every qubit of that path bad to read: the next choice avoids all of them.
    const bad = new Set(path);
    const qubits = Array.from({ length: conf.n_qubits }, (_, q) => [
      { name: 'readout_error', value: bad.has(q) ? 0.3 : 0.01 },
    ]);
    const better = selectLayout({ configuration: conf, properties: { qubits } }, 12);
    expect(better.physicalQubits.some((q) => bad.has(q))).toBe(false);
    expect(better.score).toBeCloseTo(12 * 0.01, 12);
  });

  it('rejects a device it cannot route onto and a layout of the wrong size, with codes', () => {
    const p = problem(4, 3, 1);
    const noTwoQubit: IbmTarget = {
      configuration: { ...IBM_FEZ_SNAPSHOT.configuration, basis_gates: ['rz', 'sx', 'x', 'cx'] },
    };
    expect(codeOf(() => transpileAnneal(p, {}, noTwoQubit))).toBe('ADAPTER_INVALID_ARGUMENT');
    const layout = selectLayout(IBM_FEZ_SNAPSHOT, 3);
    expect(codeOf(() => transpileAnneal(p, {}, IBM_FEZ_SNAPSHOT, { layout }))).toBe(
      'ADAPTER_INVALID_ARGUMENT',
    );
    const apart = { ...layout, physicalQubits: [0, 1, 2, 40] };
    expect(codeOf(() => transpileAnneal(p, {}, IBM_FEZ_SNAPSHOT, { layout: apart }))).toBe(
      'ADAPTER_INVALID_ARGUMENT',
    );
    expect(codeOf(() => selectLayout(IBM_FEZ_SNAPSHOT, 157))).toBe('ADAPTER_INVALID_ARGUMENT');
    const islands: IbmTarget = {
      configuration: {
        ...IBM_FEZ_SNAPSHOT.configuration,
        n_qubits: 4,
        coupling_map: [
          [0, 1],
          [2, 3],
        ],
      },
    };
    expect(codeOf(() => selectLayout(islands, 3))).toBe('ADAPTER_INVALID_ARGUMENT');
    // A claimed device too large to route on is refused when read, not searched.
    const huge = { ...IBM_FEZ_SNAPSHOT.configuration, n_qubits: 1e9 };
    expect(codeOf(() => parseConfiguration(huge, 'a hostile device'))).toBe('ADAPTER_MALFORMED');
    expect(codeOf(() => transpileAnneal({ fields: [1, Number.NaN] }, {}, IBM_FEZ_SNAPSHOT))).toBe(
      'DQA_NOT_FINITE',
    );
  });
});
