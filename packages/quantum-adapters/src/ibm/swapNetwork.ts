// Routing of dqa-sim's Trotter circuit onto a line of qubits: every coupling of a problem layer is
// applied by an odd–even swap network, fields and mixers act wherever each spin currently sits.
import type { AnnealCircuit, PhaseLayer } from '@boltzmann/dqa-sim';
import { planNetwork } from './networkPlan.js';
import type { NetworkPlan } from './networkPlan.js';

/**
 * A gate on positions of the line (position p is `layout.physicalQubits[p]`), q = p + 1 for the
 * two-position gates. `zz` is `Rzz(angle) = exp(−i·angle Z⊗Z/2)`; `zzswap` is `Rzz(angle)` then a
 * SWAP (`cx p,q; rz(angle) q; cx q,p; cx p,q`); `swap` is a bare SWAP.
 */
export type LineGate =
  | { readonly gate: 'h'; readonly p: number }
  | { readonly gate: 'rz' | 'rx'; readonly p: number; readonly angle: number }
  | {
      readonly gate: 'zz' | 'zzswap';
      readonly p: number;
      readonly q: number;
      readonly angle: number;
    }
  | { readonly gate: 'swap'; readonly p: number; readonly q: number };

/** The routed circuit on the line, before decomposition into a device's gates. */
export interface LineCircuit {
  readonly n: number;
  /** Gates in time order, starting with `h` on every position. */
  readonly gates: readonly LineGate[];
  /** Logical spin held by each position after the last gate (measure position k into bit k). */
  readonly logicalAt: readonly number[];
  /** Odd–even layers of the network per Trotter step (0 without couplings). */
  readonly layersPerStep: number;
}

/** Every coupled pair of the circuit (key `j·n + k`, j < k). */
function couplingPattern(circuit: AnnealCircuit): Set<number> {
  const needed = new Set<number>();
  for (const layer of circuit.layers)
    if (layer.kind === 'phase') for (const [j, k] of layer.zz) needed.add(j * circuit.n + k);
  return needed;
}

/** The line's state while gates are emitted: where each spin is. */
class LineState {
  readonly gates: LineGate[] = [];
  readonly at: number[];
  readonly pos: number[];

  constructor(
    readonly n: number,
    readonly plan: NetworkPlan,
  ) {
    this.at = [...plan.start];
    this.pos = new Array<number>(n);
    this.at.forEach((logical, p) => {
      this.pos[logical] = p;
    });
  }

  private exchange(p: number): void {
    const a = this.at[p]!;
    const b = this.at[p + 1]!;
    this.at[p] = b;
    this.at[p + 1] = a;
    this.pos[a] = p + 1;
    this.pos[b] = p;
  }

  /**
   * One problem layer's couplings: the network's layers in order (`forward`) or mirrored, so that
   * two steps in a row bring every spin back. The first and last layers apply couplings only.
   */
  network(layer: PhaseLayer, forward: boolean): void {
    const { n, plan } = this;
    const angles = new Map<number, number>();
    for (const [j, k, a] of layer.zz) angles.set(j * n + k, a);
    const done = new Set<number>();
    const L = plan.layers;
    for (let i = 0; i < L; i++) {
      const l = forward ? i : L - 1 - i;
      const swaps = l !== 0 && l !== L - 1;
      for (let p = (l + plan.parity) % 2; p + 1 < n; p += 2) {
        const a = this.at[p]!;
        const b = this.at[p + 1]!;
        const key = a < b ? a * n + b : b * n + a;
        const angle = done.has(key) ? undefined : angles.get(key);
        if (angle !== undefined) done.add(key);
        if (!swaps) {
          if (angle !== undefined) this.gates.push({ gate: 'zz', p, q: p + 1, angle });
          continue;
        }
        this.gates.push(
          angle === undefined
            ? { gate: 'swap', p, q: p + 1 }
            : { gate: 'zzswap', p, q: p + 1, angle },
        );
        this.exchange(p);
      }
    }
    if (done.size !== angles.size)
      throw new Error(`swap network met ${done.size} of ${angles.size} couplings`);
  }
}

/**
 * Routes the Trotter circuit onto a line of `circuit.n` positions: `h` everywhere, then per layer
 * the fields (`rz` on the position holding each spin), the couplings through the swap network of
 * {@link planNetwork} (forward on even steps, mirrored on odd ones, so the permutation undoes
 * itself every two steps), and the mixers (`rx` on every position).
 *
 * @param circuit dqa-sim's `annealCircuit` output.
 * @returns the line circuit and where each spin ends.
 */
export function routeOnLine(circuit: AnnealCircuit): LineCircuit {
  const { n } = circuit;
  const plan = planNetwork(n, couplingPattern(circuit));
  const line = new LineState(n, plan);
  for (let p = 0; p < n; p++) line.gates.push({ gate: 'h', p });
  let step = 0;
  for (const layer of circuit.layers) {
    if (layer.kind === 'mixer') {
      for (let p = 0; p < n; p++) line.gates.push({ gate: 'rx', p, angle: layer.rx });
      continue;
    }
    for (let j = 0; j < n; j++) {
      const angle = layer.rz[j]!;
      if (angle !== 0) line.gates.push({ gate: 'rz', p: line.pos[j]!, angle });
    }
    if (layer.zz.length > 0 && plan.layers > 0) line.network(layer, step++ % 2 === 0);
  }
  return { n, gates: line.gates, logicalAt: [...line.at], layersPerStep: plan.layers };
}
