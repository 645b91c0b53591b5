import { describe, expect, it } from 'vitest';
import { circuitDurationNs } from './ibmUsage.js';
import type { IbmTarget } from './ibmTypes.js';
import { IBM_BRISBANE_SNAPSHOT } from './knownDevices.js';
import { GATE_DEFINITIONS, STDGATES_INC, qasmPrelude } from './qasmGates.js';
import { transpileAnneal } from './transpile.js';

/** A complex number [re, im]; a 4 × 4 matrix row-major, index = b_q0 + 2·b_q1 (Qiskit's order). */
type C = [number, number];
const mul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const add = (a: C, b: C): C => [a[0] + b[0], a[1] + b[1]];

const H = Math.SQRT1_2;
/** One-qubit gates (row-major 2 × 2) of stdgates.inc's conventions. */
function oneQubit(name: string, theta: number): C[] {
  const c = Math.cos(theta / 2);
  const s = Math.sin(theta / 2);
  const table: Record<string, C[]> = {
    x: [
      [0, 0],
      [1, 0],
      [1, 0],
      [0, 0],
    ],
    s: [
      [1, 0],
      [0, 0],
      [0, 0],
      [0, 1],
    ],
    sx: [
      [0.5, 0.5],
      [0.5, -0.5],
      [0.5, -0.5],
      [0.5, 0.5],
    ],
    rz: [
      [c, -s],
      [0, 0],
      [0, 0],
      [c, s],
    ],
  };
  const m = table[name];
  if (m === undefined) throw new Error(`no matrix for ${name}`);
  return m;
}

/** The 4 × 4 matrix of a gate `name(theta) a, b` (a, b ∈ {0, 1}) in the two-qubit space. */
function embed(name: string, theta: number, qubits: number[]): C[] {
  const out: C[] = Array.from({ length: 16 }, () => [0, 0] as C);
  for (let col = 0; col < 4; col++) {
    const bit = (q: number) => (col >> q) & 1;
    if (name === 'cx') {
      const [ctl, tgt] = qubits as [number, number];
      out[(bit(ctl) ? col ^ (1 << tgt) : col) * 4 + col] = [1, 0];
      continue;
    }
    const q = qubits[0]!;
    const m = oneQubit(name, theta);
    for (let r = 0; r < 2; r++) {
      const row = (col & ~(1 << q)) | (r << q);
      out[row * 4 + col] = m[r * 2 + bit(q)]!;
    }
  }
  return out;
}

const matmul = (a: C[], b: C[]): C[] =>
  Array.from({ length: 16 }, (_, i) => {
    let acc: C = [0, 0];
    for (let k = 0; k < 4; k++)
      acc = add(acc, mul(a[Math.floor(i / 4) * 4 + k]!, b[k * 4 + (i % 4)]!));
    return acc;
  });

/** The unitary of a two-qubit `gate` definition's body, its parameter (if any) bound to theta. */
function unitaryOf(definition: string, theta = 0): C[] {
  const head = /^gate \w+(?:\((\w+)\))? (\w+), (\w+) \{$/.exec(definition.split('\n')[0]!)!;
  const [, param, q0, q1] = head;
  let u: C[] = embed('rz', 0, [0]); // identity
  for (const line of definition.split('\n').slice(1, -1)) {
    const m = /^\s*(\w+)(?:\((\w+)\))? (\w+)(?:, (\w+))?;$/.exec(line)!;
    if (m[2] !== undefined) expect(m[2]).toBe(param);
    const qubits = [m[3], m[4]]
      .filter((q) => q !== undefined)
      .map((q) => (q === q0 ? 0 : q === q1 ? 1 : -1));
    expect(qubits).not.toContain(-1);
    u = matmul(embed(m[1]!, theta, qubits), u);
  }
  return u;
}

/** max |a − e^{iφ} b| over the entries, φ the phase that best aligns them (global phase). */
function distanceUpToPhase(a: C[], b: C[]): { distance: number; phase: number } {
  let k = 0;
  for (let i = 0; i < 16; i++) if (Math.hypot(...b[i]!) > Math.hypot(...b[k]!)) k = i;
  const phase = Math.atan2(a[k]![1], a[k]![0]) - Math.atan2(b[k]![1], b[k]![0]);
  const e: C = [Math.cos(phase), Math.sin(phase)];
  let distance = 0;
  for (let i = 0; i < 16; i++) {
    const d = add(a[i]!, mul([-1, 0], mul(e, b[i]!)));
    distance = Math.max(distance, Math.hypot(...d));
  }
  return { distance, phase };
}

// Qiskit's ECRGate matrix (qiskit/circuit/library/standard_gates/ecr.py), little-endian.
const ECR: C[] = [
  [0, 0],
  [H, 0],
  [0, 0],
  [0, H],
  [H, 0],
  [0, 0],
  [0, -H],
  [0, 0],
  [0, 0],
  [0, H],
  [0, 0],
  [H, 0],
  [0, -H],
  [0, 0],
  [H, 0],
  [0, 0],
];

/** exp(−iθ Z⊗Z/2) (Qiskit's RZZGate). */
const RZZ = (theta: number): C[] =>
  Array.from({ length: 16 }, (_, i) => {
    const [r, c] = [Math.floor(i / 4), i % 4];
    if (r !== c) return [0, 0] as C;
    const sign = r === 0 || r === 3 ? -1 : 1;
    return [Math.cos(theta / 2), sign * Math.sin(theta / 2)] as C;
  });

describe('the gate library of the IBM circuits', () => {
  it('STDGATES_INC has the 32 names of stdgates.inc: the natives rz, sx, x, cz, not ecr or rzz', () => {
    expect(STDGATES_INC.size).toBe(32);
    for (const native of ['rz', 'sx', 'x', 'cz', 's', 'cx'])
      expect(STDGATES_INC.has(native)).toBe(true);
    for (const missing of ['ecr', 'rzz', 'U', 'gphase'])
      expect(STDGATES_INC.has(missing)).toBe(false);
  });

  it('the ecr definition is Qiskit’s ECR matrix up to the global phase −π/4', () => {
    const { distance, phase } = distanceUpToPhase(ECR, unitaryOf(GATE_DEFINITIONS.ecr!));
    expect(distance).toBeLessThan(1e-12);
    expect(phase).toBeCloseTo(-Math.PI / 4, 12);
  });

  it('the rzz definition is exp(−iθ Z⊗Z/2) up to a global phase, for every angle the router emits', () => {
    for (const theta of [0.1, 0.7, Math.PI / 4, Math.PI / 2, 1.3e-3]) {
      const { distance } = distanceUpToPhase(RZZ(theta), unitaryOf(GATE_DEFINITIONS.rzz!, theta));
      expect(distance).toBeLessThan(1e-12);
    }
    // The check can fail: the definition differs from rzz of another angle.
    expect(
      distanceUpToPhase(RZZ(0.5), unitaryOf(GATE_DEFINITIONS.rzz!, 0.6)).distance,
    ).toBeGreaterThan(1e-3);
    expect(distanceUpToPhase(ECR, unitaryOf(GATE_DEFINITIONS.rzz!, 0.5)).distance).toBeGreaterThan(
      0.1,
    );
  });

  it('the prelude defines only the used gates stdgates.inc lacks, and refuses a gate it cannot define', () => {
    expect(qasmPrelude(['rz', 'sx', 'x', 'cz'])).toEqual([
      'OPENQASM 3.0;',
      'include "stdgates.inc";',
    ]);
    const eagle = qasmPrelude(['x', 'ecr', 'rz']);
    expect(eagle.slice(2)).toEqual([GATE_DEFINITIONS.ecr]);
    expect(qasmPrelude(['rzz', 'ecr']).slice(2)).toEqual([
      GATE_DEFINITIONS.ecr,
      GATE_DEFINITIONS.rzz,
    ]);
    expect(() => qasmPrelude(['rz', 'iswap'])).toThrow(/no OpenQASM 3 definition for gate iswap/);
  });
});

describe('ibmUsage reads the same durations with the header and definitions', () => {
  it('circuitDurationNs is unchanged: the definitions’ bodies (named qubits) apply nothing', () => {
    const target: IbmTarget = {
      configuration: {
        ...IBM_BRISBANE_SNAPSHOT.configuration,
        basis_gates: [...IBM_BRISBANE_SNAPSHOT.configuration.basis_gates, 'rzz'],
      },
      fractionalGates: true,
    };
    const problem = {
      fields: [0.3, -0.2, 0.5, 0.1],
      couplings: [0, 0.4, 0.2, -0.3, 0, 0, 0.5, 0.1, 0, 0, 0, -0.6, 0, 0, 0, 0],
    };
    const { qasm } = transpileAnneal(problem, { tau: 2, steps: 2 }, target);
    expect(qasm).toContain(GATE_DEFINITIONS.ecr);
    expect(qasm).toContain(GATE_DEFINITIONS.rzz);
    // The same program without the include and the definitions (the form before them).
    const bare = qasm
      .replace('include "stdgates.inc";\n', '')
      .replace(`${GATE_DEFINITIONS.ecr}\n`, '')
      .replace(`${GATE_DEFINITIONS.rzz}\n`, '');
    expect(bare.startsWith('OPENQASM 3.0;\nbit[4] c;\n')).toBe(true);
    // Gate lengths that would show any body line counted: s and cx (only in the bodies) are huge.
    const seen: string[] = [];
    const length = (gate: string, qubits: readonly number[]): number => {
      seen.push(`${gate} ${qubits.join(',')}`);
      if (gate === 's' || gate === 'cx') return 1e9;
      return gate === 'measure' ? 1_400 : gate === 'rz' ? 0 : qubits.length === 2 ? 660 : 60;
    };
    const withHeader = circuitDurationNs(qasm, length);
    const calls = seen.splice(0);
    const without = circuitDurationNs(bare, length);
    expect(withHeader).toBe(without);
    expect(calls).toEqual(seen);
    expect(withHeader).toBeGreaterThan(1_400);
    expect(withHeader).toBeLessThan(1e9);
  });
});
