/*
 * The sweeps of the engine's transfer-matrix kernels (transfer.c) over one lane group: RW causal
 * problems of one head, one per vector lane, that share the head's coupling table. The algorithm
 * is ising-core's batched linear-domain kernel (packages/ising-core/src/internal/kernels/
 * transferLinear.ts and linearVjp.ts: the window states, the rescaling, the linear tangents and
 * the read-outs are theirs, term by term), with the problems across the lanes instead of one at a
 * time: a window state of every lane is one vector, each coupling factor one broadcast, so no
 * sweep shuffles. Messages are the translation unit's real (transferReal.h: float32 in transfer.c,
 * float64 in transferWide.c) with the CPU's flush-to-zero on (transfer.c); per-step
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
    vjp_states(c, &k, f->a, f->aT, bk, bk + S, c->table + (size_t)t * 2 * S, f->next, f->nextT,
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
