// The gate applications and measurements of a routed circuit's OpenQASM 3 text (transpile.ts's
// output): what duration and fidelity estimates walk. Lines that apply nothing to physical qubits
// (the header, includes, gate definitions, whose bodies name their own qubits) are skipped.

/** One gate on physical qubits, or a measurement (`gate` = 'measure'). */
export interface IsaStatement {
  readonly gate: string;
  readonly qubits: readonly number[];
}

const STATEMENT = /^([a-z_][a-z0-9_]*)(?:\([^)]*\))?\s+(\$\d+(?:\s*,\s*\$\d+)*)\s*;$/;
const MEASURE = /^[a-z_][a-z0-9_]*\[\d+\]\s*=\s*measure\s+\$(\d+)\s*;$/;

/** The statements of `qasm` on physical qubits `$k`, in program order. */
export function isaStatements(qasm: string): IsaStatement[] {
  const out: IsaStatement[] = [];
  for (const raw of qasm.split('\n')) {
    const line = raw.trim();
    const m = MEASURE.exec(line);
    if (m) {
      out.push({ gate: 'measure', qubits: [Number(m[1])] });
      continue;
    }
    const g = STATEMENT.exec(line);
    if (g)
      out.push({ gate: g[1]!, qubits: g[2]!.split(',').map((s) => Number(s.trim().slice(1))) });
  }
  return out;
}
