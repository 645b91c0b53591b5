/*
 * The optimizer's native kernels, one source for every vector width (native/vec.h); they mirror
 * adamW.wat's exports of the same names (adamWWat.mjs writes that text).
 */
#include "vec.h"

/* dst += src over n floats. */
KERNEL(add_into) {
  float *dst = F32(mem, a[0]);
  const float *src = F32(mem, a[1]);
  const int32_t n = (int32_t)a[2];
  int32_t i = 0;
  for (; i + VW <= n; i += VW) vstore(dst + i, vload(dst + i) + vload(src + i));
  for (; i < n; i++) dst[i] += src[i];
  return 0;
}

/*
 * adamw(p, g, m, v, n, lr, β1, β2, ε, keep, c1, c2, scale): one AdamW update over n floats, as the
 * WAT's: g ← s·g; m ← β1 m + (1 − β1) g; v ← β2 v + (1 − β2) g²;
 * p ← p·keep − (m·(lr/c1)) / (√(v·(1/c2)) + ε), the scalars in float32 as the WAT's f32 params.
 */
KERNEL(adamw) {
  float *p = F32(mem, a[0]), *m = F32(mem, a[2]), *v = F32(mem, a[3]);
  const float *g = F32(mem, a[1]);
  const int32_t n = (int32_t)a[4];
  const float lr = (float)a[5], b1 = (float)a[6], b2 = (float)a[7], eps = (float)a[8];
  const float keep = (float)a[9], c1 = (float)a[10], c2 = (float)a[11], scale = (float)a[12];
  const float a1 = 1.0f - b1, a2 = 1.0f - b2, step = lr / c1, inv_c2 = 1.0f / c2;
  int32_t i = 0;
  for (; i + VW <= n; i += VW) {
    const vf gv = vload(g + i) * scale;
    const vf mv = vload(m + i) * b1 + gv * a1;
    const vf vv = vload(v + i) * b2 + gv * gv * a2;
    vstore(m + i, mv);
    vstore(v + i, vv);
    vf root;
    for (int l = 0; l < VW; l++) root[l] = __builtin_sqrtf(vv[l] * inv_c2);
    vstore(p + i, vload(p + i) * keep - mv * step / (root + eps));
  }
  for (; i < n; i++) {
    const float gv = g[i] * scale;
    const float mv = m[i] * b1 + gv * a1;
    const float vv = v[i] * b2 + gv * gv * a2;
    m[i] = mv;
    v[i] = vv;
    p[i] = p[i] * keep - mv * step / (__builtin_sqrtf(vv * inv_c2) + eps);
  }
  return 0;
}

/*
 * Σ g² over n floats, each square and sum in float64 (the WAT's f64x2), returned. VW floats at a
 * time as two halves of VW/2 doubles (a vf's width), into four accumulators to hide the adds'
 * latency.
 */
KERNEL(sum_squares) {
  typedef float vh __attribute__((vector_size(VW / 2 * sizeof(float))));
  typedef double vd __attribute__((vector_size(VW / 2 * sizeof(double))));
  const float *g = F32(mem, a[0]);
  const int32_t n = (int32_t)a[1];
  vd acc[4] = {{0}, {0}, {0}, {0}};
  int32_t i = 0;
  for (; i + 2 * VW <= n; i += 2 * VW)
    for (int q = 0; q < 4; q++) {
      vh h;
      memcpy(&h, g + i + q * (VW / 2), sizeof h);
      const vd d = __builtin_convertvector(h, vd);
      acc[q] += d * d;
    }
  double sum = 0.0;
  for (; i < n; i++) sum += (double)g[i] * g[i];
  const vd total = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (int l = 0; l < VW / 2; l++) sum += total[l];
  return sum;
}
