/*
 * The engine's causal softmax kernels, one source for every vector width (native/vec.h); they
 * mirror softmax.wat's exports of the same names (softmaxWat.mjs writes that text). Over `rows`
 * rows of T × T blocks (row r is query i = r mod T, with n = i + 1 keys):
 * w_ij = softmax_j(β h_ij) over j ≤ i, zero above; the backward gh_ij = β w_ij (gw_ij − Σ_k w_ik gw_ik),
 * zero above (gh may be gw). exp is the WAT's (vmath.h). Keys go VW at a time; the last n mod VW
 * as one vector of the live lanes (masked loads and stores), kept in a register through a row's
 * sweeps, as the WAT takes its last n mod 4 through lane 0.
 */
#include "vmath.h"

/* The row's keys n … t − 1 set to zero. */
static void zero_above(float *row, int32_t n, int32_t t) {
  memset(row + n, 0, (size_t)(t - n) * sizeof(float));
}

/* One row of the forward: w = softmax(β h) over its n keys, zero above. */
static void softmax_row(const float *h, float *w, int32_t n, int32_t t, float beta) {
  const int32_t tail = n % VW, full = n - tail;
  const vi live = vfirst(tail);
  /* The last n mod VW keys stay in a register through the three sweeps. */
  const vf last = vselect(live, vload_tail(h + full, tail, 0.0f) * beta, vsplat(-__builtin_inff()));
  vf acc = last;
  for (int32_t j = 0; j < full; j += VW) acc = vmax(acc, vload(h + j) * beta);
  const float c = vhmax(acc);
  /* e = exp(β h − max), stored in w and summed. */
  const vf e_last = vselect(live, vexp(last - c), vsplat(0.0f));
  acc = e_last;
  for (int32_t j = 0; j < full; j += VW) {
    const vf e = vexp(vload(h + j) * beta - c);
    vstore(w + j, e);
    acc += e;
  }
  const float scale = 1.0f / vhsum(acc);
  for (int32_t j = 0; j < full; j += VW) vstore(w + j, vload(w + j) * scale);
  if (tail) vstore_tail(w + full, e_last * scale, tail);
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
  const vf w_last = vload_tail(w + full, tail, 0.0f), gw_last = vload_tail(gw + full, tail, 0.0f);
  vf acc = w_last * gw_last;
  for (int32_t j = 0; j < full; j += VW) acc += vload(w + j) * vload(gw + j);
  const float c = vhsum(acc);
  for (int32_t j = 0; j < full; j += VW) vstore(gh + j, vload(w + j) * beta * (vload(gw + j) - c));
  if (tail) vstore_tail(gh + full, w_last * beta * (gw_last - c), tail);
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
