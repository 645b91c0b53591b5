/*
 * The VJP's forward sweep over one lane group (linearVjp.ts): α_t and its tangent against the
 * backward sweep's messages (transferVjp.h), with ∂L/∂h_t and the band gradients of every
 * position read out on the way.
 */
#ifndef BOLTZMANN_TRANSFER_VJP_FORWARD_H
#define BOLTZMANN_TRANSFER_VJP_FORWARD_H
#include "transferVjp.h"

/*
 * The sums of `row` (S vectors) over the states with bit k set, into upper[k]; row[0] ends as the
 * total: halving, bit W − 1 first (2^W − 1 loads, stores and adds).
 */
static inline void fold_halves(vr *row, int32_t W, vr *upper) {
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

/* The running sums of bits 0–3 (fold_bits). */
typedef struct {
  vr b0, b1, b2, b3;
} low_bits;

/*
 * Block b of 16 states of `row` as a tree whose levels give the sums of bits 0–3 (26 adds, no
 * stores), added into part; the block's total into row[b], a slot already read.
 */
static inline void fold_block(vr *row, int32_t b, low_bits *part) {
  const vr *v = row + 16 * b;
  const vr a0 = v[0] + v[1], a1 = v[2] + v[3], a2 = v[4] + v[5], a3 = v[6] + v[7];
  const vr a4 = v[8] + v[9], a5 = v[10] + v[11], a6 = v[12] + v[13], a7 = v[14] + v[15];
  part->b0 += ((v[1] + v[3]) + (v[5] + v[7])) + ((v[9] + v[11]) + (v[13] + v[15]));
  part->b1 += (a1 + a3) + (a5 + a7);
  const vr q0 = a0 + a1, q1 = a2 + a3, q2 = a4 + a5, q3 = a6 + a7;
  part->b2 += q1 + q3;
  const vr o1 = q2 + q3;
  part->b3 += o1;
  row[b] = (q0 + q1) + o1;
}

/*
 * fold_halves's sums with the four low bits in registers: fold_block's trees over the blocks of 16
 * states, then fold_halves over the S/16 block totals for bits 4 … W − 1. A fifth of the adds,
 * loads and stores of halving all of `row`, which took ≈ a tenth of the backward at W = 8 (8 Dec
 * 2026). The low bits' running sums are emptied every two blocks, as fold_halves's every BLOCK
 * states. The float64 pass (rare rows) folds by halves.
 */
static inline void fold_bits(vr *row, int32_t W, vr *upper) {
  if (W < 5 || WIDE) { /* WIDE: GCC 12's SSE2 build of it stops on an internal error */
    fold_halves(row, W, upper);
    return;
  }
  const vr zero = vrsplat(0.0f);
  low_bits sum = {zero, zero, zero, zero};
  for (int32_t b = 0; b < 1 << (W - 4); b += 2) {
    low_bits part = {zero, zero, zero, zero};
    fold_block(row, b, &part);
    fold_block(row, b + 1, &part);
    sum.b0 += part.b0, sum.b1 += part.b1, sum.b2 += part.b2, sum.b3 += part.b3;
  }
  fold_halves(row, W - 4, upper + 4);
  upper[0] = sum.b0, upper[1] = sum.b1, upper[2] = sum.b2, upper[3] = sum.b3;
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

/* One pair of window states (2j, 2j + 1) of a step: messages, tangents and coupling factors. */
typedef struct {
  vr a0, a1, c0, c1;
  real d0, d1, u0, u1;
} state_pair;

static inline state_pair load_pair(const vr *a, const vr *aT, const real *tb, int32_t j) {
  const state_pair p = {a[2 * j], a[2 * j + 1], aT[2 * j], aT[2 * j + 1],
                        tb[4 * j], tb[4 * j + 1], tb[4 * j + 2], tb[4 * j + 3]};
  return p;
}

/* The next messages and tangents of states j, j + H. */
typedef struct {
  vr lo, hi, loT, hiT;
} next_pair;

/*
 * Pair j of a step (load_pair) and the next messages and tangents it makes, stored into next and
 * nextT (states j, j + H), their sums into part; returned for a loop that reads them on.
 */
static inline next_pair pair_next(const vjp_step *k, const vr *a, const vr *aT, const real *tb,
                                  int32_t j, int32_t H, vr *next, vr *nextT, state_pair *p,
                                  vjp_sums *part) {
  *p = load_pair(a, aT, tb, j);
  const vr lo = k->fm * (p->a0 * p->d0 + p->a1 * p->d1), hi = k->fp * (p->a0 * p->u0 + p->a1 * p->u1);
  const vr loT = k->fm * (p->c0 * p->d0 + p->c1 * p->d1) - k->gl * lo;
  const vr hiT = k->fp * (p->c0 * p->u0 + p->c1 * p->u1) + k->gh * hi;
  part->sumA += lo + hi;
  part->sumAT += loT + hiT;
  next[j] = lo, next[j + H] = hi, nextT[j] = loT, nextT[j + H] = hiT;
  const next_pair n = {lo, hi, loT, hiT};
  return n;
}

/* The window weights of states j, j + H against β (pl, ph) and its tangent (tl, th): their sums into part, the signed-marginal tangents into row. */
static inline void pair_weights(const vjp_step *k, vr lo, vr hi, vr loT, vr hiT, vr pl, vr ph,
                                vr tl, vr th, vr *rowLo, vr *rowHi, vjp_sums *part) {
  const vr el = lo * pl, eh = hi * ph;
  const vr elT = loT * pl + lo * tl, ehT = hiT * ph + hi * th;
  part->sl += el;
  part->sh += eh;
  part->slT += elT;
  part->shT += ehT;
  *rowLo = k->kz * el - k->invZHat * elT;
  *rowHi = k->invZHat * ehT - k->kz * eh;
}

/* The six sums of the pair (t − W, t) from a pair of states, into part. */
static inline void pair_window(const state_pair *p, vr pl, vr ph, vr tl, vr th, vjp_sums *part) {
  const vr dpp = p->a1 * p->u1 - p->a0 * p->u0, dpm = p->a1 * p->d1 - p->a0 * p->d0;
  part->r1 += dpp * ph;
  part->r2 += dpm * pl;
  part->r3 += (p->c1 * p->u1 - p->c0 * p->u0) * ph;
  part->r4 += (p->c1 * p->d1 - p->c0 * p->d0) * pl;
  part->r5 += dpp * th;
  part->r6 += dpm * tl;
}

/* A block's running sums emptied into o (every BLOCK pairs and at the end). */
static inline void flush_sums(vjp_sums *o, vjp_sums *part) {
  o->sumA += part->sumA, o->sumAT += part->sumAT;
  o->sl += part->sl, o->sh += part->sh, o->slT += part->slT, o->shT += part->shT;
  o->r1 += part->r1, o->r2 += part->r2, o->r3 += part->r3;
  o->r4 += part->r4, o->r5 += part->r5, o->r6 += part->r6;
  *part = (vjp_sums){0};
}

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
  vjp_sums part = {0};
  for (int32_t j = 0; j < H; j++) {
    state_pair p;
    pair_next(k, a, aT, tb, j, H, next, nextT, &p, &part);
    if (FLUSH(j)) flush_sums(o, &part);
  }
  flush_sums(o, &part);
  for (int32_t j = 0; j < H; j++) {
    pair_weights(k, next[j], next[j + H], nextT[j], nextT[j + H], bk[j], bk[j + H], bkT[j],
                 bkT[j + H], &row[j], &row[j + H], &part);
    if (FLUSH(j)) flush_sums(o, &part);
  }
  flush_sums(o, &part);
  for (int32_t j = 0; j < H; j++) {
    const state_pair p = load_pair(a, aT, tb, j);
    pair_window(&p, bk[j], bk[j + H], bkT[j], bkT[j + H], &part);
    if (FLUSH(j)) flush_sums(o, &part);
  }
  flush_sums(o, &part);
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
  vjp_sums part = {0};
  for (int32_t j = 0; j < H; j++) {
    state_pair p;
    const next_pair n = pair_next(k, a, aT, tb, j, H, next, nextT, &p, &part);
    const vr pl = bk[j], ph = bk[j + H], tl = bkT[j], th = bkT[j + H];
    pair_weights(k, n.lo, n.hi, n.loT, n.hiT, pl, ph, tl, th, &row[j], &row[j + H], &part);
    pair_window(&p, pl, ph, tl, th, &part);
    if (FLUSH(j)) flush_sums(o, &part);
  }
  flush_sums(o, &part);
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
