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
 * Writes `w(s) = exp(+iθ L_b(s))` for `s < 2^b` into `(pr, pi)[2^b ..)`, with the local field of
 * spin b, `L_b(s) = h_b + Σ_{j<b} J_jb s_j`, as a product DP: b + 1 cos/sin pairs in all.
 */
function localPhase(
  pr: Float64Array,
  pi: Float64Array,
  h: Float64Array,
  J: Float64Array,
  n: number,
  b: number,
  theta: number,
): void {
  const size = 1 << b;
  let l0 = h[b]!;
  for (let j = 0; j < b; j++) l0 -= J[j * n + b]!;
  pr[size] = Math.cos(theta * l0);
  pi[size] = Math.sin(theta * l0);
  for (let c = 0; c < b; c++) {
    const ang = 2 * theta * J[c * n + b]!;
    const cr = Math.cos(ang);
    const ci = Math.sin(ang);
    const width = 1 << c;
    const dst = size + width;
    for (let s = 0; s < width; s++) {
      const xr = pr[size + s]!;
      const xi = pi[size + s]!;
      pr[dst + s] = xr * cr - xi * ci;
      pi[dst + s] = xr * ci + xi * cr;
    }
  }
}

/**
 * Fills `(pr, pi)[0 .. 2^levels)` with the phase `exp(−iθ E_levels(s))` of the first `levels` spins
 * by the prefix DP: adding spin b multiplies by `conj(w)` where `s_b = −1` (E grows by L) and by
 * `w` where `s_b = +1`. Only O(n²) cos/sin calls, about three complex multiplies per state.
 */
function phaseLevels(
  pr: Float64Array,
  pi: Float64Array,
  h: Float64Array,
  J: Float64Array,
  n: number,
  levels: number,
  theta: number,
): void {
  pr[0] = 1;
  pi[0] = 0;
  for (let b = 0; b < levels; b++) {
    const size = 1 << b;
    localPhase(pr, pi, h, J, n, b, theta);
    for (let s = 0; s < size; s++) {
      const er = pr[s]!;
      const ei = pi[s]!;
      const wr = pr[size + s]!;
      const wi = pi[size + s]!;
      pr[s] = er * wr + ei * wi;
      pi[s] = ei * wr - er * wi;
      pr[size + s] = er * wr - ei * wi;
      pi[size + s] = er * wi + ei * wr;
    }
  }
}

/**
 * `ψ ← exp(−iθ E) ψ` without materializing the full phase vector: the DP runs to n − 1 spins in
 * the scratch `(pr, pi)`, and the last spin's factor is applied to ψ directly, which saves one
 * write and one read of 2^n complex numbers per layer.
 */
export function applyPhase(
  re: Float64Array,
  im: Float64Array,
  pr: Float64Array,
  pi: Float64Array,
  h: Float64Array,
  J: Float64Array,
  n: number,
  theta: number,
): void {
  const b = n - 1;
  phaseLevels(pr, pi, h, J, n, b, theta);
  localPhase(pr, pi, h, J, n, b, theta);
  const size = 1 << b;
  for (let s = 0; s < size; s++) {
    const er = pr[s]!;
    const ei = pi[s]!;
    const wr = pr[size + s]!;
    const wi = pi[size + s]!;
    const dr = er * wr + ei * wi; // s_b = −1
    const di = ei * wr - er * wi;
    const ur = er * wr - ei * wi; // s_b = +1
    const ui = er * wi + ei * wr;
    const xr = re[s]!;
    const xi = im[s]!;
    re[s] = xr * dr - xi * di;
    im[s] = xr * di + xi * dr;
    const yr = re[size + s]!;
    const yi = im[size + s]!;
    re[size + s] = yr * ur - yi * ui;
    im[size + s] = yr * ui + yi * ur;
  }
}

/** Qubits below this bit are mixed block by block while the block (2^12 × 16 B = 64 KiB) stays in cache. */
const BLOCK_BITS = 12;

/** One exp(iφX) butterfly pass for qubit j over `[start, end)` (the range is a multiple of 2^(j+1)). */
function mixOne(
  re: Float64Array,
  im: Float64Array,
  j: number,
  c: number,
  sn: number,
  start: number,
  end: number,
): void {
  const half = 1 << j;
  for (let base = start; base < end; base += 2 * half) {
    const stop = base + half;
    for (let a = base; a < stop; a++) {
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

/**
 * exp(iφX_j) · exp(iφX_{j+1}) on `[start, start + count·4)` in one pass over memory (radix-4): the
 * four amplitudes that differ in bits j and j + 1 stay in registers. One flat loop over the
 * index with those two bits removed avoids short inner loops at small j.
 */
function mixPair(
  re: Float64Array,
  im: Float64Array,
  j: number,
  c: number,
  sn: number,
  start: number,
  count: number,
): void {
  const h1 = 1 << j;
  const h2 = h1 << 1;
  const lowMask = h1 - 1;
  for (let k = 0; k < count; k++) {
    const i0 = start + (((k & ~lowMask) << 2) | (k & lowMask));
    const i1 = i0 + h1;
    const i2 = i0 + h2;
    const i3 = i2 + h1;
    const r0 = re[i0]!;
    const m0 = im[i0]!;
    const r1 = re[i1]!;
    const m1 = im[i1]!;
    const r2 = re[i2]!;
    const m2 = im[i2]!;
    const r3 = re[i3]!;
    const m3 = im[i3]!;
    // qubit j: (0,1) and (2,3)
    const a0r = c * r0 - sn * m1;
    const a0i = c * m0 + sn * r1;
    const a1r = c * r1 - sn * m0;
    const a1i = c * m1 + sn * r0;
    const a2r = c * r2 - sn * m3;
    const a2i = c * m2 + sn * r3;
    const a3r = c * r3 - sn * m2;
    const a3i = c * m3 + sn * r2;
    // qubit j + 1: (0,2) and (1,3)
    re[i0] = c * a0r - sn * a2i;
    im[i0] = c * a0i + sn * a2r;
    re[i2] = c * a2r - sn * a0i;
    im[i2] = c * a2i + sn * a0r;
    re[i1] = c * a1r - sn * a3i;
    im[i1] = c * a1i + sn * a3r;
    re[i3] = c * a3r - sn * a1i;
    im[i3] = c * a3i + sn * a1r;
  }
}

/**
 * `ψ ← Π_j exp(+iφ X_j) ψ` (each factor is `Rx(−2φ)`): `exp(iφX) = cos φ · I + i sin φ · X` mixes
 * the amplitudes at `s` and `s ^ 2^j`. The factors commute, so the order of the passes is free:
 * low qubits are mixed block by block in cache, high qubits two at a time, which cuts the sweeps
 * over a large statevector from n to about 1 + (n − 12)/2.
 */
export function applyMixer(re: Float64Array, im: Float64Array, n: number, phi: number): void {
  const c = Math.cos(phi);
  const sn = Math.sin(phi);
  const len = 1 << n;
  // Low qubits in pairs, block by block; an odd one out is mixed alone.
  const low = Math.min(n, BLOCK_BITS);
  const block = 1 << low;
  for (let start = 0; start < len; start += block) {
    let j = 0;
    for (; j + 1 < low; j += 2) mixPair(re, im, j, c, sn, start, block >> 2);
    if (j < low) mixOne(re, im, j, c, sn, start, start + block);
  }
  let j = low;
  for (; j + 1 < n; j += 2) mixPair(re, im, j, c, sn, 0, len >> 2);
  if (j < n) mixOne(re, im, j, c, sn, 0, len);
}
