// biome-ignore-all lint/suspicious/noAssignInExpressions: a regex dispatch, `else if ((m = re.exec(line)))`, keeps each statement's match beside its handler.
/// <reference path="../types/quantumCircuit.d.ts" />
import QuantumCircuit from 'quantum-circuit';
import { codeOf } from '@boltzmann/ising-core/testing';
import { describe, expect, it } from 'vitest';
import { annealStatevector, toQasm3 } from './index.js';
import type { IsingProblem, QasmOptions } from './index.js';
import { appendBraketGate } from './internal/testing/appendBraketGate.js';
import { problem4, stateMismatch } from './internal/testing/circuitStates.js';

/**
 * A small, independent OpenQASM interpreter for the statements toQasm3 emits. It uses the
 * textbook computational basis: qubit j is bit j of the index, |0⟩ is bit 0, and every gate is
 * its defining matrix (Rx(a) = exp(−iaX/2), Rz(a) = exp(−iaZ/2), Rzz(a) = exp(−iaZ⊗Z/2), CX).
 */
function interpret(program: string): {
  n: number;
  re: Float64Array;
  im: Float64Array;
  measured: number[];
} {
  let n = -1;
  let re = new Float64Array(0);
  let im = new Float64Array(0);
  const measured: number[] = [];
  const phase = (s: number, a: number) => {
    const c = Math.cos(a);
    const sn = Math.sin(a);
    const r = re[s]!;
    const i = im[s]!;
    re[s] = r * c - i * sn;
    im[s] = r * sn + i * c;
  };
  for (const raw of program.split('\n')) {
    const line = raw.trim();
    if (
      line === '' ||
      line.startsWith('//') ||
      line === 'OPENQASM 3.0;' ||
      line === 'include "stdgates.inc";'
    )
      continue;
    let m: RegExpMatchArray | null;
    if ((m = line.match(/^qubit\[(\d+)\] q;$/))) {
      n = Number(m[1]);
      re = new Float64Array(1 << n);
      im = new Float64Array(1 << n);
      re[0] = 1;
    } else if (/^bit\[\d+\] c;$/.test(line)) {
      // the classical register needs no state
    } else if ((m = line.match(/^h q\[(\d+)\];$/))) {
      const b = 1 << Number(m[1]);
      for (let s = 0; s < re.length; s++) {
        if (s & b) continue;
        const [ar, ai, br, bi] = [re[s]!, im[s]!, re[s | b]!, im[s | b]!];
        re[s] = (ar + br) / Math.SQRT2;
        im[s] = (ai + bi) / Math.SQRT2;
        re[s | b] = (ar - br) / Math.SQRT2;
        im[s | b] = (ai - bi) / Math.SQRT2;
      }
    } else if ((m = line.match(/^rx\(([^)]+)\) q\[(\d+)\];$/))) {
      const a = Number(m[1]);
      const b = 1 << Number(m[2]);
      const c = Math.cos(a / 2);
      const sn = Math.sin(a / 2);
      for (let s = 0; s < re.length; s++) {
        if (s & b) continue;
        const [ar, ai, br, bi] = [re[s]!, im[s]!, re[s | b]!, im[s | b]!];
        // [[c, −i sn], [−i sn, c]]
        re[s] = c * ar + sn * bi;
        im[s] = c * ai - sn * br;
        re[s | b] = c * br + sn * ai;
        im[s | b] = c * bi - sn * ar;
      }
    } else if ((m = line.match(/^rz\(([^)]+)\) q\[(\d+)\];$/))) {
      const a = Number(m[1]);
      const b = 1 << Number(m[2]);
      for (let s = 0; s < re.length; s++) phase(s, s & b ? a / 2 : -a / 2);
    } else if ((m = line.match(/^(?:rzz|zz)\(([^)]+)\) q\[(\d+)\], q\[(\d+)\];$/))) {
      const a = Number(m[1]);
      const b1 = 1 << Number(m[2]);
      const b2 = 1 << Number(m[3]);
      for (let s = 0; s < re.length; s++)
        phase(s, (s & b1 ? 1 : 0) ^ (s & b2 ? 1 : 0) ? a / 2 : -a / 2);
    } else if ((m = line.match(/^cx q\[(\d+)\], q\[(\d+)\];$/))) {
      const ctrl = 1 << Number(m[1]);
      const tgt = 1 << Number(m[2]);
      for (let s = 0; s < re.length; s++) {
        if (!(s & ctrl) || s & tgt) continue;
        const t = s | tgt;
        [re[s], re[t]] = [re[t]!, re[s]!];
        [im[s], im[t]] = [im[t]!, im[s]!];
      }
    } else if ((m = line.match(/^c\[(\d+)\] = measure q\[(\d+)\];$/))) {
      expect(m[1]).toBe(m[2]);
      measured.push(Number(m[1]));
    } else {
      throw new Error(`the test interpreter does not know the statement: ${line}`);
    }
  }
  return { n, re, im, measured };
}

/** Max amplitude difference after mapping simulator index → computational index (XOR all ones). */
function mismatch(problem: IsingProblem, options: QasmOptions): number {
  const circuit = interpret(toQasm3(problem, options));
  const { dialect: _d, measure: _m, ...annealOptions } = options;
  return stateMismatch(annealStatevector(problem, annealOptions), circuit);
}

const problem = problem4;

describe('toQasm3', () => {
  it('should reproduce the simulator state to 1e-10 when run gate by gate, in both dialects and orders', () => {
    for (const dialect of ['stdgates', 'braket'] as const) {
      for (const order of [1, 2] as const) {
        expect(mismatch(problem, { tau: 2.5, steps: 12, order, dialect })).toBeLessThan(1e-10);
      }
    }
    expect(
      mismatch(problem, {
        tau: 3,
        steps: 9,
        schedule: 'dwave',
        calibrate: 'linear-response',
        beta: 0.7,
      }),
    ).toBeLessThan(1e-10);
    expect(mismatch(problem, { tau: 1.5, steps: 7, calibrate: true, order: 1 })).toBeLessThan(
      1e-10,
    );
  });

  it('should match on 15 qubits, where the simulator mixes low qubits in cache blocks and high ones in pairs', () => {
    const n = 15;
    const fields = Array.from({ length: n }, (_, j) => 0.3 * Math.sin(j + 1));
    const couplings = new Array<number>(n * n).fill(0);
    for (const [j, k, v] of [
      [0, 14, 0.4],
      [3, 12, -0.5],
      [11, 13, 0.25],
      [12, 13, -0.3],
      [1, 2, 0.6],
    ] as const)
      couplings[j * n + k] = v;
    expect(mismatch({ fields, couplings }, { tau: 1.3, steps: 2, order: 2 })).toBeLessThan(1e-10);
  });

  it('should give the same state on the npm quantum-circuit simulator (its own gate matrices, wire j = bit j)', () => {
    const options: QasmOptions = {
      tau: 2.2,
      steps: 6,
      order: 2,
      calibrate: 'linear-response',
      dialect: 'braket',
      measure: false,
    };
    const circuit = new QuantumCircuit(4);
    for (const line of toQasm3(problem, options).split('\n')) appendBraketGate(circuit, line);
    circuit.run();
    const { dialect: _d, measure: _m, ...annealOptions } = options;
    const sim = annealStatevector(problem, annealOptions);
    for (let s = 0; s < 16; s++) {
      const z = circuit.state[String(s ^ 15)] ?? { re: 0, im: 0 };
      expect(Math.hypot(sim.re[s]! - z.re, sim.im[s]! - z.im)).toBeLessThan(1e-10);
    }
  });

  it('should emit the documented header, the h layer, signed angles and one measurement per qubit', () => {
    const text = toQasm3(
      { fields: [0.5, -0.25], couplings: [0, 0.75, 0, 0] },
      { tau: 2, steps: 1, order: 1 },
    );
    const lines = text.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['OPENQASM 3.0;', 'include "stdgates.inc";']);
    expect(lines).toContain('qubit[2] q;');
    expect(lines).toContain('bit[2] c;');
    // One step, u = 1/2, dt = 2: θ = dt·B = 1, φ = dt·A = 1.
    expect(lines.slice(-11)).toEqual([
      'h q[0];',
      'h q[1];',
      'rz(-1) q[0];', // −2θh_0
      'rz(0.5) q[1];', // −2θh_1
      'cx q[0], q[1];',
      'rz(-1.5) q[1];', // −2θJ_01
      'cx q[0], q[1];',
      'rx(-2) q[0];', // −2φ
      'rx(-2) q[1];',
      'c[0] = measure q[0];',
      'c[1] = measure q[1];',
    ]);
    const braket = toQasm3(
      { fields: [0.5, -0.25], couplings: [0, 0.75, 0, 0] },
      { tau: 2, steps: 1, order: 1, dialect: 'braket', measure: false },
    );
    expect(braket).not.toContain('include');
    expect(braket).toContain('zz(-1.5) q[0], q[1];');
    expect(braket).not.toMatch(/= measure/);
  });

  it('should refuse an unknown dialect and bad problems with coded errors', () => {
    expect(codeOf(() => toQasm3(problem, { dialect: 'qiskit' as never }))).toBe(
      'DQA_INVALID_ARGUMENT',
    );
    expect(codeOf(() => toQasm3({ fields: [Number.NaN] }))).toBe('DQA_NOT_FINITE');
    expect(codeOf(() => toQasm3({ fields: [1, 2, 3] }, { maxQubits: 2 }))).toBe(
      'DQA_TOO_MANY_QUBITS',
    );
  });
});
