// Decomposition of the routed line circuit into a device's native gates (QUANTUM_APIS.md §3):
// `rz, sx, x` with `cz` (Heron) or `ecr` (Eagle), and fractional `rzz` when enabled.
import { invalidArgument } from '../shared/errors.js';
import type { IbmBackendConfiguration, IbmTwoQubitBasis } from './ibmTypes.js';
import type { LineGate } from './swapNetwork.js';

/** One native gate on physical qubits. `angle` is set for `rz` and `rzz`. */
export interface IsaGate {
  readonly name: 'rz' | 'sx' | 'x' | 'cz' | 'ecr' | 'rzz';
  readonly qubits: readonly number[];
  readonly angle?: number;
}

/** The gates a circuit is decomposed into. */
export interface IsaBasis {
  readonly twoQubit: IbmTwoQubitBasis;
  /** Emit lone couplings as one fractional `rzz`. */
  readonly rzz: boolean;
}

const PI = Math.PI;
const TWO_PI = 2 * Math.PI;
/** An `rz` this close to 0 (mod 2π) is rounding residue and is dropped. */
const ZERO_ANGLE = 1e-12;

/**
 * The native gate set of a backend: `cz` when `basis_gates` has it, else `ecr`; `rz`, `sx` and `x`
 * are required; `rzz` when `fractional` and the basis lists it.
 *
 * @throws {AdapterError} ADAPTER_INVALID_ARGUMENT when the basis has neither `cz` nor `ecr`, or lacks `rz`, `sx` or `x`.
 */
export function isaBasis(configuration: IbmBackendConfiguration, fractional: boolean): IsaBasis {
  const basis = configuration.basis_gates;
  const twoQubit = basis.includes('cz') ? 'cz' : basis.includes('ecr') ? 'ecr' : undefined;
  const missing = ['rz', 'sx', 'x'].filter((g) => !basis.includes(g));
  if (twoQubit === undefined || missing.length > 0) {
    throw invalidArgument(
      `${configuration.backend_name}: basis_gates ${JSON.stringify(basis)} ` +
        (twoQubit === undefined
          ? 'have neither cz nor ecr; only cz (Heron) and ecr (Eagle) devices can be routed onto'
          : `lack ${missing.join(', ')}`),
    );
  }
  return { twoQubit, rzz: fractional && basis.includes('rzz') };
}

/** `a` reduced into (−π, π] (rz(a + 2π) = −rz(a), a global phase). */
function reduce(a: number): number {
  const r = a - TWO_PI * Math.round(a / TWO_PI);
  return r <= -PI ? r + TWO_PI : r;
}

/**
 * Collects native gates on physical qubits. `rz` is virtual and diagonal: it is held back per
 * qubit and merged with the next ones, moved through `cz` and `rzz` (both diagonal), emitted
 * before the next `sx`, `x` or `ecr` on that qubit, and dropped before the first of those (|0⟩ is
 * an eigenstate) and before measurement (Z-basis readout ignores it). All of that is exact up to a
 * global phase.
 */
export class IsaBuilder {
  readonly gates: IsaGate[] = [];
  private readonly pending = new Map<number, number>();
  private readonly touched = new Set<number>();
  private readonly coupled = new Set<string>();

  /**
   * @param basis the native gates.
   * @param couplingMap the device's directed pairs (`ecr` only in a listed direction).
   */
  constructor(
    readonly basis: IsaBasis,
    couplingMap: readonly (readonly [number, number])[],
  ) {
    for (const [a, b] of couplingMap) this.coupled.add(`${a},${b}`);
  }

  rz(q: number, angle: number): void {
    this.pending.set(q, (this.pending.get(q) ?? 0) + angle);
  }

  /** Emits the held-back `rz` of qubit q (before a gate that does not commute with it). */
  private flush(q: number): void {
    const a = reduce(this.pending.get(q) ?? 0);
    this.pending.delete(q);
    if (this.touched.has(q) && Math.abs(a) > ZERO_ANGLE)
      this.gates.push({ name: 'rz', qubits: [q], angle: a });
    this.touched.add(q);
  }

  sx(q: number): void {
    this.flush(q);
    this.gates.push({ name: 'sx', qubits: [q] });
  }

  x(q: number): void {
    this.flush(q);
    this.gates.push({ name: 'x', qubits: [q] });
  }

  /** `h ≅ rz(π/2) sx rz(π/2)`. */
  h(q: number): void {
    this.rz(q, PI / 2);
    this.sx(q);
    this.rz(q, PI / 2);
  }

  /** `rx(θ) ≅ rz(π/2) sx rz(θ + π) sx rz(5π/2)`. */
  rx(q: number, theta: number): void {
    this.rz(q, PI / 2);
    this.sx(q);
    this.rz(q, theta + PI);
    this.sx(q);
    this.rz(q, (5 * PI) / 2);
  }

  /** True when `ecr a, b` is calibrated (listed in that direction). */
  native(a: number, b: number): boolean {
    return this.coupled.has(`${a},${b}`);
  }

  private assertCoupled(a: number, b: number): void {
    if (!this.native(a, b) && !this.native(b, a))
      throw new Error(`qubits ${a} and ${b} are not coupled`);
  }

  /**
   * `cx(c, t)`. cz: `h t; cz c,t; h t`. ecr in its calibrated direction:
   * `x c; sx t; ecr c,t; rz(π/2) c` (derived from Qiskit's ECR matrix; see the tests); against
   * it, `cx(c, t) = (h ⊗ h) cx(t, c) (h ⊗ h)`.
   */
  cx(c: number, t: number): void {
    this.assertCoupled(c, t);
    if (this.basis.twoQubit === 'cz') {
      this.h(t);
      this.gates.push({ name: 'cz', qubits: [c, t] });
      this.h(t);
    } else if (this.native(c, t)) {
      this.x(c);
      this.sx(t);
      this.flush(c);
      this.gates.push({ name: 'ecr', qubits: [c, t] });
      this.rz(c, PI / 2);
    } else {
      this.h(c);
      this.h(t);
      this.cx(t, c);
      this.h(c);
      this.h(t);
    }
  }

  /**
   * Fractional `rzz(θ)`, its angle folded into [0, π/2]: θ into (−π, π] (a 2π turn is a global
   * phase), `rzz(−θ) = (X⊗I) rzz(θ) (X⊗I)`, and for |θ| > π/2 `rzz(θ) ≅ (Z⊗Z) rzz(θ − π)` with
   * `Z ≅ rz(π)`.
   */
  rzz(a: number, b: number, theta: number): void {
    this.assertCoupled(a, b);
    const r = reduce(theta);
    const size = Math.abs(r);
    const wide = size > PI / 2;
    const angle = wide ? PI - size : size;
    const flip = r < 0 !== wide;
    if (angle !== 0) {
      if (flip) this.x(a);
      const [p, q] = this.native(a, b) ? [a, b] : [b, a];
      this.gates.push({ name: 'rzz', qubits: [p, q], angle });
      if (flip) this.x(a);
    }
    if (wide) {
      this.rz(a, PI);
      this.rz(b, PI);
    }
  }

  /** A line gate on physical qubits `a` (position p) and `b` (position q). */
  apply(gate: LineGate, physical: readonly number[]): void {
    const a = physical[gate.p]!;
    if (!('q' in gate)) {
      if (gate.gate === 'h') this.h(a);
      else if (gate.gate === 'rz') this.rz(a, gate.angle);
      else this.rx(a, gate.angle);
      return;
    }
    const b0 = physical[gate.q]!;
    // Orient the pair so that most cx run in the calibrated ecr direction (cz is symmetric).
    const [p, q] = this.basis.twoQubit === 'ecr' && !this.native(a, b0) ? [b0, a] : [a, b0];
    if (gate.gate === 'zz' && this.basis.rzz) {
      this.rzz(p, q, gate.angle);
      return;
    }
    this.cx(p, q);
    if (gate.gate !== 'swap') this.rz(q, gate.angle);
    if (gate.gate === 'zz') {
      this.cx(p, q);
      return;
    }
    this.cx(q, p);
    this.cx(p, q);
  }

  /** The gates, with the `rz` still held back dropped (they precede measurement). */
  finish(): readonly IsaGate[] {
    this.pending.clear();
    return this.gates;
  }
}
