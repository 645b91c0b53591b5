/*
 * The engine's fused element-wise kernels, native: one source for every vector width (native/vec.h),
 * mirroring elementwise.wat's exports of the same names, parameters and results (elementwiseWat.mjs
 * writes that text; src/engine/elementwise.ts and embedding.ts call both). Every operand is a byte
 * offset into the arena; matrices are row-major rows × cols, contiguous.
 *
 * The GELU is the exact one of the tfjs model, ½ u (1 + erf(u/√2)), with its gradient
 * Φ(u) + u φ(u). erf and exp are the WAT's approximations, term for term and constant for
 * constant: erf is Eigen's float rational (odd degree 13 over even degree 8, argument clamped to
 * ±4) in the same Estrin order; exp is vmath.h's vexp, the WAT's Cephes expf. The build contracts
 * a·b + c into FMAs where the CPU has them (-ffp-contract=fast; GELU is 1.3× faster for it on
 * AVX-512), so on AVX2 / AVX-512 the GELU differs from wasm's by a few float32 roundings; the
 * portable baseline rounds as wasm does. Two places must round one way only: erf is one
 * out-of-line function, so the forward's saved Φ and the backward's Φ computed again are the same
 * bits (the compiler may contract each inlined copy differently), and the residual is not
 * contracted, x + y·mask rounded twice as wasm and the tfjs model do.
 *
 * Where the WAT runs the last cols mod 4 columns through lane 0 of its vector code, these kernels
 * run the last cols mod VW through the same vector code on a zero-padded partial vector, so every
 * element of a row goes through one formula whatever its column.
 */
#include "vmath.h"

/*
 * x clamped to [lo, hi] as the WAT's f32x4.pmax(f32x4.pmin(x, hi), lo): a NaN x stays NaN, each
 * compare being false.
 */
static inline vf clamp(vf x, float lo, float hi) {
  const vf h = vsplat(hi), l = vsplat(lo);
  x = vselect(h < x, h, x);
  return vselect(x < l, l, x);
}

/*
 * erf(u/√2): Eigen's float erf, t = clamp(u/√2, ±4), erf = t P(s) / Q(s) with s = t², both
 * polynomials by Estrin as the WAT pairs them: c_{k+1} s + c_k, then with s², then with s⁴.
 */
static __attribute__((noinline)) vf erf_half(vf u) {
  const vf t = clamp(u * 0.7071067811865476f, -4.0f, 4.0f);
  const vf s = t * t, n = s * s, r = n * n;
  const vf p = (-2.72614225801306e-10f * n +
                (2.77068142495902e-08f * s + -2.10102402082508e-06f)) * r +
               ((-5.69250639462346e-05f * s + -7.34990630326855e-04f) * n +
                (-2.95459980854025e-03f * s + -1.60960333262415e-02f));
  const vf q = -1.45660718464996e-05f * r +
               ((-2.13374055278905e-04f * s + -1.68282697438203e-03f) * n +
                (-7.37332916720468e-03f * s + -1.42647390514189e-02f));
  return (t * p) / q;
}

/* Φ(u) = ½(1 + erf(u/√2)) from t = erf(u/√2), as the forward saves it and the backward reads it. */
/* Out of line too, so that Φ stays one rounded product wherever it is used: inlined, the compiler
 * may fuse it into the gradient's c + u·w as (t + 1)·0.5 + u·w in one path and not the other. */
static __attribute__((noinline)) vf cdf_of(vf t) { return (t + 1.0f) * 0.5f; }

/* dy gelu'(u) = dy (Φ(u) + u exp(−u²/2)/√(2π)), with Φ(u) in c. */
static inline vf gelu_grad(vf u, vf g, vf c) {
  const vf e = vexp((u * u) * -0.5f);
  return g * (c + u * (e * 0.3989422804014327f));
}

/*
 * bias_gelu / bias_gelu_save (x, b, y, cdf, rows, cols): y = gelu(x + b) and, when `save`,
 * Φ(x + b) into cdf; x, y, cdf rows × cols, b cols (y may be x).
 */
static inline __attribute__((always_inline)) void gelu_forward(uint8_t *mem, const double *a,
                                                               int save) {
  const float *x = F32(mem, a[0]), *b = F32(mem, a[1]);
  float *y = F32(mem, a[2]), *cdf = F32(mem, a[3]);
  const uint32_t rows = (uint32_t)a[4], cols = (uint32_t)a[5];
  for (uint32_t i = 0; i < rows; i++) {
    const size_t row = (size_t)i * cols;
    uint32_t j = 0;
    for (; j + VW <= cols; j += VW) {
      const vf u = vload(x + row + j) + vload(b + j);
      const vf t = erf_half(u);
      vstore(y + row + j, (u * 0.5f) * (t + 1.0f));
      if (save) vstore(cdf + row + j, cdf_of(t));
    }
    if (j < cols) {
      const int32_t m = (int32_t)(cols - j);
      const vf u = vload_tail(x + row + j, m, 0.0f) + vload_tail(b + j, m, 0.0f);
      const vf t = erf_half(u);
      vstore_tail(y + row + j, (u * 0.5f) * (t + 1.0f), m);
      if (save) vstore_tail(cdf + row + j, cdf_of(t), m);
    }
  }
}

KERNEL(bias_gelu) {
  gelu_forward(mem, a, 0);
  return 0;
}

KERNEL(bias_gelu_save) {
  gelu_forward(mem, a, 1);
  return 0;
}

/*
 * bias_gelu_backward / _saved (x, b, cdf, dy, dx, db, rows, cols): dx = dy gelu'(x + b) and
 * db += Σ_rows dx, row by row (dx may be dy); `saved`: Φ(x + b) read from cdf, the forward's,
 * instead of computed again.
 */
static inline __attribute__((always_inline)) void gelu_backward(uint8_t *mem, const double *a,
                                                                int saved) {
  const float *x = F32(mem, a[0]), *b = F32(mem, a[1]), *cdf = F32(mem, a[2]), *dy = F32(mem, a[3]);
  float *dx = F32(mem, a[4]), *db = F32(mem, a[5]);
  const uint32_t rows = (uint32_t)a[6], cols = (uint32_t)a[7];
  for (uint32_t i = 0; i < rows; i++) {
    const size_t row = (size_t)i * cols;
    uint32_t j = 0;
    for (; j + VW <= cols; j += VW) {
      const vf u = vload(x + row + j) + vload(b + j);
      const vf c = saved ? vload(cdf + row + j) : cdf_of(erf_half(u));
      const vf y = gelu_grad(u, vload(dy + row + j), c);
      vstore(dx + row + j, y);
      vstore(db + j, vload(db + j) + y);
    }
    if (j < cols) {
      const int32_t m = (int32_t)(cols - j);
      const vf u = vload_tail(x + row + j, m, 0.0f) + vload_tail(b + j, m, 0.0f);
      const vf c = saved ? vload_tail(cdf + row + j, m, 0.0f) : cdf_of(erf_half(u));
      const vf y = gelu_grad(u, vload_tail(dy + row + j, m, 0.0f), c);
      vstore_tail(dx + row + j, y, m);
      vstore_tail(db + j, vload_tail(db + j, m, 0.0f) + y, m);
    }
  }
}

KERNEL(bias_gelu_backward) {
  gelu_backward(mem, a, 0);
  return 0;
}

KERNEL(bias_gelu_backward_saved) {
  gelu_backward(mem, a, 1);
  return 0;
}

/* residual (x, y, mask, out, n, has_mask): out = x + y ⊙ mask, or x + y when has_mask is 0
 * (out may be x or y). */
__attribute__((optimize("fp-contract=off"))) KERNEL(residual) {
  const float *x = F32(mem, a[0]), *y = F32(mem, a[1]), *mask = F32(mem, a[2]);
  float *out = F32(mem, a[3]);
  const uint32_t n = (uint32_t)a[4];
  uint32_t i = 0;
  if (a[5] != 0) {
    for (; i + VW <= n; i += VW) vstore(out + i, vload(x + i) + vload(y + i) * vload(mask + i));
    for (; i < n; i++) out[i] = x[i] + y[i] * mask[i];
  } else {
    for (; i + VW <= n; i += VW) vstore(out + i, vload(x + i) + vload(y + i));
    for (; i < n; i++) out[i] = x[i] + y[i];
  }
  return 0;
}

/* masked (x, mask, out, n): out = x ⊙ mask over n floats, the dropout of a tensor or of its
 * gradient (out may be x). */
KERNEL(masked) {
  const float *x = F32(mem, a[0]), *mask = F32(mem, a[1]);
  float *out = F32(mem, a[2]);
  const uint32_t n = (uint32_t)a[3];
  uint32_t i = 0;
  for (; i + VW <= n; i += VW) vstore(out + i, vload(x + i) * vload(mask + i));
  for (; i < n; i++) out[i] = x[i] * mask[i];
  return 0;
}

/* scale (x, out, n, s): out = s · x over n floats, s a float32 (out may be x): the attention
 * fields' 1/√d_k and their gradient's. */
KERNEL(scale) {
  const float *x = F32(mem, a[0]);
  float *out = F32(mem, a[1]);
  const uint32_t n = (uint32_t)a[2];
  const float s = (float)a[3];
  const vf sv = vsplat(s);
  uint32_t i = 0;
  for (; i + VW <= n; i += VW) vstore(out + i, vload(x + i) * sv);
  for (; i < n; i++) out[i] = x[i] * s;
  return 0;
}

/* dst[0..n) += src[0..n): the row adds of column_sums and embed_backward. */
static inline void add_row(float *dst, const float *src, uint32_t n) {
  uint32_t j = 0;
  for (; j + VW <= n; j += VW) vstore(dst + j, vload(dst + j) + vload(src + j));
  for (; j < n; j++) dst[j] += src[j];
}

/* column_sums (src, rows, cols, dst): dst += Σ_rows src over a rows × cols matrix (a bias's
 * gradient), row after row as wasm adds them. */
KERNEL(column_sums) {
  const float *src = F32(mem, a[0]);
  const uint32_t rows = (uint32_t)a[1], cols = (uint32_t)a[2];
  float *dst = F32(mem, a[3]);
  for (uint32_t i = 0; i < rows; i++) add_row(dst, src + (size_t)i * cols, cols);
  return 0;
}

/*
 * The table row of token i, as the WAT addresses it: table + tokens[i] · d floats, the byte
 * offset wrapping in 32 bits as wasm's i32 arithmetic does. Tokens below the table's rows are the
 * caller's contract (the engine checks its batches); wasm traps on one past the arena, native
 * does not know the arena's end.
 */
static inline float *token_row(uint8_t *mem, double table, const int32_t *tokens, uint32_t i,
                               uint32_t d) {
  const uint32_t bytes = ((uint32_t)tokens[i] * d) << 2;
  return F32(mem, (uint32_t)table + bytes);
}

/*
 * embed (tokens, table, positions, x, count, length, d, has_positions): x[i] = E[tokens[i]]
 * (+ P[i mod length]) for i < count, rows of d floats; tokens int32.
 */
KERNEL(embed) {
  const int32_t *tokens = I32(mem, a[0]);
  const float *positions = F32(mem, a[2]);
  float *x = F32(mem, a[3]);
  const uint32_t count = (uint32_t)a[4], length = (uint32_t)a[5], d = (uint32_t)a[6];
  const int has_positions = a[7] != 0;
  if (has_positions && length == 0) return 0; /* wasm traps on i mod 0; nothing to add from */
  for (uint32_t i = 0; i < count; i++) {
    const float *e = token_row(mem, a[1], tokens, i, d);
    float *row = x + (size_t)i * d;
    uint32_t j = 0;
    if (has_positions) {
      const float *p = positions + (size_t)(i % length) * d;
      for (; j + VW <= d; j += VW) vstore(row + j, vload(e + j) + vload(p + j));
      for (; j < d; j++) row[j] = e[j] + p[j];
    } else {
      memmove(row, e, (size_t)d * sizeof(float));
    }
  }
  return 0;
}

/*
 * embed_backward (tokens, g, dTable, dPositions, count, length, d, has_positions):
 * dE[tokens[i]] += g[i] (and dP[i mod length] += g[i]) for i < count, in order of i, so a token
 * seen twice adds its rows in the same order as wasm.
 */
KERNEL(embed_backward) {
  const int32_t *tokens = I32(mem, a[0]);
  const float *g = F32(mem, a[1]);
  float *d_positions = F32(mem, a[3]);
  const uint32_t count = (uint32_t)a[4], length = (uint32_t)a[5], d = (uint32_t)a[6];
  const int has_positions = a[7] != 0;
  if (has_positions && length == 0) return 0; /* wasm traps on i mod 0 */
  for (uint32_t i = 0; i < count; i++) {
    const float *row = g + (size_t)i * d;
    add_row(token_row(mem, a[2], tokens, i, d), row, d);
    if (has_positions) add_row(d_positions + (size_t)(i % length) * d, row, d);
  }
  return 0;
}

/* bias_rows (b, y, rows, cols): every row of the rows × cols matrix y set to the cols floats at b. */
KERNEL(bias_rows) {
  const float *b = F32(mem, a[0]);
  float *y = F32(mem, a[1]);
  const uint32_t rows = (uint32_t)a[2], cols = (uint32_t)a[3];
  for (uint32_t i = 0; i < rows; i++)
    memmove(y + (size_t)i * cols, b, (size_t)cols * sizeof(float));
  return 0;
}
