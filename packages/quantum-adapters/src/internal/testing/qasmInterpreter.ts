// biome-ignore-all lint/suspicious/noAssignInExpressions: a regex dispatch, `else if ((m = re.exec(line)))`, keeps each statement's match beside its handler.
/**
 * Test-server helper: a statevector interpreter for the OpenQASM 3 subset the DQA export uses
 * (`qubit[n]`, `bit[n]`, `h`, `rx`, `rz`, `zz`, `cx`/`cnot`, `c[j] = measure q[j]`), written from the
 * gate definitions of QUANTUM_APIS.md §2.6 independently of dqa-sim's simulator.
 * Returns the probability of each measured bitstring: index bit j = classical bit c[j].
 */
export function simulateQasm(source: string): { qubits: number; probabilities: Float64Array } {
  let n = -1;
  let re = new Float64Array(0);
  let im = new Float64Array(0);
  const measured = new Map<number, number>();
  const q = (text: string): number => {
    const m = /^q\[(\d+)\]$/.exec(text.trim());
    if (!m || Number(m[1]) >= n) throw new Error(`bad qubit operand ${text}`);
    return Number(m[1]);
  };
  const single = (
    j: number,
    m00re: number,
    m00im: number,
    m01re: number,
    m01im: number,
    m10re: number,
    m10im: number,
    m11re: number,
    m11im: number,
  ): void => {
    const bit = 1 << j;
    for (let s = 0; s < re.length; s++) {
      if (s & bit) continue;
      const t = s | bit;
      const ar = re[s]!,
        ai = im[s]!,
        br = re[t]!,
        bi = im[t]!;
      re[s] = m00re * ar - m00im * ai + m01re * br - m01im * bi;
      im[s] = m00re * ai + m00im * ar + m01re * bi + m01im * br;
      re[t] = m10re * ar - m10im * ai + m11re * br - m11im * bi;
      im[t] = m10re * ai + m10im * ar + m11re * bi + m11im * br;
    }
  };
  const phase = (s: number, angle: number): void => {
    const c = Math.cos(angle),
      d = Math.sin(angle);
    const r = re[s]!,
      i = im[s]!;
    re[s] = c * r - d * i;
    im[s] = c * i + d * r;
  };
  for (const rawLine of source.split('\n')) {
    const line = rawLine.replace(/\/\/.*$/, '').trim();
    if (line === '' || /^OPENQASM\s/.test(line) || /^include\s/.test(line)) continue;
    let m: RegExpExecArray | null;
    if ((m = /^qubit\[(\d+)\]\s+q;$/.exec(line))) {
      n = Number(m[1]);
      re = new Float64Array(2 ** n);
      im = new Float64Array(2 ** n);
      re[0] = 1;
    } else if (/^bit\[\d+\]\s+\w+;$/.test(line)) {
      // the classical register needs no state
    } else if ((m = /^h\s+(.+);$/.exec(line))) {
      const r = Math.SQRT1_2;
      single(q(m[1]!), r, 0, r, 0, r, 0, -r, 0);
    } else if ((m = /^rx\(([^)]+)\)\s+(.+);$/.exec(line))) {
      const a = Number(m[1]) / 2;
      single(q(m[2]!), Math.cos(a), 0, 0, -Math.sin(a), 0, -Math.sin(a), Math.cos(a), 0);
    } else if ((m = /^rz\(([^)]+)\)\s+(.+);$/.exec(line))) {
      const a = Number(m[1]) / 2;
      single(q(m[2]!), Math.cos(a), -Math.sin(a), 0, 0, 0, 0, Math.cos(a), Math.sin(a));
    } else if ((m = /^zz\(([^)]+)\)\s+([^,]+),(.+);$/.exec(line))) {
      const a = Number(m[1]) / 2;
      const j = q(m[2]!),
        k = q(m[3]!);
      for (let s = 0; s < re.length; s++) phase(s, ((s >> j) ^ (s >> k)) & 1 ? a : -a);
    } else if ((m = /^(?:cx|cnot)\s+([^,]+),(.+);$/.exec(line))) {
      const c = q(m[1]!),
        t = q(m[2]!);
      for (let s = 0; s < re.length; s++) {
        if ((s >> c) & 1 && !((s >> t) & 1)) {
          const u = s | (1 << t);
          [re[s], re[u]] = [re[u]!, re[s]!];
          [im[s], im[u]] = [im[u]!, im[s]!];
        }
      }
    } else if ((m = /^c\[(\d+)\]\s*=\s*measure\s+(.+);$/.exec(line))) {
      measured.set(Number(m[1]), q(m[2]!));
    } else {
      throw new Error(`unsupported OpenQASM statement: ${line}`);
    }
  }
  if (n < 1) throw new Error('no qubit register declared');
  const probabilities = new Float64Array(2 ** n);
  for (let s = 0; s < re.length; s++) {
    let bits = 0;
    for (const [c, qubit] of measured) if ((s >> qubit) & 1) bits |= 1 << c;
    probabilities[bits]! += re[s]! * re[s]! + im[s]! * im[s]!;
  }
  return { qubits: n, probabilities };
}
