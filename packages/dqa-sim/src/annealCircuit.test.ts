import { codeOf } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { annealCircuit, annealStatevector, toQasm3 } from './index.js';
import type { AnnealCircuit, AnnealOptions, IsingProblem } from './index.js';
import { problem4, stateMismatch } from './internal/testing/circuitStates.js';

/**
 * Runs the circuit's layers on a plain statevector in the computational basis (qubit j = bit j,
 * |0⟩ = bit 0), each gate from its definition: H, Rz(a) = exp(−iaZ/2), Rzz(a) = exp(−iaZ⊗Z/2),
 * Rx(a) = exp(−iaX/2).
 */
function run(circuit: AnnealCircuit): { re: Float64Array; im: Float64Array } {
  const { n } = circuit;
  const size = 2 ** n;
  const re = new Float64Array(size).fill(2 ** (-n / 2));
  const im = new Float64Array(size);
  const z = (s: number, j: number): number => (((s >> j) & 1) === 0 ? 1 : -1);
  for (const layer of circuit.layers) {
    if (layer.kind === 'phase') {
      for (let s = 0; s < size; s++) {
        let phi = 0; // the state picks up exp(−i·phi)
        for (let j = 0; j < n; j++) phi += (layer.rz[j]! / 2) * z(s, j);
        for (const [j, k, a] of layer.zz) phi += (a / 2) * z(s, j) * z(s, k);
        const [c, d] = [Math.cos(phi), -Math.sin(phi)];
        [re[s], im[s]] = [re[s]! * c - im[s]! * d, re[s]! * d + im[s]! * c];
      }
      continue;
    }
    const [c, d] = [Math.cos(layer.rx / 2), Math.sin(layer.rx / 2)];
    for (let j = 0; j < n; j++) {
      for (let s = 0; s < size; s++) {
        if ((s >> j) & 1) continue;
        const t = s | (1 << j);
        const [ar, ai, br, bi] = [re[s]!, im[s]!, re[t]!, im[t]!];
        re[s] = c * ar + d * bi;
        im[s] = c * ai - d * br;
        re[t] = c * br + d * ai;
        im[t] = c * bi - d * ar;
      }
    }
  }
  return { re, im };
}

function mismatch(problem: IsingProblem, options: AnnealOptions): number {
  return stateMismatch(annealStatevector(problem, options), run(annealCircuit(problem, options)));
}

const problem = problem4;

describe('annealCircuit', () => {
  it('should list the documented angles: rz(−2θh), Rzz(−2θJ) for nonzero couplings, rx(−2φ)', () => {
    // One step, u = 1/2, dt = 2: θ = dt·B = 1, φ = dt·A = 1.
    const circuit = annealCircuit(
      { fields: [0.5, -0.25, 0], couplings: [0, 0.75, 0, 0, 0, 0, 0, 0, 0] },
      { tau: 2, steps: 1, order: 1 },
    );
    expect(circuit.n).toBe(3);
    expect(circuit.layers).toEqual([
      { kind: 'phase', rz: Float64Array.from([-1, 0.5, 0]), zz: [[0, 1, -1.5]] },
      { kind: 'mixer', rx: -2 },
    ]);
  });

  it('should alternate phase and mixer layers: K of each for order 1, K + 1 phases around K mixers for order 2', () => {
    const kinds = (order: 1 | 2) =>
      annealCircuit(problem, { tau: 2, steps: 3, order }).layers.map((l) => l.kind);
    expect(kinds(1)).toEqual(['phase', 'mixer', 'phase', 'mixer', 'phase', 'mixer']);
    expect(kinds(2)).toEqual(['phase', 'mixer', 'phase', 'mixer', 'phase', 'mixer', 'phase']);
    const zz = annealCircuit(problem, { tau: 2, steps: 1 }).layers[0];
    expect(zz?.kind === 'phase' && zz.zz.map(([j, k]) => [j, k])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
      [1, 3],
      [2, 3],
    ]);
  });

  it('should leave out identity layers (no fields or couplings, zero schedule)', () => {
    expect(
      annealCircuit({ fields: [0, 0] }, { tau: 1, steps: 2, order: 1 }).layers.map((l) => l.kind),
    ).toEqual(['mixer', 'mixer']);
    expect(annealCircuit(problem, { tau: 0, steps: 3 }).layers).toEqual([]);
    const noMixer = annealCircuit(problem, { tau: 1, steps: 2, schedule: { A: '0', B: '1' } });
    expect(noMixer.layers.every((l) => l.kind === 'phase')).toBe(true);
  });

  it('should reproduce the simulator state to 1e-10 when its layers are run gate by gate', () => {
    for (const order of [1, 2] as const)
      expect(mismatch(problem, { tau: 2.5, steps: 7, order })).toBeLessThan(1e-10);
    expect(
      mismatch(problem, { tau: 3, steps: 5, schedule: 'dwave', calibrate: 'linear-response' }),
    ).toBeLessThan(1e-10);
    expect(mismatch(problem, { tau: 1.5, steps: 4, calibrate: true, beta: 0.7 })).toBeLessThan(
      1e-10,
    );
  });

  it('should be the circuit toQasm3 prints (one rx line per qubit per mixer, one rz per field)', () => {
    const options = { tau: 2, steps: 4, order: 2 as const };
    const circuit = annealCircuit(problem, options);
    const text = toQasm3(problem, options);
    const count = (re: RegExp) => text.split('\n').filter((l) => re.test(l)).length;
    const mixers = circuit.layers.filter((l) => l.kind === 'mixer').length;
    let zz = 0;
    let rz = 0;
    for (const l of circuit.layers)
      if (l.kind === 'phase') {
        zz += l.zz.length;
        rz += l.rz.filter((a) => a !== 0).length;
      }
    expect(count(/^rx\(/)).toBe(4 * mixers);
    expect(count(/^cx /)).toBe(2 * zz);
    expect(count(/^rz\(/)).toBe(rz + zz);
  });

  it('should refuse bad problems and options with the simulator’s coded errors', () => {
    expect(codeOf(() => annealCircuit({ fields: [Number.NaN] }))).toBe('DQA_NOT_FINITE');
    expect(codeOf(() => annealCircuit({ fields: [1, 2], couplings: [0] }))).toBe(
      'DQA_SHAPE_MISMATCH',
    );
    expect(codeOf(() => annealCircuit({ fields: [1, 2, 3] }, { maxQubits: 2 }))).toBe(
      'DQA_TOO_MANY_QUBITS',
    );
    expect(codeOf(() => annealCircuit(problem, { steps: 0 }))).toBe('DQA_INVALID_ARGUMENT');
  });
});
