/*
 * The chains of the engine's transfer-matrix kernels (transfer.c) and the forward op's sweeps over
 * one lane group (the VJP's are transferVjp.h's and transferVjpForward.h's): RW causal
 * problems of one head, one per vector lane, that share the head's coupling table. The algorithm
 * is ising-core's batched linear-domain kernel (packages/ising-core/src/internal/kernels/
 * transferLinear.ts and linearVjp.ts: the window states, the rescaling, the linear tangents and
 * the read-outs are theirs, term by term), with the problems across the lanes instead of one at a
 * time: a window state of every lane is one vector, each coupling factor one broadcast, so no
 * sweep shuffles. Messages are the translation unit's real (transferReal.h: float32 in transfer.c,
 * float64 in transferWide.c) with the CPU's flush-to-zero on (native/fpMode.h); per-step
 * scalars are per-lane vectors.
 *
 * Lanes may end at different positions (n_l ≤ nmax): past its end a lane's backward message is
 * reset to its start (ones, tangent 0) at every step, so at its own end it starts afresh, and its
 * read-outs past its end are neither written nor summed.
 */
#ifndef BOLTZMANN_TRANSFER_CHAIN_H
#define BOLTZMANN_TRANSFER_CHAIN_H
#include "transferReal.h"

/*
 * Float32 sums over 2^W states lose ~2^W·ε: every state loop adds its terms into running sums
 * that it empties into outer ones each BLOCK states (BLOCK·ε + 2^W/BLOCK·ε), which keeps wide
 * windows (W = 10, 11) as accurate as ising-core's float32 kernel, whose sums are float64.
 */
#define BLOCK 32
#define FLUSH(j) (((j) & (BLOCK - 1)) == BLOCK - 1)

/* One head's shared data: the window, β and the coupling factors of every position. */
typedef struct {
  int32_t W, S, H; /* window bits, states 2^W, half */
  /* table[t·2S + 4j + {0,1,2,3}]: exp(−βc_t(2j)), exp(−βc_t(2j+1)), exp(βc_t(2j)), exp(βc_t(2j+1)) */
  const real *table;
} chain_head;

/*
 * One lane group: per-position field factors (and gradient directions), lengths and liveness.
 * The field factors of spin t are exp(±β h_t) times exp(−|β h_t|), so the larger is 1 and the
 * smaller exp(−2|β h_t|) (0 past float32's range): a constant per step, which every message, its
 * sum and each read-out share, so every ratio the kernels return is the same, and no field
 * overflows (transfer.c).
 */
typedef struct {
  int32_t nmax, nmin;
  int32_t n[RW];
  const vr *ep;  /* exp(β h_t − |β h_t|) per lane, nmax vectors (1 where a lane has no spin t) */
  const vr *em;  /* exp(−β h_t − |β h_t|), likewise */
  /*
   * The VJP's direction, centered: the loss's weight of spin t's branches, G = Σ_t g_t (s_t − m̂_t)
   * with g_t = β ∂L/∂m_t and m̂_t its magnetization from the forward, so E[G] ≈ 0 and the tangents
   * stay O(|∂L/∂w|) where g_t itself is ~1/Σα (a constant added to G leaves every covariance the
   * VJP reads the same). gp = g_t (1 − m̂_t) for s_t = +1, gm = g_t (1 + m̂_t) for s_t = −1 (that
   * branch's coefficient is −gm); nmax vectors, 0 past a lane's end.
   */
  const vr *gp, *gm;
} chain_group;

/* Lane l of every one of `count` state vectors set to `value`. */
static inline void set_lane(vr *v, int32_t count, int32_t l, real value) {
  for (int32_t x = 0; x < count; x++) v[x][l] = value;
}

/* Lanes that end before spin t restart: their message `msg` (S vectors) is the start again. */
static inline void restart_ended(const chain_head *c, const chain_group *g, int32_t t, vr *msg,
                                 vr *tangent, vr *sigma, vr *shift) {
  if (t < g->nmin) return;
  for (int32_t l = 0; l < RW; l++) {
    if (t < g->n[l]) continue;
    set_lane(msg, c->S, l, 1.0f);
    if (tangent) set_lane(tangent, c->S, l, 0.0f);
    (*sigma)[l] = (real)c->S;
    if (shift) (*shift)[l] = 0.0f;
  }
}

/*
 * The forward op's backward messages: β_t into back[t·S …] for t = nmax − 1 … 0 (transferLinear.ts
 * linearForward's first sweep).
 */
static void chain_back(const chain_head *c, const chain_group *g, vr *back) {
  const int32_t S = c->S, H = c->H;
  vr *top = back + (size_t)(g->nmax - 1) * S;
  for (int32_t x = 0; x < S; x++) top[x] = vrsplat(1.0f);
  vr sigma = vrsplat((real)S);
  for (int32_t t = g->nmax - 1; t >= 1; t--) {
    const vr fp = g->ep[t] / sigma, fm = g->em[t] / sigma;
    const vr *in = back + (size_t)t * S;
    vr *out = back + (size_t)(t - 1) * S;
    const real *tb = c->table + (size_t)t * 2 * S;
    vr sum = vrsplat(0.0f), part = sum;
    for (int32_t j = 0; j < H; j++) {
      const vr bl = fm * in[j], bh = fp * in[j + H];
      const vr v0 = tb[4 * j] * bl + tb[4 * j + 2] * bh;
      const vr v1 = tb[4 * j + 1] * bl + tb[4 * j + 3] * bh;
      out[2 * j] = v0;
      out[2 * j + 1] = v1;
      part += v0 + v1;
      if (FLUSH(j)) sum += part, part = vrsplat(0.0f);
    }
    sigma = sum + part;
    restart_ended(c, g, t, out, NULL, &sigma, NULL);
  }
}

/*
 * The forward sweep with the read-out P(s_t = +1) = Σ α_t β_t [s_t = +1] / Σ α_t β_t into
 * up[t] (per lane, nmax vectors); a, next: S vectors each.
 */
static void chain_forward(const chain_head *c, const chain_group *g, const vr *back, vr *a,
                          vr *next, vr *up) {
  const int32_t S = c->S, H = c->H;
  for (int32_t x = 0; x < S; x++) a[x] = vrsplat(1.0f);
  vr sigma = vrsplat((real)S);
  for (int32_t t = 0; t < g->nmax; t++) {
    const vr fp = g->ep[t] / sigma, fm = g->em[t] / sigma;
    const vr *bk = back + (size_t)t * S;
    const real *tb = c->table + (size_t)t * 2 * S;
    const vr zero = vrsplat(0.0f);
    vr sum = zero, sl = zero, sh = zero, psum = zero, psl = zero, psh = zero;
    for (int32_t j = 0; j < H; j++) {
      const vr a0 = a[2 * j], a1 = a[2 * j + 1];
      const vr lo = fm * (a0 * tb[4 * j] + a1 * tb[4 * j + 1]);
      const vr hi = fp * (a0 * tb[4 * j + 2] + a1 * tb[4 * j + 3]);
      next[j] = lo;
      next[j + H] = hi;
      psum += lo + hi;
      psl += lo * bk[j];
      psh += hi * bk[j + H];
      if (FLUSH(j)) sum += psum, sl += psl, sh += psh, psum = psl = psh = zero;
    }
    sum += psum, sl += psl, sh += psh;
    up[t] = sh / (sl + sh);
    sigma = sum;
    vr *swap = a;
    a = next;
    next = swap;
  }
}

#endif
