import { annealDistribution, toQasm3 } from '@boltzmann/dqa-sim';
import { createRng } from '@boltzmann/ising-core';
import { describe, expect, it } from 'vitest';
import { simulateQasm } from './qasmInterpreter.js';

describe('simulateQasm (the fake Braket device)', () => {
  it('should reproduce single-gate matrices: rx(π) flips, h·h is the identity, zz is diagonal', () => {
    expect(
      [
        ...simulateQasm(
          'OPENQASM 3.0;\nqubit[1] q;\nbit[1] c;\nrx(3.141592653589793) q[0];\nc[0] = measure q[0];',
        ).probabilities,
      ].map((p) => +p.toFixed(12)),
    ).toEqual([0, 1]);
    expect(
      [
        ...simulateQasm(
          'OPENQASM 3.0;\nqubit[1] q;\nbit[1] c;\nh q[0];\nh q[0];\nc[0] = measure q[0];',
        ).probabilities,
      ].map((p) => +p.toFixed(12)),
    ).toEqual([1, 0]);
    const p = simulateQasm(
      'OPENQASM 3.0;\nqubit[2] q;\nbit[2] c;\nh q[0];\ncnot q[0], q[1];\nzz(0.7) q[0], q[1];\nc[0] = measure q[0];\nc[1] = measure q[1];',
    ).probabilities;
    expect([...p].map((x) => +x.toFixed(12))).toEqual([0.5, 0, 0, 0.5]);
  });

  it('should match dqa-sim exactly on its own exported circuits (both dialects), bit 0 meaning s = +1', () => {
    const rng = createRng(11);
    for (const n of [1, 2, 3, 4]) {
      const fields = Array.from({ length: n }, () => rng.normal());
      const couplings = Array.from({ length: n * n }, (_, i) =>
        Math.floor(i / n) < i % n ? rng.normal() : 0,
      );
      for (const options of [
        { tau: 3, steps: 6, order: 1 as const },
        { tau: 5, steps: 9, order: 2 as const, beta: 0.7 },
      ]) {
        const want = annealDistribution({ fields, couplings }, options);
        for (const dialect of ['braket', 'stdgates'] as const) {
          const got = simulateQasm(
            toQasm3({ fields, couplings }, { ...options, dialect }),
          ).probabilities;
          const mask = 2 ** n - 1;
          // dqa-sim index bit j set ⇔ s_j = +1 ⇔ measured bit j = 0.
          for (let s = 0; s <= mask; s++) expect(got[s ^ mask]!).toBeCloseTo(want[s]!, 12);
        }
      }
    }
  });
});

describe('simulateQasm (physical qubits and the IBM basis gates)', () => {
  const run = (body: string, bits: number) =>
    [
      ...simulateQasm(
        `OPENQASM 3.0;\nbit[${bits}] c;\n${body}\n${Array.from({ length: bits }, (_, k) => `c[${k}] = measure $${[40, 7, 113][k]};`).join('\n')}`,
      ).probabilities,
    ].map((p) => +p.toFixed(12));

  it('should number $k qubits by first use, so a 127-qubit device needs only the qubits it touches', () => {
    const r = simulateQasm(
      'OPENQASM 3.0;\nbit[2] c;\nx $113;\nc[0] = measure $7;\nc[1] = measure $113;',
    );
    expect(r.qubits).toBe(2);
    expect([...r.probabilities]).toEqual([0, 0, 1, 0]);
    expect(() => simulateQasm('OPENQASM 3.0;\nqubit[1] q;\nx $3;')).toThrow(/mixes/);
    expect(() => simulateQasm('OPENQASM 3.0;\nqubit[1] q;\nrz(pi) q[0];')).toThrow(
      /number literal/,
    );
    expect(() => simulateQasm('OPENQASM 3.0;\nqubit[2] q;\ncz q[0], q[0];')).toThrow(/repeats/);
  });

  it('should apply sx (two make an x), x, cz (a phase: h cz h is a cx) and rzz (as zz)', () => {
    expect(run('sx $40;\nsx $40;', 1)).toEqual([0, 1]);
    expect(run('sx $40;', 1)).toEqual([0.5, 0.5]);
    expect(run('x $40;\nh $7;\ncz $40, $7;\nh $7;', 2)).toEqual([0, 0, 0, 1]);
    expect(run('h $40;\nh $7;\nrzz(0.9) $40, $7;\nh $40;\nh $7;', 2)).toEqual(
      run('h $40;\nh $7;\nzz(0.9) $40, $7;\nh $40;\nh $7;', 2),
    );
    // rzz(π) on |++⟩ is Z⊗Z up to phase: |−−⟩, which h maps to |11⟩.
    expect(run('h $40;\nh $7;\nrzz(3.141592653589793) $40, $7;\nh $40;\nh $7;', 2)).toEqual([
      0, 0, 0, 1,
    ]);
  });

  it('should apply Qiskit’s ECR: |00⟩ → (|01⟩ − i|11⟩)/√2 with the first operand flipped', () => {
    // Column 0 of the matrix: amplitude 1/√2 on index 1 (first operand 1) and −i/√2 on index 3.
    expect(run('ecr $40, $7;', 2)).toEqual([0, 0.5, 0, 0.5]);
    expect(run('x $40;\necr $40, $7;', 2)).toEqual([0.5, 0, 0.5, 0]);
  });
});
