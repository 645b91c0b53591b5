/**
 * Test-server helper: a statevector interpreter for the OpenQASM 3 subset the DQA export and the
 * IBM router emit, written from the gate definitions (QUANTUM_APIS.md §2.6, §3) independently of
 * dqa-sim's simulator and of the router's decompositions.
 *
 * - Registers: `qubit[n] q;` with operands `q[i]`, or physical qubits `$k` without a declaration
 *   (numbered 0, 1, … in order of first appearance, so a 127-qubit device's 5 used qubits need 2^5
 *   amplitudes); `bit[n] <name>;`.
 * - Gates: `h`, `x`, `sx`, `rx(a)`, `rz(a)`, `cx`/`cnot`, `cz`, `ecr`, `zz(a)`/`rzz(a)`, with
 *   `rx(a) = exp(−iaX/2)`, `rz(a) = exp(−iaZ/2)`, `rzz(a) = exp(−ia Z⊗Z/2)`, `sx = √X` and Qiskit's
 *   `ecr = (1/√2)[[0,1,0,i],[1,0,−i,0],[0,i,0,1],[−i,0,1,0]]` (index bit 0 = first operand).
 * - `<name>[k] = measure <qubit>;`.
 * - `gate` definitions are skipped (the gates above are applied from their matrices).
 *
 * Returns the probability of each measured bitstring: index bit k = classical bit `c[k]`.
 */
export function simulateQasm(source: string): { qubits: number; probabilities: Float64Array } {
  const lines = withoutGateDefinitions(
    source
      .split('\n')
      .map((raw) => raw.replace(/\/\/.*$/, '').trim())
      .filter((line) => line !== '' && !/^OPENQASM\s/.test(line) && !/^include\s/.test(line)),
  );
  const physical = physicalQubits(lines);
  let register: Register | undefined = physical.size > 0 ? new Register(physical.size) : undefined;
  const measured = new Map<number, number>();
  const operand = (text: string): number => {
    const t = text.trim();
    const m = /^q\[(\d+)\]$/.exec(t);
    const j = m ? Number(m[1]) : physical.get(t);
    if (j === undefined || register === undefined || j >= register.n)
      throw new Error(`bad qubit operand ${text}`);
    return j;
  };
  for (const line of lines) {
    const declared = /^qubit\[(\d+)\]\s+q;$/.exec(line);
    const measure = /^\w+\[(\d+)\]\s*=\s*measure\s+(.+);$/.exec(line);
    if (declared) {
      if (physical.size > 0) throw new Error('a program mixes qubit[n] q with physical qubits');
      register = new Register(Number(declared[1]));
    } else if (/^bit\[\d+\]\s+\w+;$/.test(line)) {
      // the classical register needs no state
    } else if (measure) {
      measured.set(Number(measure[1]), operand(measure[2]!));
    } else {
      const gate = /^([a-z]+)(?:\(([^)]*)\))?\s+([^;]+);$/.exec(line);
      if (!gate || register === undefined)
        throw new Error(`unsupported OpenQASM statement: ${line}`);
      const angle = gate[2] === undefined ? Number.NaN : Number(gate[2]);
      if (gate[2] !== undefined && !Number.isFinite(angle))
        throw new Error(`the angle of ${line} is not a number literal`);
      applyGate(register, gate[1]!, angle, gate[3]!.split(',').map(operand));
    }
  }
  if (register === undefined || register.n < 1) throw new Error('no qubit register declared');
  return { qubits: register.n, probabilities: register.distribution(measured) };
}

/**
 * The lines without `gate name(…) a, b { … }` blocks (one or several lines): this interpreter
 * applies every gate from its own matrix, independently of the program's definitions (the IBM
 * path's definitions are checked against the same matrices in ibm/qasmGates.test.ts).
 */
function withoutGateDefinitions(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (!inside && /^gate\s/.test(line)) inside = true;
    if (!inside) out.push(line);
    else if (line.endsWith('}')) inside = false;
  }
  return out;
}

/** `$k` operands in order of first appearance → 0, 1, …. */
function physicalQubits(lines: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (const line of lines)
    for (const m of line.matchAll(/\$\d+/g)) if (!index.has(m[0])) index.set(m[0], index.size);
  return index;
}

/** A complex number `[re, im]`. */
type C = readonly [number, number];

/** A matrix from its real and imaginary parts (row-major). */
function mat(re: readonly number[], im: readonly number[] = []): C[] {
  return re.map((r, i) => [r, im[i] ?? 0]);
}

const R = Math.SQRT1_2;

/** A 2 × 2 or 4 × 4 matrix, row-major; a two-qubit index is `b_first + 2·b_second`. */
const FIXED: Readonly<Record<string, readonly C[]>> = {
  h: mat([R, R, R, -R]),
  x: mat([0, 1, 1, 0]),
  sx: mat([0.5, 0.5, 0.5, 0.5], [0.5, -0.5, -0.5, 0.5]),
  // Qiskit's ECR, (1/√2)[[0,1,0,i],[1,0,−i,0],[0,i,0,1],[−i,0,1,0]]
  ecr: mat(
    [0, R, 0, 0, R, 0, 0, 0, 0, 0, 0, R, 0, 0, R, 0],
    [0, 0, 0, R, 0, 0, -R, 0, 0, R, 0, 0, -R, 0, 0, 0],
  ),
  // control = first operand (bit 0): index 1 ↔ 3
  cx: mat([1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0]),
  cz: mat([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1]),
};

/** The matrix of a rotation `name(a)`. */
function rotation(name: string, a: number): readonly C[] | undefined {
  const c = Math.cos(a / 2);
  const s = Math.sin(a / 2);
  if (name === 'rx') return mat([c, 0, 0, c], [0, -s, -s, 0]);
  if (name === 'rz') return mat([c, 0, 0, c], [-s, 0, 0, s]);
  if (name === 'zz' || name === 'rzz')
    return mat(
      [c, 0, 0, 0, 0, c, 0, 0, 0, 0, c, 0, 0, 0, 0, c],
      [-s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, -s],
    );
  return undefined;
}

function applyGate(register: Register, name: string, angle: number, qubits: number[]): void {
  const m = Number.isNaN(angle) ? FIXED[name === 'cnot' ? 'cx' : name] : rotation(name, angle);
  if (m === undefined || Math.sqrt(m.length) !== 2 ** qubits.length)
    throw new Error(`unsupported gate ${name} on ${qubits.length} qubit(s)`);
  if (new Set(qubits).size !== qubits.length) throw new Error(`${name} repeats a qubit`);
  register.apply(m, qubits);
}

/** n qubits' amplitudes, index bit j = qubit j, starting in |0…0⟩. */
class Register {
  readonly re: Float64Array;
  readonly im: Float64Array;

  constructor(readonly n: number) {
    this.re = new Float64Array(2 ** n);
    this.im = new Float64Array(2 ** n);
    this.re[0] = 1;
  }

  /** Applies a 1- or 2-qubit matrix (see {@link FIXED} for the index order). */
  apply(m: readonly C[], qubits: readonly number[]): void {
    const dim = 2 ** qubits.length;
    const mask = qubits.reduce((acc, q) => acc | (1 << q), 0);
    const offsets = Array.from({ length: dim }, (_, i) =>
      qubits.reduce((acc, q, b) => acc | (((i >> b) & 1) << q), 0),
    );
    const vr = new Float64Array(dim);
    const vi = new Float64Array(dim);
    for (let s = 0; s < this.re.length; s++) {
      if (s & mask) continue;
      for (let i = 0; i < dim; i++) {
        vr[i] = this.re[s | offsets[i]!]!;
        vi[i] = this.im[s | offsets[i]!]!;
      }
      for (let r = 0; r < dim; r++) {
        let ar = 0;
        let ai = 0;
        for (let c = 0; c < dim; c++) {
          const [mr, mi] = m[r * dim + c]!;
          ar += mr * vr[c]! - mi * vi[c]!;
          ai += mr * vi[c]! + mi * vr[c]!;
        }
        this.re[s | offsets[r]!] = ar;
        this.im[s | offsets[r]!] = ai;
      }
    }
  }

  /** Probabilities of the classical bits (bit k of the index = `c[k]`). */
  distribution(measured: ReadonlyMap<number, number>): Float64Array {
    const out = new Float64Array(2 ** this.n);
    for (let s = 0; s < this.re.length; s++) {
      let bits = 0;
      for (const [c, qubit] of measured) if ((s >> qubit) & 1) bits |= 1 << c;
      out[bits]! += this.re[s]! ** 2 + this.im[s]! ** 2;
    }
    return out;
  }
}
