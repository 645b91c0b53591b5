/*
 * The engine's LayerNorm kernels, one source for every vector width (native/vec.h); they mirror
 * layerNorm.wat's exports of the same names (layerNormWat.mjs writes that text), as the tfjs
 * model's: over each row of cols floats, biased variance, ε = 1e-5, y = x̂ γ (+ β),
 * x̂ = (x − μ) rstd. Forward: one sweep for the statistics (sums of x − x₀ and its square, shifted
 * by the row's first entry so that E[d²] − E[d]² does not cancel for a row far from zero), one
 * writing y; the row's μ and rstd are saved for the backward. Backward (llm.c's): one sweep for
 * Σ g and Σ g x̂ (g = dy γ) that also accumulates dγ += dy x̂ and dβ += dy, one writing
 * dx = (g − mean g − x̂ mean(g x̂)) rstd. VW columns at a time, the rest scalar.
 */
#include "vmath.h"

/* The row's statistics: *m = mean(x − x₀) and the returned rstd = 1/√(var + ε). */
static float row_statistics(const float *x, int32_t cols, float *m) {
  const float x0 = x[0], c = (float)cols;
  vf v0 = vsplat(0.0f), v1 = vsplat(0.0f);
  float s0 = 0.0f, s1 = 0.0f;
  int32_t j = 0;
  for (; j + VW <= cols; j += VW) {
    const vf d = vload(x + j) - x0;
    v0 += d;
    v1 += d * d;
  }
  for (; j < cols; j++) {
    const float d = x[j] - x0;
    s0 += d;
    s1 += d * d;
  }
  s0 += vhsum(v0);
  s1 += vhsum(v1);
  *m = s0 / c;
  const float var = s1 / c - *m * *m;
  return 1.0f / __builtin_sqrtf(1e-5f + (var < 0.0f ? 0.0f : var));
}

/* layer_norm(x, γ, β, hasBeta, y, mean, rstd, rows, cols): byte offsets but hasBeta, rows, cols. */
KERNEL(layer_norm) {
  const float *x = F32(mem, a[0]), *gamma = F32(mem, a[1]), *beta = F32(mem, a[2]);
  const int has_beta = a[3] != 0;
  float *y = F32(mem, a[4]), *mean = F32(mem, a[5]), *rstd = F32(mem, a[6]);
  const int32_t rows = (int32_t)a[7], cols = (int32_t)a[8];
  for (int32_t i = 0; i < rows; i++) {
    const float *xr = x + (size_t)i * cols;
    float *yr = y + (size_t)i * cols;
    float m;
    const float r = row_statistics(xr, cols, &m), x0 = xr[0];
    mean[i] = x0 + m;
    rstd[i] = r;
    /* y = ((x − x₀) − m) r γ (+ β): x̂ without rounding μ, as the WAT. */
    int32_t j = 0;
    for (; j + VW <= cols; j += VW) {
      const vf yv = (vload(xr + j) - x0 - m) * r * vload(gamma + j);
      vstore(yr + j, has_beta ? yv + vload(beta + j) : yv);
    }
    for (; j < cols; j++) {
      const float yv = (xr[j] - x0 - m) * r * gamma[j];
      yr[j] = has_beta ? yv + beta[j] : yv;
    }
  }
  return 0;
}

/* The first sweep of a backward row: Σ g, Σ g x̂ (g = dy γ); dγ += dy x̂, dβ += dy (when dbeta). */
static void backward_sums(const float *x, const float *dy, const float *gamma, float mu, float r,
                          float *dgamma, float *dbeta, int32_t cols, float *sg, float *sgx) {
  vf v0 = vsplat(0.0f), v1 = vsplat(0.0f);
  float s0 = 0.0f, s1 = 0.0f;
  int32_t j = 0;
  for (; j + VW <= cols; j += VW) {
    const vf d = vload(dy + j), xh = (vload(x + j) - mu) * r, g = d * vload(gamma + j);
    v0 += g;
    v1 += g * xh;
    vstore(dgamma + j, vload(dgamma + j) + d * xh);
    if (dbeta) vstore(dbeta + j, vload(dbeta + j) + d);
  }
  for (; j < cols; j++) {
    const float d = dy[j], xh = (x[j] - mu) * r, g = d * gamma[j];
    s0 += g;
    s1 += g * xh;
    dgamma[j] += d * xh;
    if (dbeta) dbeta[j] += d;
  }
  *sg = s0 + vhsum(v0);
  *sgx = s1 + vhsum(v1);
}

/*
 * layer_norm_backward(x, γ, mean, rstd, dy, dx, dγ, dβ, hasBeta, rows, cols): byte offsets but
 * hasBeta, rows, cols; dx may be dy; dγ and dβ accumulate.
 */
KERNEL(layer_norm_backward) {
  const float *x = F32(mem, a[0]), *gamma = F32(mem, a[1]);
  const float *mean = F32(mem, a[2]), *rstd = F32(mem, a[3]), *dy = F32(mem, a[4]);
  float *dx = F32(mem, a[5]), *dgamma = F32(mem, a[6]);
  float *dbeta = a[8] != 0 ? F32(mem, a[7]) : NULL;
  const int32_t rows = (int32_t)a[9], cols = (int32_t)a[10];
  const float c = (float)cols;
  for (int32_t i = 0; i < rows; i++) {
    const size_t at = (size_t)i * cols;
    const float *xr = x + at, *dyr = dy + at;
    float *dxr = dx + at;
    const float mu = mean[i], r = rstd[i];
    float sg, sgx;
    backward_sums(xr, dyr, gamma, mu, r, dgamma, dbeta, cols, &sg, &sgx);
    const float m0 = sg / c, m1 = sgx / c;
    int32_t j = 0;
    for (; j + VW <= cols; j += VW) {
      const vf xh = (vload(xr + j) - mu) * r, g = vload(dyr + j) * vload(gamma + j);
      vstore(dxr + j, (g - m0 - xh * m1) * r);
    }
    for (; j < cols; j++) dxr[j] = (dyr[j] * gamma[j] - m0 - (xr[j] - mu) * r * m1) * r;
  }
  return 0;
}
