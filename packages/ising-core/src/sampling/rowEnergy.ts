/**
 * `E(s) = −Σ_j h_j s_j − Σ_{j<k} J_jk s_j s_k` of each row of `states` (`n` spins a row), with
 * `couplings` an `n × n` row-major matrix whose strict upper triangle is read: the energy of
 * `energies()` in exact.ts, evaluated per row instead of for all `2^n` states.
 */
export function rowEnergies(
  fields: Float64Array,
  couplings: Float64Array,
  n: number,
  states: Int8Array,
): Float64Array {
  const rows = n === 0 ? 0 : states.length / n;
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    const o = r * n;
    let e = 0;
    for (let j = 0; j < n; j++) {
      const sj = states[o + j]!;
      let local = fields[j]!;
      for (let k = j + 1; k < n; k++) local += couplings[j * n + k]! * states[o + k]!;
      e -= sj * local;
    }
    out[r] = e;
  }
  return out;
}
