/*
 * The engine's causal softmax and sigmoid kernels, one source for every vector width (native/vec.h);
 * they mirror softmax.wat's exports of the same names (softmaxWat.mjs writes that text). Over `rows`
 * rows of T × T blocks (row r is query i = r mod T, with n = i + 1 keys):
 * w_ij = softmax_j(β h_ij) over j ≤ i, zero above; the backward gh_ij = β w_ij (gw_ij − Σ_k w_ik gw_ik),
 * zero above (gh may be gw). exp is the WAT's (vmath.h). Keys go VW at a time; the last n mod VW
 * as one vector of the live lanes (masked loads and stores), kept in a register through a row's
 * sweeps, as the WAT takes its last n mod 4 through lane 0. The sigmoid's are below softmax's.
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

/*
 * The sigmoid variant (ising-core's causalClosedForm('sigmoid')): α_ij = σ(x_ij), x = 2β h,
 * w_ij = α_ij / Σ_{k≤i} α_ik, zero above. With c = 2β min(max_k h_ik, 0), each α is computed as
 * α e^{−c} = E / (1 + E e^c), E = exp(2β (h − min(max h, 0))): no cancellation, and a row whose
 * every x is far below 0 keeps its weights (∝ e^x, from the exact differences of its h) where α
 * itself underflows float32. The row gets zero weights where ising-core's float64
 * Σα < 1e-300 (MIN_ALPHA_SUM): where Σ α e^{−c} < exp(ln 1e-300 − c). exp clamps its argument to
 * [−87, 88], so σ saturates and nothing overflows (β > 0).
 */
#define LN_MIN_ALPHA_SUM (-690.775527898f)

/* exp(x) of a scalar, by vexp (the WAT computes it by its exp on a splat). */
static inline float sexp(float x) { return vexp(vsplat(x))[0]; }

/* One row of the sigmoid's forward over its n keys, zero above. */
static void sigmoid_row(const float *h, float *w, int32_t n, int32_t t, float two_beta) {
  const int32_t tail = n % VW, full = n - tail;
  const vi live = vfirst(tail);
  const vf last = vselect(live, vload_tail(h + full, tail, 0.0f), vsplat(-__builtin_inff()));
  vf acc = last;
  for (int32_t j = 0; j < full; j += VW) acc = vmax(acc, vload(h + j));
  const float top = vhmax(acc), hc = top < 0.0f ? top : 0.0f, s = sexp(hc * two_beta);
  /* a = α e^{−c}, stored in w and summed. */
  vf e = vexp((last - hc) * two_beta);
  const vf a_last = vselect(live, e / (1.0f + e * s), vsplat(0.0f));
  acc = a_last;
  for (int32_t j = 0; j < full; j += VW) {
    e = vexp((vload(h + j) - hc) * two_beta);
    const vf a = e / (1.0f + e * s);
    vstore(w + j, a);
    acc += a;
  }
  const float sum = vhsum(acc);
  const float scale = sum >= sexp(LN_MIN_ALPHA_SUM - hc * two_beta) ? 1.0f / sum : 0.0f;
  for (int32_t j = 0; j < full; j += VW) vstore(w + j, vload(w + j) * scale);
  if (tail) vstore_tail(w + full, a_last * scale, tail);
  zero_above(w, n, t);
}

/* causal_sigmoid(h, w, rows, t, β): h, w byte offsets of rows × t floats. */
KERNEL(causal_sigmoid) {
  const float *h = F32(mem, a[0]);
  float *w = F32(mem, a[1]);
  const int32_t rows = (int32_t)a[2], t = (int32_t)a[3];
  const float two_beta = 2.0f * (float)a[4];
  for (int32_t row = 0; row < rows; row++)
    sigmoid_row(h + (size_t)row * t, w + (size_t)row * t, row % t + 1, t, two_beta);
  return 0;
}

/*
 * One row of the sigmoid's backward: with ∂L/∂α = (gw − Σ w gw) / Σα and ∂α/∂h = 2β α (1 − α),
 * gh = 2β w (gw − Σ w gw) (1 − α), 1 − α = σ(−x) = 1 / (1 + exp(x)); Σα cancels, and a row of zero
 * weights gets zero gradients, as ising-core's gradAlpha gives them. Zero above (gh may be gw).
 */
static void sigmoid_backward_row(const float *h, const float *w, const float *gw, float *gh,
                                 int32_t n, int32_t t, float two_beta) {
  const int32_t tail = n % VW, full = n - tail;
  const vf w_last = vload_tail(w + full, tail, 0.0f), gw_last = vload_tail(gw + full, tail, 0.0f);
  vf acc = w_last * gw_last;
  for (int32_t j = 0; j < full; j += VW) acc += vload(w + j) * vload(gw + j);
  const float c = vhsum(acc);
  for (int32_t j = 0; j < full; j += VW) {
    const vf rest = 1.0f + vexp(vload(h + j) * two_beta);
    vstore(gh + j, vload(w + j) * two_beta * (vload(gw + j) - c) / rest);
  }
  if (tail) {
    const vf rest = 1.0f + vexp(vload_tail(h + full, tail, 0.0f) * two_beta);
    vstore_tail(gh + full, w_last * two_beta * (gw_last - c) / rest, tail);
  }
  zero_above(gh, n, t);
}

/* causal_sigmoid_backward(h, w, gw, gh, rows, t, β): byte offsets of rows × t floats. */
KERNEL(causal_sigmoid_backward) {
  const float *h = F32(mem, a[0]), *w = F32(mem, a[1]), *gw = F32(mem, a[2]);
  float *gh = F32(mem, a[3]);
  const int32_t rows = (int32_t)a[4], t = (int32_t)a[5];
  const float two_beta = 2.0f * (float)a[6];
  for (int32_t row = 0; row < rows; row++) {
    const size_t at = (size_t)row * t;
    sigmoid_backward_row(h + at, w + at, gw + at, gh + at, row % t + 1, t, two_beta);
  }
  return 0;
}
