/*
 * The VJP's backward sweep over one lane group (transferChain.h's lanes and table): the backward
 * messages β_t and their tangents (linearVjp.ts backwardMessages), kept whole or in segments
 * recomputed from checkpoints (transferPass.h segment_length), with the sums and shifts the
 * forward sweep (transferVjpForward.h) reads.
 */
#ifndef BOLTZMANN_TRANSFER_VJP_H
#define BOLTZMANN_TRANSFER_VJP_H
#include <string.h>
#include "transferChain.h"

/* What the VJP's backward sweep leaves for its forward sweep (per position and lane). */
typedef struct {
  vr *backSum;      /* Σ β_t as stored, nmax vectors */
  vr *backShift;    /* the tangent shift applied with it */
  vr total, totalT; /* Σ β_{−1} and its tangent */
} chain_back_t;

/* The backward sweep's running state: the last message's sum and tangent shift, and its sums. */
typedef struct {
  vr sigma, shift, sum, sumT;
} back_state;

/*
 * One step of the VJP's backward messages (linearVjp.ts backwardMessages): β_{t−1} and its
 * tangent into out, outT from β_t in in, inT (S vectors each).
 */
static inline void back_vjp_step(const chain_head *c, const chain_group *g, int32_t t,
                                 const vr *in, const vr *inT, vr *out, vr *outT, back_state *st) {
  const int32_t H = c->H;
  const vr fp = g->ep[t] / st->sigma, fm = g->em[t] / st->sigma;
  const vr gl = -g->gm[t] - st->shift, gh = g->gp[t] - st->shift;
  const real *tb = c->table + (size_t)t * 2 * c->S;
  const vr zero = vrsplat(0.0f);
  vr sum = zero, sumT = zero, psum = zero, psumT = zero;
  for (int32_t j = 0; j < H; j++) {
    const vr pl = in[j], ph = in[j + H];
    const vr bl = fm * pl, bh = fp * ph;
    const vr dl = fm * (inT[j] + gl * pl), dh = fp * (inT[j + H] + gh * ph);
    const real d0 = tb[4 * j], d1 = tb[4 * j + 1], u0 = tb[4 * j + 2], u1 = tb[4 * j + 3];
    const vr v0 = d0 * bl + u0 * bh, v1 = d1 * bl + u1 * bh;
    const vr w0 = d0 * dl + u0 * dh, w1 = d1 * dl + u1 * dh;
    out[2 * j] = v0;
    out[2 * j + 1] = v1;
    outT[2 * j] = w0;
    outT[2 * j + 1] = w1;
    psum += v0 + v1;
    psumT += w0 + w1;
    if (FLUSH(j)) sum += psum, sumT += psumT, psum = psumT = zero;
  }
  sum += psum, sumT += psumT;
  st->sum = sum;
  st->sumT = sumT;
  st->sigma = sum;
  st->shift = sumT / sum;
  restart_ended(c, g, t, out, outT, &st->sigma, &st->shift);
}

/* The start of the backward sweep: β_{nmax−1} = 1, tangent 0. */
static inline back_state back_start(const chain_head *c, vr *msg, vr *tangent) {
  for (int32_t x = 0; x < c->S; x++) {
    msg[x] = vrsplat(1.0f);
    tangent[x] = vrsplat(0.0f);
  }
  const back_state st = {vrsplat((real)c->S), vrsplat(0.0f), vrsplat((real)c->S), vrsplat(0.0f)};
  return st;
}

/* A message and its tangent (S vectors each) copied. */
static inline void copy_pair(int32_t S, vr *to, vr *toT, const vr *from, const vr *fromT) {
  memcpy(to, from, (size_t)S * sizeof(vr));
  memcpy(toT, fromT, (size_t)S * sizeof(vr));
}

/*
 * The backward sweep once over the whole chain, keeping two messages: backSum, backShift of
 * every position, the totals, and at each segment end e = K, 2K, … < nmax the message β_{e−1}
 * (block e) with its state, in ck[(e/K − 1)·2S …] and cst[e/K − 1]. ring: 4S vectors.
 */
static void back_checkpoints(const chain_head *c, const chain_group *g, int32_t K, vr *ring,
                             vr *ck, back_state *cst, chain_back_t *m) {
  const int32_t S = c->S;
  vr *cur = ring, *curT = ring + S, *nx = ring + 2 * S, *nxT = ring + 3 * S;
  back_state st = back_start(c, cur, curT);
  for (int32_t t = g->nmax - 1; t >= 0; t--) {
    m->backSum[t] = st.sigma;
    m->backShift[t] = st.shift;
    back_vjp_step(c, g, t, cur, curT, nx, nxT, &st);
    vr *swap = cur;
    cur = nx, nx = swap;
    swap = curT;
    curT = nxT, nxT = swap;
    if (t > 0 && t % K == 0) {
      copy_pair(S, ck + (size_t)(t / K - 1) * 2 * S, ck + (size_t)(t / K - 1) * 2 * S + S, cur, curT);
      cst[t / K - 1] = st;
    }
  }
  m->total = st.sum;
  m->totalT = st.sumT;
}

/*
 * The whole backward sweep kept (one segment): β_t and tangent for t = 0 … nmax − 1 into seg
 * block t, backSum, backShift and the totals (β_{−1} into ring).
 */
static void back_whole(const chain_head *c, const chain_group *g, vr *ring, vr *seg, chain_back_t *m) {
  const int32_t S = c->S;
  vr *top = seg + (size_t)(g->nmax - 1) * 2 * S;
  back_state st = back_start(c, top, top + S);
  for (int32_t t = g->nmax - 1; t >= 0; t--) {
    m->backSum[t] = st.sigma;
    m->backShift[t] = st.shift;
    vr *in = seg + (size_t)t * 2 * S, *out = t > 0 ? in - 2 * S : ring;
    back_vjp_step(c, g, t, in, in + S, out, out + S, &st);
  }
  m->total = st.sum;
  m->totalT = st.sumT;
}

/*
 * Segment [start, end)'s backward messages again, from its checkpoint: β_t and tangent for
 * t = start … end − 1 into seg block (t − start) (value at 2S·k, tangent at 2S·k + S).
 */
static void back_segment(const chain_head *c, const chain_group *g, int32_t start, int32_t end,
                         const vr *ck, const back_state *cst, int32_t K, vr *seg) {
  const int32_t S = c->S;
  vr *top = seg + (size_t)(end - 1 - start) * 2 * S;
  back_state st;
  if (end == g->nmax) st = back_start(c, top, top + S);
  else {
    copy_pair(S, top, top + S, ck + (size_t)(end / K - 1) * 2 * S, ck + (size_t)(end / K - 1) * 2 * S + S);
    st = cst[end / K - 1];
  }
  for (int32_t t = end - 1; t > start; t--) {
    vr *in = seg + (size_t)(t - start) * 2 * S, *out = in - 2 * S;
    back_vjp_step(c, g, t, in, in + S, out, out + S, &st);
  }
}

#endif
