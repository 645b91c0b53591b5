/*
 * The group loops of the engine's transfer-matrix kernels, for the number type of the translation
 * unit that includes this (transferReal.h): transfer.c's float32 pass over every problem, and
 * transferWide.c's float64 pass over the problems the float32 one left. Which problems a pass
 * takes, and how it marks them in sums (one float per problem):
 * - float32 (transfer.c): every problem; sums[p] = Σα of a row it took, −1 for one it left;
 * - float64 (TRANSFER_WIDE): the problems marked −1; TAKEN_WIDE for a row it took (its backward
 *   recomputes Σα), −1 still for one it left, which the caller runs.
 * A problem is left when its couplings pass the pass's bounds (transferLanes.h), a field is not
 * finite, or its Σα is below MIN_TOTAL.
 */
#ifndef BOLTZMANN_TRANSFER_PASS_H
#define BOLTZMANN_TRANSFER_PASS_H
#include <stdlib.h>
#include "transferLanes.h"
#include "transferVjpForward.h"

#define TAKEN_WIDE (-2.0f) /* sums[p] of a row the float64 pass took */
#if WIDE
#define MIN_TOTAL 6.6e-112 /* e^−256 */
#else
#define MIN_TOTAL 1.2664165549094176e-14 /* e^−32: the smallest Σα a row keeps in float32 */
#endif

/* The float64 pass's entry points (transferWide.c), which transfer.c calls for the rows it left. */
double KPASTE(transfer_wide_forward, ISA_NAME)(const op_shape *o, float *w, float *sums);
double KPASTE(transfer_wide_backward, ISA_NAME)(const op_shape *o, const float *w, const float *sums,
                                                const float *gw, float *gh, float *gJ, int32_t K);

/*
 * Positions per segment of the VJP's backward messages. All of them (no recomputation) while a
 * group's messages and tangents take at most WHOLE_BYTES: streamed through L3, that measured
 * faster than segments kept in L2 and recomputed from checkpoints (AVX2, W = 8: T = 64 backward
 * 1.10 against 1.24 ns a state, T = 128 1.16 against 1.53, T = 256 1.14 against 1.67). Beyond
 * (wide windows), as many as keep a segment within SEGMENT_BYTES (L2 with room for the rest).
 */
#define WHOLE_BYTES ((size_t)16 << 20)
#define SEGMENT_BYTES ((size_t)192 << 10)
static inline int32_t segment_length(int32_t W, int32_t T) {
  const size_t per = (size_t)2 * ((size_t)1 << W) * sizeof(vr);
  if (per * (size_t)T <= WHOLE_BYTES) return T;
  const size_t k = SEGMENT_BYTES / per;
  return k < 2 ? 2 : (int32_t)k;
}

static int scratch_alloc(scratch *s, const op_shape *o, int vjp, int32_t K) {
  const size_t T = (size_t)o->T, S = (size_t)1 << o->W, W = (size_t)o->W;
  const size_t segs = (T + (size_t)K - 1) / (size_t)K;
  const size_t messages = (vjp ? 4 * S + segs * 2 * S + (size_t)K * 2 * S : 0) + (!vjp || WIDE) * T * S;
  const size_t vecs = 6 * T + T * W + messages + 2 * T + 5 * S + W + 1;
  const size_t bytes = vecs * sizeof(vr) + segs * sizeof(back_state) +
                       T * 2 * S * sizeof(real) + (4 * T + 2 * S) * sizeof(double);
  s->block = scratch_take(bytes);
  if (s->block.block == NULL) return 0;
  vr *v = s->block.block;
  s->ep = v, v += T;
  s->em = v, v += T;
  s->gp = v, v += T;
  s->gm = v, v += T;
  s->up = v, v += T;
  s->fg = v, v += T;
  s->gacc = v, v += T * W + 1;
  if (vjp) {
    s->ring = v, v += 4 * S;
    s->ck = v, v += segs * 2 * S;
    s->seg = v, v += (size_t)K * 2 * S;
  }
  if (!vjp || WIDE) s->back = v, v += T * S;
  s->backSum = v, v += T;
  s->backShift = v, v += T;
  s->a = v, v += S;
  s->aT = v, v += S;
  s->next = v, v += S;
  s->nextT = v, v += S;
  s->row = v, v += S;
  s->upper = v, v += W;
  s->cst = (back_state *)v;
  s->table = (real *)(s->cst + segs);
  s->crow = (double *)(s->table + (size_t)T * 2 * S);
  s->cmax = s->crow + T;
  s->wmax = s->cmax + T;
  s->jmax = s->wmax + T;
  s->tup = s->jmax + T;
  s->tdown = s->tup + S;
  return 1;
}


/* Whether problem p is one this pass runs, from its mark in sums (the forward's, or the backward's). */
static inline int pass_takes(float mark, int backward) {
  if (WIDE) return mark == (backward ? TAKEN_WIDE : -1.0f);
  return backward ? mark >= 0 : 1;
}

/* Σα per lane (the forward op's sweeps: P(s_t = +1) into s->up), for lanes `live` marks. */
static void group_totals(const chain_head *c, lane_group *lg, scratch *s, double *totals) {
  chain_back(c, &lg->g, s->back);
  chain_forward(c, &lg->g, s->back, s->a, s->next, s->up);
  for (int32_t l = 0; l < RW; l++) {
    totals[l] = 0;
    for (int32_t t = 0; t < lg->g.n[l]; t++) totals[l] += s->up[t][l];
  }
}

/* Whether any lane of the group is live. */
static inline int any_live(const lane_group *lg) {
  for (int32_t l = 0; l < RW; l++)
    if (lg->live[l] != 0) return 1;
  return 0;
}

/*
 * The forward over the problems this pass takes: w of each row it keeps (zero past its keys) and
 * its mark in sums. Returns how many it left (−1), or −1 when out of memory.
 */
static double forward_pass(const op_shape *o, float *w, float *sums) {
  scratch s;
  if (!scratch_alloc(&s, o, 0, 1)) return -1;
  double left = 0;
  for (int32_t hd = 0; hd < o->heads; hd++) {
    head_table(o, hd, &s);
    const chain_head c = {o->W, 1 << o->W, 1 << (o->W - 1), s.table};
    for (int32_t k0 = 0; k0 < o->B * o->T; k0 += RW) {
      lane_group lg;
      group_lanes(o, hd, k0, &lg);
      real mine[RW];
      for (int32_t l = 0; l < RW; l++) {
        if (!pass_takes(sums[lg.prob[l]], 0)) lg.live[l] = 0;
        mine[l] = lg.live[l];
      }
      group_fields(o, hd, &lg, &s);
      double totals[RW] = {0};
      if (any_live(&lg)) group_totals(&c, &lg, &s, totals);
      for (int32_t l = 0; l < RW; l++) {
        if (mine[l] == 0) continue;
        const int32_t n = lg.g.n[l];
        if (lg.live[l] == 0 || !(totals[l] >= MIN_TOTAL)) {
          sums[lg.prob[l]] = -1.0f;
          left++;
          continue;
        }
        float *row = w + lg.row[l];
        const real inv = (real)(1.0 / totals[l]);
        for (int32_t t = 0; t < n; t++) row[t] = (float)(s.up[t][l] * inv);
        memset(row + n, 0, (size_t)(o->T - n) * sizeof(float));
        sums[lg.prob[l]] = WIDE ? TAKEN_WIDE : (float)totals[l];
      }
    }
  }
  scratch_give(s.block);
  return left;
}

/* A lane group's VJP: its messages whole, or in segments of K from checkpoints; ∂L/∂h into s->fg. */
static void group_vjp(const chain_head *c, lane_group *lg, int32_t K, scratch *s) {
  chain_back_t m = {s->backSum, s->backShift, vrsplat(0.0f), vrsplat(0.0f)};
  fwd_state f = {.a = s->a, .aT = s->aT, .next = s->next, .nextT = s->nextT};
  if (lg->g.nmax <= K) {
    back_whole(c, &lg->g, s->ring, s->seg, &m);
    fwd_start(c, &m, &f);
    vjp_segment(c, &lg->g, &m, 0, lg->g.nmax, s->seg, lg->live, &f, s->row, s->upper, s->fg, s->gacc);
    return;
  }
  back_checkpoints(c, &lg->g, K, s->ring, s->ck, s->cst, &m);
  fwd_start(c, &m, &f);
  for (int32_t start = 0; start < lg->g.nmax; start += K) {
    const int32_t end = start + K < lg->g.nmax ? start + K : lg->g.nmax;
    back_segment(c, &lg->g, start, end, s->ck, s->cst, K, s->seg);
    vjp_segment(c, &lg->g, &m, start, end, s->seg, lg->live, &f, s->row, s->upper, s->fg, s->gacc);
  }
}

/*
 * The backward over the rows this pass's forward took: gh of each (zero past its keys), and their
 * ∂L/∂J added into gJ (H × T × T, the band). K: the segment length. Returns 0, or −1 when out of
 * memory.
 */
static double backward_pass(const op_shape *o, const float *w, const float *sums, const float *gw,
                            float *gh, float *gJ, int32_t K) {
  scratch s;
  if (!scratch_alloc(&s, o, 1, K)) return -1;
  const int32_t T = o->T, W = o->W, S = 1 << W;
  for (int32_t hd = 0; hd < o->heads; hd++) {
    head_table(o, hd, &s);
    const chain_head c = {W, S, S >> 1, s.table};
    for (int32_t x = 0; x < T * W; x++) s.gacc[x] = vrsplat(0.0f);
    int any = 0;
    for (int32_t k0 = 0; k0 < o->B * T; k0 += RW) {
      lane_group lg;
      group_lanes(o, hd, k0, &lg);
      for (int32_t l = 0; l < RW; l++)
        if (!pass_takes(sums[lg.prob[l]], 1)) lg.live[l] = 0.0f;
      if (!any_live(&lg)) continue; /* none of its rows is this pass's (all left, or the other pass's) */
      group_fields(o, hd, &lg, &s);
      double totals[RW] = {0};
      if (WIDE) group_totals(&c, &lg, &s, totals);
      else
        for (int32_t l = 0; l < RW; l++) totals[l] = sums[lg.prob[l]];
      group_direction(o, &lg, w, gw, totals, &s);
      group_vjp(&c, &lg, K, &s);
      any = 1;
      for (int32_t l = 0; l < RW; l++) {
        if (lg.live[l] == 0.0f) continue;
        float *row = gh + lg.row[l];
        for (int32_t t = 0; t < lg.g.n[l]; t++) row[t] = (float)s.fg[t][l];
        memset(row + lg.g.n[l], 0, (size_t)(T - lg.g.n[l]) * sizeof(float));
      }
    }
    if (!any) continue;
    float *gj = gJ + (size_t)hd * T * T;
    for (int32_t t = 0; t < T; t++)
      for (int32_t b = 0; b < W; b++)
        if (t - W + b >= 0) gj[(size_t)(t - W + b) * T + t] += (float)vrhsum(s.gacc[(size_t)t * W + b]);
  }
  scratch_give(s.block);
  return 0;
}

#endif
