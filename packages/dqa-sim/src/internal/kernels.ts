// Hot loops of the simulator over typed arrays. Index convention everywhere: bit j of the
// state index is set ⇔ s_j = +1 (the ising-core convention). Couplings are n × n row-major,
// strict upper triangle read (J[j * n + k], j < k).

/**
 * Fills `out[0 .. 2^n)` with `E(s) = −Σ h_j s_j − Σ_{j<k} J_jk s_j s_k` by the prefix DP of
 * METHOD.md §2: adding spin b to the states of the first b spins adds `∓ L(s)` with the local
 * field `L(s) = h_b + Σ_{j<b} J_jb s_j`, itself a field DP. O(2^n) adds in total.
 */
export function fillEnergy(out: Float64Array, h: Float64Array, J: Float64Array, n: number): void {
  out[0] = 0;
  for (let b = 0; b < n; b++) {
    const size = 1 << b;
    // Upper half first holds L(s) for s < 2^b.
    let l0 = h[b]!;
    for (let j = 0; j < b; j++) l0 -= J[j * n + b]!;
    out[size] = l0;
    for (let c = 0; c < b; c++) {
      const step = 2 * J[c * n + b]!;
      const lo = size;
      const width = 1 << c;
      for (let s = 0; s < width; s++) out[lo + width + s] = out[lo + s]! + step;
    }
    for (let s = 0; s < size; s++) {
      const e = out[s]!;
      const l = out[size + s]!;
      out[s] = e + l; // s_b = −1
      out[size + s] = e - l; // s_b = +1
    }
  }
}

/**
 * Fills `(pr, pi)[0 .. 2^n)` with the diagonal phase `exp(−iθ E(s))` by the same prefix DP,
 * multiplicatively: only O(n²) cos/sin calls, then one complex multiply per state and level
 * (about three per state in total) instead of a cos and a sin per state.
 */
export function fillPhase(pr: Float64Array, pi: Float64Array, h: Float64Array, J: Float64Array, n: number, theta: number): void {
  pr[0] = 1;
  pi[0] = 0;
  for (let b = 0; b < n; b++) {
    const size = 1 << b;
    // Upper half first holds w(s) = exp(+iθ L(s)).
    let l0 = h[b]!;
    for (let j = 0; j < b; j++) l0 -= J[j * n + b]!;
    pr[size] = Math.cos(theta * l0);
    pi[size] = Math.sin(theta * l0);
    for (let c = 0; c < b; c++) {
      const ang = 2 * theta * J[c * n + b]!;
      const cr = Math.cos(ang);
      const ci = Math.sin(ang);
      const width = 1 << c;
      const src = size;
      const dst = size + width;
      for (let s = 0; s < width; s++) {
        const xr = pr[src + s]!;
        const xi = pi[src + s]!;
        pr[dst + s] = xr * cr - xi * ci;
        pi[dst + s] = xr * ci + xi * cr;
      }
    }
    for (let s = 0; s < size; s++) {
      const er = pr[s]!;
      const ei = pi[s]!;
      const wr = pr[size + s]!;
      const wi = pi[size + s]!;
      // s_b = −1: E grows by L → multiply by conj(w); s_b = +1: multiply by w.
      pr[s] = er * wr + ei * wi;
      pi[s] = ei * wr - er * wi;
      pr[size + s] = er * wr - ei * wi;
      pi[size + s] = er * wi + ei * wr;
    }
  }
}

/** `ψ ← ψ ⊙ p` elementwise over `len` complex entries. */
export function multiplyPhase(re: Float64Array, im: Float64Array, pr: Float64Array, pi: Float64Array, len: number): void {
  for (let s = 0; s < len; s++) {
    const xr = re[s]!;
    const xi = im[s]!;
    const yr = pr[s]!;
    const yi = pi[s]!;
    re[s] = xr * yr - xi * yi;
    im[s] = xr * yi + xi * yr;
  }
}

/**
 * `ψ ← Π_j exp(+iφ X_j) ψ` (each factor is `Rx(−2φ)`), as n in-place butterfly passes.
 * `exp(iφX) = cos φ · I + i sin φ · X` mixes the amplitudes at `s` and `s ^ 2^j`.
 */
export function applyMixer(re: Float64Array, im: Float64Array, n: number, phi: number): void {
  const c = Math.cos(phi);
  const sn = Math.sin(phi);
  const len = 1 << n;
  for (let j = 0; j < n; j++) {
    const half = 1 << j;
    for (let base = 0; base < len; base += 2 * half) {
      const end = base + half;
      for (let a = base; a < end; a++) {
        const b = a + half;
        const ar = re[a]!;
        const ai = im[a]!;
        const br = re[b]!;
        const bi = im[b]!;
        re[a] = c * ar - sn * bi;
        im[a] = c * ai + sn * br;
        re[b] = c * br - sn * ai;
        im[b] = c * bi + sn * ar;
      }
    }
  }
}
