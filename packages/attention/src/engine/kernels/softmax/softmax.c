/*
 * The engine's causal softmax kernels, one source for every vector width (native/vec.h); they
 * mirror softmax.wat's exports of the same names (softmaxWat.mjs writes that text). Over `rows`
 * rows of T × T blocks (row r is query i = r mod T, with n = i + 1 keys):
 * w_ij = softmax_j(β h_ij) over j ≤ i, zero above; the backward gh_ij = β w_ij (gw_ij − Σ_k w_ik gw_ik),
 * zero above (gh may be gw). exp is the WAT's (vmath.h). Keys go VW at a time; the last n mod VW
 * as one vector of the live lanes, as the WAT takes its last n mod 4 through lane 0.
 */
#include "vmath.h"

/* The row's keys n … t − 1 set to zero. */
static void zero_above(float *row, int32_t n, int32_t t) {
  memset(row + n, 0, (size_t)(t - n) * sizeof(float));
}

/* One row of the forward: w = softmax(β h) over its n keys, zero above. */
static void softmax_row(const float *h, float *w, int32_t n, int32_t t, float beta) {
  const int32_t tail = n % VW, full = n - tail;
  vf acc = vsplat(-__builtin_inff());
  for (int32_t j = 0; j < full; j += VW) acc = vmax(acc, vload(h + j) * beta);
  if (tail) acc = vmax(acc, vload_tail(h + full, tail, -__builtin_inff()) * beta);
  const float c = vhmax(acc);
  /* e = exp(β h − max), stored in w and summed. */
  acc = vsplat(0.0f);
  for (int32_t j = 0; j < full; j += VW) {
    const vf e = vexp(vload(h + j) * beta - c);
    vstore(w + j, e);
    acc += e;
  }
  if (tail) {
    const vf e = vselect(vfirst(tail), vexp(vload_tail(h + full, tail, 0.0f) * beta - c), vsplat(0.0f));
    vstore_tail(w + full, e, tail);
    acc += e;
  }
  const float scale = 1.0f / vsum(acc);
  int32_t j = 0;
  for (; j < full; j += VW) vstore(w + j, vload(w + j) * scale);
  for (; j < n; j++) w[j] *= scale;
  zero_above(w, n, t);
}

/* causal_softmax(h, w, rows, t, β): h, w byte offsets of rows × t floats. */
KERNEL(causal_softmax) {
  const float *h = F32(mem, a[0]);
  float *w = F32(mem, a[1]);
  const int32_t rows = (int32_t)a[2], t = (int32_t)a[3];
  const float beta = (float)a[4];
  for (int32_t row = 0; row < rows; row++)
    softmax_row(h + (size_t)row * t, w + (size_t)row * t, row % t + 1, t, beta);
  return 0;
}

/* One row of the backward: gh = β w (gw − Σ w gw) over its n keys, zero above (gh may be gw). */
static void softmax_backward_row(const float *w, const float *gw, float *gh, int32_t n, int32_t t,
                                 float beta) {
  const int32_t tail = n % VW, full = n - tail;
  vf acc = vsplat(0.0f);
  for (int32_t j = 0; j < full; j += VW) acc += vload(w + j) * vload(gw + j);
  if (tail) acc += vload_tail(w + full, tail, 0.0f) * vload_tail(gw + full, tail, 0.0f);
  const float c = vsum(acc);
  int32_t j = 0;
  for (; j < full; j += VW) vstore(gh + j, vload(w + j) * beta * (vload(gw + j) - c));
  for (; j < n; j++) gh[j] = w[j] * beta * (gw[j] - c);
  zero_above(gh, n, t);
}

/* causal_softmax_backward(w, gw, gh, rows, t, β): byte offsets of rows × t floats. */
KERNEL(causal_softmax_backward) {
  const float *w = F32(mem, a[0]), *gw = F32(mem, a[1]);
  float *gh = F32(mem, a[2]);
  const int32_t rows = (int32_t)a[3], t = (int32_t)a[4];
  const float beta = (float)a[5];
  for (int32_t row = 0; row < rows; row++) {
    const size_t at = (size_t)row * t;
    softmax_backward_row(w + at, gw + at, gh + at, row % t + 1, t, beta);
  }
  return 0;
}
