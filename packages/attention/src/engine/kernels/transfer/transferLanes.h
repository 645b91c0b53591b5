/*
 * The scalar parts of the engine's transfer-matrix kernels (transfer.c; the WAT ones are
 * transferTableWat.mjs and transferLanesWat.mjs): a call's shape and working memory, a head's
 * coupling table, the tests of what a problem may run here (its couplings' bounds, finite
 * fields), a lane group's problems, field factors and VJP direction.
 */
#ifndef BOLTZMANN_TRANSFER_LANES_H
#define BOLTZMANN_TRANSFER_LANES_H
#include <math.h>
#include "threadScratch.h"
#include "transferVjp.h"

#ifdef TRANSFER_WIDE
/*
 * The coupling bounds of the float64 pass (transferWide.c) and, below, of the float32 one
 * (transfer.c): measured on cases with every key at the bound (transfer.c's header;
 * transferKernels.ts NATIVE_BOUNDS, transferChecks.ts NATIVE_STRONG_CASES).
 */
#define STEP_RANGE 40.0
#define LINEAR_RANGE 600.0
#define PAIR_RANGE INFINITY
#else
/* A key's β Σ|J| (8 until 7 Dec 2026: see transfer.c; ising-core's FLOAT32_STEP_RANGE is 16). */
#define STEP_RANGE 12.0
#define LINEAR_RANGE 250.0 /* ising-core's LINEAR_RANGE */
#define PAIR_RANGE 1.5 /* every coupling's β|J| (scripts/transferPrecision.ts) */
#endif

/* The sizes of one call and where its operands are. */
typedef struct {
  int32_t B, heads, T, W;
  double beta;
  const float *h, *J;
} op_shape;

/* A call's working memory, one block (the thread's, threadScratch.h: taken and given back by the call). */
typedef struct {
  real *table;
  double *crow, *cmax, *wmax, *jmax; /* T each: head_bounds's */
  double *tup, *tdown;        /* S each: head_table's products */
  vr *ep, *em, *gp, *gm, *up, *fg, *gacc, *back, *backSum, *backShift, *a, *aT, *next, *nextT, *row,
      *upper, *ring, *ck, *seg;
  back_state *cst;
  scratch_block block;
} scratch;

/* The larger of a and b, or a NaN if either is one. */
static inline double nan_max(double a, double b) { return a > b || a != a ? a : b; }

/* Σ|J| over key t's band both ways, to keys < n (head's J, T × T). */
static double key_coupling(const op_shape *o, const float *J, int32_t t, int32_t n) {
  const int32_t T = o->T, W = o->W;
  double c = 0;
  for (int32_t r = t - W > 0 ? t - W : 0; r < t; r++) c += fabs((double)J[(size_t)r * T + t]);
  for (int32_t u = t + 1; u < n && u <= t + W; u++) c += fabs((double)J[(size_t)t * T + u]);
  return c;
}

/*
 * A head's coupling bounds at its full length: crow[t] = key_coupling(t, T), cmax[t] the largest
 * of crow[0 … t], wmax[t] the largest sum of crow over W + 1 consecutive keys ending by t, jmax[t]
 * the largest |J| between keys ≤ t (NaNs carried). A row of n keys differs only in its last W
 * keys (their bands to keys ≥ n are gone).
 */
static void head_bounds(const op_shape *o, const float *J, scratch *s) {
  const int32_t T = o->T, W = o->W;
  for (int32_t t = 0; t < T; t++) {
    s->crow[t] = key_coupling(o, J, t, T);
    double w = 0;
    for (int32_t k = t - W > 0 ? t - W : 0; k <= t; k++) w += s->crow[k];
    s->cmax[t] = t > 0 ? nan_max(s->crow[t], s->cmax[t - 1]) : s->crow[t];
    s->wmax[t] = t > 0 ? nan_max(w, s->wmax[t - 1]) : w;
    double j = 0;
    for (int32_t r = t - W > 0 ? t - W : 0; r < t; r++) j = nan_max(fabs((double)J[(size_t)r * T + t]), j);
    s->jmax[t] = t > 0 ? nan_max(j, s->jmax[t - 1]) : j;
  }
}

/*
 * Whether the couplings of a problem of n keys keep the bounds: each key's β Σ|J| over its band
 * both ways to keys < n within STEP_RANGE, 2β Σ of those over W + 1 consecutive keys within
 * LINEAR_RANGE, and every one of its couplings' β|J| within PAIR_RANGE (head_bounds's tables, and
 * the last W keys again). A NaN fails. W ≤ 16.
 */
static int couplings_in_range(const op_shape *o, const float *J, int32_t n, const scratch *s) {
  const int32_t W = o->W, tail = n - W > 0 ? n - W : 0, k0 = tail - W > 0 ? tail - W : 0;
  double c[33], big = tail > 0 ? s->cmax[tail - 1] : 0, wbig = tail > 0 ? s->wmax[tail - 1] : 0;
  for (int32_t k = k0; k < n; k++) {
    c[k - k0] = k < tail ? s->crow[k] : key_coupling(o, J, k, n);
    if (k >= tail) big = nan_max(c[k - k0], big);
  }
  for (int32_t e = tail; e < n; e++) {
    double w = 0;
    for (int32_t k = e - W > 0 ? e - W : 0; k <= e; k++) w += c[k - k0];
    wbig = nan_max(w, wbig);
  }
  return o->beta * big <= STEP_RANGE && 2 * o->beta * wbig <= LINEAR_RANGE &&
         o->beta * s->jmax[n - 1] <= PAIR_RANGE;
}

/*
 * Head hd's coupling table (transferLinear.ts bandTables: a doubling product per position, in
 * float64, rounded once) and its coupling bounds (head_bounds).
 */
static void head_table(const op_shape *o, int32_t hd, scratch *s) {
  const int32_t T = o->T, W = o->W, S = 1 << W;
  const float *J = o->J + (size_t)hd * T * T;
  double *up = s->tup, *down = s->tdown;
  for (int32_t t = 0; t < T; t++) {
    double c0 = 0;
    for (int32_t b = 0; b < W; b++) c0 -= t - W + b >= 0 ? J[(size_t)(t - W + b) * T + t] : 0.0;
    up[0] = exp(o->beta * c0);
    down[0] = exp(-o->beta * c0);
    for (int32_t b = 0; b < W; b++) {
      const int32_t half = 1 << b;
      const double v = t - W + b >= 0 ? J[(size_t)(t - W + b) * T + t] : 0.0;
      const double f = exp(2 * o->beta * v), g = exp(-2 * o->beta * v);
      for (int32_t x = 0; x < half; x++) {
        up[x + half] = up[x] * f;
        down[x + half] = down[x] * g;
      }
    }
    real *tb = s->table + (size_t)t * 2 * S;
    for (int32_t j = 0; j < S >> 1; j++) {
      tb[4 * j] = (real)down[2 * j];
      tb[4 * j + 1] = (real)down[2 * j + 1];
      tb[4 * j + 2] = (real)up[2 * j];
      tb[4 * j + 3] = (real)up[2 * j + 1];
    }
  }
  head_bounds(o, J, s);
}

/* Whether a problem's fields (n of them) are all finite. */
static int fields_finite(const float *h, int32_t n) {
  for (int32_t t = 0; t < n; t++)
    if (!(fabsf(h[t]) <= 3.4028234663852886e38f)) return 0;
  return 1;
}

/* A lane group of head hd: problems k0 … k0 + RW − 1 in (i descending, b) order. */
typedef struct {
  chain_group g;
  int32_t row[RW];  /* float offset of the problem's T-float row in h, w, gh, gw */
  int32_t prob[RW]; /* its index in sums (b·heads + hd)·T + i */
  vr live;          /* 1 for lanes that are real problems the kernel takes */
} lane_group;

static void group_lanes(const op_shape *o, int32_t hd, int32_t k0, lane_group *lg) {
  const int32_t B = o->B, T = o->T, count = B * T;
  lg->g.nmax = 0;
  lg->g.nmin = T;
  for (int32_t l = 0; l < RW; l++) {
    const int32_t k = k0 + l < count ? k0 + l : k0; /* a padding lane repeats lane 0, dead */
    const int32_t i = T - 1 - k / B, b = k % B;
    lg->prob[l] = (b * o->heads + hd) * T + i;
    lg->row[l] = lg->prob[l] * T;
    lg->g.n[l] = i + 1;
    lg->live[l] = k0 + l < count ? 1.0f : 0.0f;
    if (i + 1 > lg->g.nmax) lg->g.nmax = i + 1;
    if (i + 1 < lg->g.nmin) lg->g.nmin = i + 1;
  }
}

#if WIDE
/* Lane l's field factors for t < n (group_fields): one double exp each, rounded once. */
static inline void lane_fields(double beta, const float *h, int32_t n, int32_t l, scratch *s) {
  for (int32_t t = 0; t < n; t++) {
    const double x = beta * h[t];
    const real small = (real)exp(-2 * fabs(x));
    s->ep[t][l] = x >= 0 ? (real)1 : small;
    s->em[t][l] = x >= 0 ? small : (real)1;
  }
}
#else
/*
 * Lane l's field factors for t < n (group_fields), VW keys at a time along the row: x = β h_t in
 * float32 and vmath.h's vexp, where a double exp a key took ≈ 10 ns, a fifth of the float32
 * forward's time at W = 8, T = 256 (docs/benchmarks/attention.md, 8 Dec 2026). Below 2^−126 the
 * factor is 0, as the double exp rounded to float32 under flush-to-zero gave (vexp clamps at e^−87).
 */
static inline void lane_fields(double beta, const float *h, int32_t n, int32_t l, scratch *s) {
  const vf b = vsplat((float)beta), zero = vsplat(0.0f), tiny = vsplat(87.33654475f);
  for (int32_t t = 0; t < n; t += VW) {
    const int32_t k = n - t < VW ? n - t : VW;
    const vf x = b * (k == VW ? vload(h + t) : vload_tail(h + t, k, 0.0f));
    const vf y = vselect(x < zero, -x, x) * 2.0f;
    const vf small = vselect(y > tiny, zero, vexp(-y));
    for (int32_t q = 0; q < k; q++) {
      s->ep[t + q][l] = x[q] >= 0 ? 1.0f : small[q];
      s->em[t + q][l] = x[q] >= 0 ? small[q] : 1.0f;
    }
  }
}
#endif

/*
 * The field factors of a group's lanes, exp(±β h_t − |β h_t|) (one exp: the larger is 1); lanes
 * of head hd whose couplings pass the bounds or with a non-finite field are marked dead.
 */
static void group_fields(const op_shape *o, int32_t hd, lane_group *lg, scratch *s) {
  for (int32_t t = 0; t < lg->g.nmax; t++) s->ep[t] = s->em[t] = vrsplat(1.0f);
  for (int32_t l = 0; l < RW; l++) {
    const float *h = o->h + lg->row[l];
    if (lg->live[l] == 0.0f) continue;
    const float *J = o->J + (size_t)hd * o->T * o->T;
    if (!couplings_in_range(o, J, lg->g.n[l], s) || !fields_finite(h, lg->g.n[l])) {
      lg->live[l] = 0.0f;
      continue;
    }
    lane_fields(o->beta, h, lg->g.n[l], l, s);
  }
  lg->g.ep = s->ep;
  lg->g.em = s->em;
}

/*
 * A group's VJP direction per live lane (0 elsewhere), centered on the forward's magnetizations
 * (transferChain.h chain_group): with g_t = β ∂L/∂m_t = β (gw_t − Σ w gw) / (2 Σα) and
 * α_t = w_t Σα, gp = g_t (1 − m̂_t) = β (gw_t − Σ w gw)(1 − α_t) / Σα and gm = g_t (1 + m̂_t) =
 * β (gw_t − Σ w gw) w_t.
 */
static void group_direction(const op_shape *o, lane_group *lg, const float *w, const float *gw,
                            const double *totals, scratch *s) {
  for (int32_t t = 0; t < lg->g.nmax; t++) s->gp[t] = s->gm[t] = vrsplat(0.0f);
  for (int32_t l = 0; l < RW; l++) {
    if (lg->live[l] == 0.0f) continue;
    const int32_t n = lg->g.n[l];
    const float *wr = w + lg->row[l], *gr = gw + lg->row[l];
    const double total = totals[l];
    if (!(total > 0)) continue;
    /* w_t: the forward's, or in float64 the sweep's P(s_t = +1) / Σα (group_totals: s->up). */
#define W_AT(t) (WIDE ? (double)s->up[t][l] / total : (double)wr[t])
    double dot = 0;
    for (int32_t t = 0; t < n; t++) dot += W_AT(t) * gr[t];
    for (int32_t t = 0; t < n; t++) {
      const double d = o->beta * (gr[t] - dot);
      s->gp[t][l] = (real)(d * (1 - W_AT(t) * total) / total);
      s->gm[t][l] = (real)(d * W_AT(t));
    }
#undef W_AT
  }
  lg->g.gp = s->gp;
  lg->g.gm = s->gm;
}

#endif
