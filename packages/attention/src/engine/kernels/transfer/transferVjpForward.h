/*
 * The VJP's forward sweep over one lane group (linearVjp.ts): α_t and its tangent against the
 * backward sweep's messages (transferVjp.h), with ∂L/∂h_t and the band gradients of every
 * position read out on the way.
 */
#ifndef BOLTZMANN_TRANSFER_VJP_FORWARD_H
#define BOLTZMANN_TRANSFER_VJP_FORWARD_H
#include "transferVjp.h"

/* The sums of `row` (S vectors) over the states with bit k set, into upper[k]; row[0] ends as the total. */
static inline void fold_bits(vr *row, int32_t W, vr *upper) {
  for (int32_t k = W - 1; k >= 0; k--) {
    const int32_t half = 1 << k;
    vr u = vrsplat(0.0f), part = u;
    for (int32_t s = 0; s < half; s++) {
      part += row[s + half];
      row[s] += row[s + half];
      if (FLUSH(s)) u += part, part = vrsplat(0.0f);
    }
    upper[k] = u + part;
  }
}

/* Lanes of group g that have spin t (1.0) or not (0.0), times `live` (0 for lanes that are not summed). */
static inline vr lanes_at(const chain_group *g, int32_t t, vr live) {
  vr m = live;
  for (int32_t l = 0; l < RW; l++)
    if (t >= g->n[l]) m[l] = 0.0f;
  return m;
}

/* Per-step scalars of the VJP's forward sweep (one vector each). */
typedef struct {
  vr fm, fp, gl, gh, kz, invZHat;
} vjp_step;

/* The six window sums of the pair (t − W, t) and the message sums of one step (linearVjp.ts). */
typedef struct {
  vr sumA, sumAT, sl, sh, slT, shT, r1, r2, r3, r4, r5, r6;
} vjp_sums;

/*
 * One step's state loops (linearVjp.ts's one loop, split in three so that each keeps its
 * accumulators and constants in registers: AVX2 has 16): the next messages and tangents with
 * their sums; the window weights' sums and the signed-marginal tangents into row; the six sums
 * of the pair (t − W, t).
 */
static inline void vjp_states(const chain_head *c, const vjp_step *k, const vr *a, const vr *aT,
                              const vr *bk, const vr *bkT, const real *tb, vr *next, vr *nextT,
                              vr *row, vjp_sums *o) {
  const int32_t H = c->H;
  const vr zero = vrsplat(0.0f);
  vr sumA = zero, sumAT = zero;
  for (int32_t j = 0; j < H; j++) {
    const vr a0 = a[2 * j], a1 = a[2 * j + 1], c0 = aT[2 * j], c1 = aT[2 * j + 1];
    const real d0 = tb[4 * j], d1 = tb[4 * j + 1], u0 = tb[4 * j + 2], u1 = tb[4 * j + 3];
    const vr lo = k->fm * (a0 * d0 + a1 * d1), hi = k->fp * (a0 * u0 + a1 * u1);
    const vr loT = k->fm * (c0 * d0 + c1 * d1) - k->gl * lo;
    const vr hiT = k->fp * (c0 * u0 + c1 * u1) + k->gh * hi;
    next[j] = lo;
    next[j + H] = hi;
    nextT[j] = loT;
    nextT[j + H] = hiT;
    sumA += lo + hi;
    sumAT += loT + hiT;
    if (FLUSH(j)) o->sumA += sumA, o->sumAT += sumAT, sumA = sumAT = zero;
  }
  o->sumA += sumA, o->sumAT += sumAT;
  vr sl = zero, sh = zero, slT = zero, shT = zero;
  const vr kz = k->kz, invZHat = k->invZHat;
  for (int32_t j = 0; j < H; j++) {
    const vr lo = next[j], hi = next[j + H], loT = nextT[j], hiT = nextT[j + H];
    const vr pl = bk[j], ph = bk[j + H];
    const vr el = lo * pl, eh = hi * ph;
    const vr elT = loT * pl + lo * bkT[j], ehT = hiT * ph + hi * bkT[j + H];
    sl += el;
    sh += eh;
    slT += elT;
    shT += ehT;
    row[j] = kz * el - invZHat * elT;
    row[j + H] = invZHat * ehT - kz * eh;
    if (FLUSH(j)) {
      o->sl += sl, o->sh += sh, o->slT += slT, o->shT += shT;
      sl = sh = slT = shT = zero;
    }
  }
  o->sl += sl, o->sh += sh, o->slT += slT, o->shT += shT;
  vr r1 = zero, r2 = zero, r3 = zero, r4 = zero, r5 = zero, r6 = zero;
  for (int32_t j = 0; j < H; j++) {
    const vr a0 = a[2 * j], a1 = a[2 * j + 1], c0 = aT[2 * j], c1 = aT[2 * j + 1];
    const real d0 = tb[4 * j], d1 = tb[4 * j + 1], u0 = tb[4 * j + 2], u1 = tb[4 * j + 3];
    const vr dpp = a1 * u1 - a0 * u0, dpm = a1 * d1 - a0 * d0;
    const vr pl = bk[j], ph = bk[j + H];
    r1 += dpp * ph;
    r2 += dpm * pl;
    r3 += (c1 * u1 - c0 * u0) * ph;
    r4 += (c1 * d1 - c0 * d0) * pl;
    r5 += dpp * bkT[j + H];
    r6 += dpm * bkT[j];
    if (FLUSH(j)) {
      o->r1 += r1, o->r2 += r2, o->r3 += r3, o->r4 += r4, o->r5 += r5, o->r6 += r6;
      r1 = r2 = r3 = r4 = r5 = r6 = zero;
    }
  }
  o->r1 += r1, o->r2 += r2, o->r3 += r3, o->r4 += r4, o->r5 += r5, o->r6 += r6;
}

#if VW >= 16
/*
 * vjp_states's three loops as one, for the 16-lane ISA (AVX-512, 32 vector registers), where the
 * twelve accumulators and six constants fit beside a step's loads: each pair of states is read
 * once instead of three times, and the new messages are not read back. The same operations on the
 * same values in the same order as vjp_states; the compiler may contract a different product into
 * a fused multiply-add, so results can differ from the split loops' in the last bits (both held to
 * transferNative.test.ts's references). Forward + VJP 10–12 % faster on AVX-512 (Zen 5, W = 8,
 * T = 64 and 256, docs/benchmarks/attention.md, 7 Dec 2026, 19:20 UTC).
 */
static inline void vjp_states_fused(const chain_head *c, const vjp_step *k, const vr *a, const vr *aT,
                                    const vr *bk, const vr *bkT, const real *tb, vr *next, vr *nextT,
                                    vr *row, vjp_sums *o) {
  const int32_t H = c->H;
  const vr zero = vrsplat(0.0f), kz = k->kz, invZHat = k->invZHat;
  vr sumA = zero, sumAT = zero, sl = zero, sh = zero, slT = zero, shT = zero;
  vr r1 = zero, r2 = zero, r3 = zero, r4 = zero, r5 = zero, r6 = zero;
  for (int32_t j = 0; j < H; j++) {
    const vr a0 = a[2 * j], a1 = a[2 * j + 1], c0 = aT[2 * j], c1 = aT[2 * j + 1];
    const real d0 = tb[4 * j], d1 = tb[4 * j + 1], u0 = tb[4 * j + 2], u1 = tb[4 * j + 3];
    const vr lo = k->fm * (a0 * d0 + a1 * d1), hi = k->fp * (a0 * u0 + a1 * u1);
    const vr loT = k->fm * (c0 * d0 + c1 * d1) - k->gl * lo;
    const vr hiT = k->fp * (c0 * u0 + c1 * u1) + k->gh * hi;
    next[j] = lo;
    next[j + H] = hi;
    nextT[j] = loT;
    nextT[j + H] = hiT;
    sumA += lo + hi;
    sumAT += loT + hiT;
    const vr pl = bk[j], ph = bk[j + H], tl = bkT[j], th = bkT[j + H];
    const vr el = lo * pl, eh = hi * ph;
    const vr elT = loT * pl + lo * tl, ehT = hiT * ph + hi * th;
    sl += el;
    sh += eh;
    slT += elT;
    shT += ehT;
    row[j] = kz * el - invZHat * elT;
    row[j + H] = invZHat * ehT - kz * eh;
    const vr dpp = a1 * u1 - a0 * u0, dpm = a1 * d1 - a0 * d0;
    r1 += dpp * ph;
    r2 += dpm * pl;
    r3 += (c1 * u1 - c0 * u0) * ph;
    r4 += (c1 * d1 - c0 * d0) * pl;
    r5 += dpp * th;
    r6 += dpm * tl;
    if (FLUSH(j)) {
      o->sumA += sumA, o->sumAT += sumAT, sumA = sumAT = zero;
      o->sl += sl, o->sh += sh, o->slT += slT, o->shT += shT;
      sl = sh = slT = shT = zero;
      o->r1 += r1, o->r2 += r2, o->r3 += r3, o->r4 += r4, o->r5 += r5, o->r6 += r6;
      r1 = r2 = r3 = r4 = r5 = r6 = zero;
    }
  }
  o->sumA += sumA, o->sumAT += sumAT;
  o->sl += sl, o->sh += sh, o->slT += slT, o->shT += shT;
  o->r1 += r1, o->r2 += r2, o->r3 += r3, o->r4 += r4, o->r5 += r5, o->r6 += r6;
}
#define VJP_STATES vjp_states_fused
#else
#define VJP_STATES vjp_states
#endif

/* The VJP's forward sweep's running state. */
typedef struct {
  vr *a, *aT, *next, *nextT;
  vr sigma, shift, zPrev, zTPrev;
} fwd_state;

/*
 * The VJP's forward sweep (linearVjp.ts) over positions [start, end), with β_t at seg block
 * (t − start): ∂L/∂h_t into fg[t] (per lane) and the band gradient of every position, summed
 * over the lanes `live` marks, into gacc[t·W + b] (per lane). row: S vectors; upper: W.
 */
static void vjp_segment(const chain_head *c, const chain_group *g, const chain_back_t *m,
                        int32_t start, int32_t end, const vr *seg, vr live, fwd_state *f,
                        vr *row, vr *upper, vr *fg, vr *gacc) {
  const int32_t S = c->S, W = c->W;
  for (int32_t t = start; t < end; t++) {
    const vr gp = g->gp[t], gm = g->gm[t];
    const vr zHat = (m->backSum[t] / f->sigma) * f->zPrev;
    const vr kappaHat = f->zTPrev / f->zPrev + m->backShift[t] - f->shift;
    vjp_step k = {.fm = g->em[t] / f->sigma, .fp = g->ep[t] / f->sigma, .gl = gm + f->shift,
                  .gh = gp - f->shift, .invZHat = 1.0f / zHat};
    k.kz = kappaHat * k.invZHat;
    vjp_sums o;
    memset(&o, 0, sizeof o);
    const vr *bk = seg + (size_t)(t - start) * 2 * S;
    VJP_STATES(c, &k, f->a, f->aT, bk, bk + S, c->table + (size_t)t * 2 * S, f->next, f->nextT,
               row, &o);
    const vr z = o.sl + o.sh, zT = o.slT + o.shT, mg = o.sh - o.sl, mT = o.shT - o.slT;
    const vr dv = k.fp * o.r1 - k.fm * o.r2;
    const vr du = k.fp * (o.r3 - f->shift * o.r1) - k.fm * (o.r4 - f->shift * o.r2) +
                  k.fp * o.r5 - k.fm * o.r6 + gp * k.fp * o.r1 + gm * k.fm * o.r2;
    const vr invZ = 1.0f / z, kappa = zT * invZ;
    fg[t] = (mT - kappa * mg) * invZ;
    const vr lv = lanes_at(g, t, live);
    fold_bits(row, W, upper);
    gacc[(size_t)t * W] += vrkeep(lv, (du - kappa * dv) * invZ);
    for (int32_t b = 1; b < W; b++) gacc[(size_t)t * W + b] += vrkeep(lv, 2.0f * upper[b - 1] - row[0]);
    f->zPrev = z;
    f->zTPrev = zT;
    f->sigma = o.sumA;
    f->shift = o.sumAT / o.sumA;
    vr *swap = f->a;
    f->a = f->next, f->next = swap;
    swap = f->aT;
    f->aT = f->nextT, f->nextT = swap;
  }
}

/* The start of the VJP's forward sweep: α_{−1} = 1, tangent 0, Z from the backward totals. */
static inline void fwd_start(const chain_head *c, const chain_back_t *m, fwd_state *f) {
  for (int32_t x = 0; x < c->S; x++) {
    f->a[x] = vrsplat(1.0f);
    f->aT[x] = vrsplat(0.0f);
  }
  f->sigma = vrsplat((real)c->S);
  f->shift = vrsplat(0.0f);
  f->zPrev = m->total;
  f->zTPrev = m->totalT;
}

#endif
