/*
 * The sweeps of the engine's transfer-matrix kernels (transfer.c) over one lane group: VW causal
 * problems of one head, one per vector lane, that share the head's coupling table. The algorithm
 * is ising-core's batched linear-domain kernel (packages/ising-core/src/internal/kernels/
 * transferLinear.ts and linearVjp.ts: the window states, the rescaling, the linear tangents and
 * the read-outs are theirs, term by term), with the problems across the lanes instead of one at a
 * time: a window state of every lane is one vector, each coupling factor one broadcast, so no
 * sweep shuffles. Messages are float32 with the CPU's flush-to-zero on (transfer.c); per-step
 * scalars are per-lane vectors.
 *
 * Lanes may end at different positions (n_l ≤ nmax): past its end a lane's backward message is
 * reset to its start (ones, tangent 0) at every step, so at its own end it starts afresh, and its
 * read-outs past its end are neither written nor summed.
 */
#ifndef BOLTZMANN_TRANSFER_CHAIN_H
#define BOLTZMANN_TRANSFER_CHAIN_H
#include "vmath.h"

/* One head's shared data: the window, β and the coupling factors of every position. */
typedef struct {
  int32_t W, S, H; /* window bits, states 2^W, half */
  /* table[t·2S + 4j + {0,1,2,3}]: exp(−βc_t(2j)), exp(−βc_t(2j+1)), exp(βc_t(2j)), exp(βc_t(2j+1)) */
  const float *table;
} chain_head;

/* One lane group: per-position field factors (and gradient directions), lengths and liveness. */
typedef struct {
  int32_t nmax, nmin;
  int32_t n[VW];
  const vf *ef;  /* exp(β h_t) per lane, nmax vectors (1 where a lane has no spin t) */
  const vf *gam; /* β g_t per lane (the VJP's direction), nmax vectors (0 past a lane's end) */
} chain_group;

/* Lane l of every one of `count` state vectors set to `value`. */
static inline void set_lane(vf *v, int32_t count, int32_t l, float value) {
  for (int32_t x = 0; x < count; x++) v[x][l] = value;
}

/* Lanes that end before spin t restart: their message `msg` (S vectors) is the start again. */
static inline void restart_ended(const chain_head *c, const chain_group *g, int32_t t, vf *msg,
                                 vf *tangent, vf *sigma, vf *shift) {
  if (t < g->nmin) return;
  for (int32_t l = 0; l < VW; l++) {
    if (t < g->n[l]) continue;
    set_lane(msg, c->S, l, 1.0f);
    if (tangent) set_lane(tangent, c->S, l, 0.0f);
    (*sigma)[l] = (float)c->S;
    if (shift) (*shift)[l] = 0.0f;
  }
}

/*
 * The forward op's backward messages: β_t into back[t·S …] for t = nmax − 1 … 0 (transferLinear.ts
 * linearForward's first sweep).
 */
static void chain_back(const chain_head *c, const chain_group *g, vf *back) {
  const int32_t S = c->S, H = c->H;
  vf *top = back + (size_t)(g->nmax - 1) * S;
  for (int32_t x = 0; x < S; x++) top[x] = vsplat(1.0f);
  vf sigma = vsplat((float)S);
  for (int32_t t = g->nmax - 1; t >= 1; t--) {
    const vf e = g->ef[t], fp = e / sigma, fm = 1.0f / (e * sigma);
    const vf *in = back + (size_t)t * S;
    vf *out = back + (size_t)(t - 1) * S;
    const float *tb = c->table + (size_t)t * 2 * S;
    vf sum = vsplat(0.0f);
    for (int32_t j = 0; j < H; j++) {
      const vf bl = fm * in[j], bh = fp * in[j + H];
      const vf v0 = tb[4 * j] * bl + tb[4 * j + 2] * bh;
      const vf v1 = tb[4 * j + 1] * bl + tb[4 * j + 3] * bh;
      out[2 * j] = v0;
      out[2 * j + 1] = v1;
      sum += v0 + v1;
    }
    sigma = sum;
    restart_ended(c, g, t, out, NULL, &sigma, NULL);
  }
}

/*
 * The forward sweep with the read-out P(s_t = +1) = Σ α_t β_t [s_t = +1] / Σ α_t β_t into
 * up[t] (per lane, nmax vectors); a, next: S vectors each.
 */
static void chain_forward(const chain_head *c, const chain_group *g, const vf *back, vf *a,
                          vf *next, vf *up) {
  const int32_t S = c->S, H = c->H;
  for (int32_t x = 0; x < S; x++) a[x] = vsplat(1.0f);
  vf sigma = vsplat((float)S);
  for (int32_t t = 0; t < g->nmax; t++) {
    const vf e = g->ef[t], fp = e / sigma, fm = 1.0f / (e * sigma);
    const vf *bk = back + (size_t)t * S;
    const float *tb = c->table + (size_t)t * 2 * S;
    vf sum = vsplat(0.0f), sl = vsplat(0.0f), sh = vsplat(0.0f);
    for (int32_t j = 0; j < H; j++) {
      const vf a0 = a[2 * j], a1 = a[2 * j + 1];
      const vf lo = fm * (a0 * tb[4 * j] + a1 * tb[4 * j + 1]);
      const vf hi = fp * (a0 * tb[4 * j + 2] + a1 * tb[4 * j + 3]);
      next[j] = lo;
      next[j + H] = hi;
      sum += lo + hi;
      sl += lo * bk[j];
      sh += hi * bk[j + H];
    }
    up[t] = sh / (sl + sh);
    sigma = sum;
    vf *swap = a;
    a = next;
    next = swap;
  }
}

/* What the VJP's backward sweep leaves for its forward sweep (per position and lane). */
typedef struct {
  vf *back, *backT;   /* β_t, β'_t at block t + 1; block 0: β_{−1} */
  vf *backSum;        /* Σ β_t as stored, nmax vectors */
  vf *backShift;      /* the tangent shift applied with it */
  vf total, totalT;   /* Σ β_{−1} and its tangent */
} chain_back_t;

/* The VJP's backward messages and their tangents (linearVjp.ts backwardMessages). */
static void chain_back_vjp(const chain_head *c, const chain_group *g, chain_back_t *m) {
  const int32_t S = c->S, H = c->H;
  vf *B = m->back, *BT = m->backT;
  for (int32_t x = 0; x < S; x++) {
    B[(size_t)g->nmax * S + x] = vsplat(1.0f);
    BT[(size_t)g->nmax * S + x] = vsplat(0.0f);
  }
  vf sigma = vsplat((float)S), shift = vsplat(0.0f), sum = sigma, sumT = shift;
  for (int32_t t = g->nmax - 1; t >= 0; t--) {
    const vf e = g->ef[t], fp = e / sigma, fm = 1.0f / (e * sigma);
    m->backSum[t] = sigma;
    m->backShift[t] = shift;
    const vf gl = -g->gam[t] - shift, gh = g->gam[t] - shift;
    const vf *in = B + (size_t)(t + 1) * S, *inT = BT + (size_t)(t + 1) * S;
    vf *out = B + (size_t)t * S, *outT = BT + (size_t)t * S;
    const float *tb = c->table + (size_t)t * 2 * S;
    sum = vsplat(0.0f);
    sumT = vsplat(0.0f);
    for (int32_t j = 0; j < H; j++) {
      const vf pl = in[j], ph = in[j + H];
      const vf bl = fm * pl, bh = fp * ph;
      const vf dl = fm * (inT[j] + gl * pl), dh = fp * (inT[j + H] + gh * ph);
      const float d0 = tb[4 * j], d1 = tb[4 * j + 1], u0 = tb[4 * j + 2], u1 = tb[4 * j + 3];
      const vf v0 = d0 * bl + u0 * bh, v1 = d1 * bl + u1 * bh;
      const vf w0 = d0 * dl + u0 * dh, w1 = d1 * dl + u1 * dh;
      out[2 * j] = v0;
      out[2 * j + 1] = v1;
      outT[2 * j] = w0;
      outT[2 * j + 1] = w1;
      sum += v0 + v1;
      sumT += w0 + w1;
    }
    sigma = sum;
    shift = sumT / sum;
    restart_ended(c, g, t, out, outT, &sigma, &shift);
  }
  m->total = sum;
  m->totalT = sumT;
}

/* The sums of `row` (S vectors) over the states with bit k set, into upper[k]; row[0] ends as the total. */
static inline void fold_bits(vf *row, int32_t W, vf *upper) {
  for (int32_t k = W - 1; k >= 0; k--) {
    const int32_t half = 1 << k;
    vf u = vsplat(0.0f);
    for (int32_t s = 0; s < half; s++) {
      u += row[s + half];
      row[s] += row[s + half];
    }
    upper[k] = u;
  }
}

/* Lanes of group g that have spin t (1.0) or not (0.0), times `live` (0 for lanes that are not summed). */
static inline vf lanes_at(const chain_group *g, int32_t t, vf live) {
  vf m = live;
  for (int32_t l = 0; l < VW; l++)
    if (t >= g->n[l]) m[l] = 0.0f;
  return m;
}

/* Per-step scalars of the VJP's forward sweep (one vector each). */
typedef struct {
  vf fm, fp, gl, gh, kz, invZHat;
} vjp_step;

/* The six window sums of the pair (t − W, t) and the message sums of one step (linearVjp.ts). */
typedef struct {
  vf sumA, sumAT, sl, sh, slT, shT, r1, r2, r3, r4, r5, r6;
} vjp_sums;

/* One step's state loop: next messages and tangents, the signed-marginal tangents into row, the sums. */
static inline void vjp_states(const chain_head *c, const vjp_step *k, const vf *a, const vf *aT,
                              const vf *bk, const vf *bkT, const float *tb, vf *next, vf *nextT,
                              vf *row, vjp_sums *o) {
  const int32_t H = c->H;
  for (int32_t j = 0; j < H; j++) {
    const vf a0 = a[2 * j], a1 = a[2 * j + 1], c0 = aT[2 * j], c1 = aT[2 * j + 1];
    const float d0 = tb[4 * j], d1 = tb[4 * j + 1], u0 = tb[4 * j + 2], u1 = tb[4 * j + 3];
    const vf pm0 = a0 * d0, pm1 = a1 * d1, pp0 = a0 * u0, pp1 = a1 * u1;
    const vf qm0 = c0 * d0, qm1 = c1 * d1, qp0 = c0 * u0, qp1 = c1 * u1;
    const vf lo = k->fm * (pm0 + pm1), hi = k->fp * (pp0 + pp1);
    const vf loT = k->fm * (qm0 + qm1) - k->gl * lo;
    const vf hiT = k->fp * (qp0 + qp1) + k->gh * hi;
    next[j] = lo;
    next[j + H] = hi;
    nextT[j] = loT;
    nextT[j + H] = hiT;
    o->sumA += lo + hi;
    o->sumAT += loT + hiT;
    const vf pl = bk[j], ph = bk[j + H], pTl = bkT[j], pTh = bkT[j + H];
    const vf el = lo * pl, eh = hi * ph;
    const vf elT = loT * pl + lo * pTl, ehT = hiT * ph + hi * pTh;
    o->sl += el;
    o->sh += eh;
    o->slT += elT;
    o->shT += ehT;
    row[j] = k->kz * el - k->invZHat * elT;
    row[j + H] = k->invZHat * ehT - k->kz * eh;
    const vf dpp = pp1 - pp0, dpm = pm1 - pm0;
    o->r1 += dpp * ph;
    o->r2 += dpm * pl;
    o->r3 += (qp1 - qp0) * ph;
    o->r4 += (qm1 - qm0) * pl;
    o->r5 += dpp * pTh;
    o->r6 += dpm * pTl;
  }
}

/*
 * The VJP's forward sweep (linearVjp.ts): ∂L/∂h_t into fg[t] (per lane, nmax vectors) and the band
 * gradient of every position, summed over the lanes `live` marks, into gacc[t·W + b] (per lane).
 * a, aT, next, nextT, row: S vectors each; upper: W vectors.
 */
static void chain_vjp(const chain_head *c, const chain_group *g, const chain_back_t *m, vf live,
                      vf *a, vf *aT, vf *next, vf *nextT, vf *row, vf *upper, vf *fg, vf *gacc) {
  const int32_t S = c->S, W = c->W;
  for (int32_t x = 0; x < S; x++) {
    a[x] = vsplat(1.0f);
    aT[x] = vsplat(0.0f);
  }
  vf sigma = vsplat((float)S), shift = vsplat(0.0f), zPrev = m->total, zTPrev = m->totalT;
  for (int32_t t = 0; t < g->nmax; t++) {
    const vf e = g->ef[t], gamma = g->gam[t];
    const vf zHat = (m->backSum[t] / sigma) * zPrev;
    const vf kappaHat = zTPrev / zPrev + m->backShift[t] - shift;
    vjp_step k = {.fm = 1.0f / (e * sigma), .fp = e / sigma, .gl = gamma + shift,
                  .gh = gamma - shift, .invZHat = 1.0f / zHat};
    k.kz = kappaHat * k.invZHat;
    vjp_sums o;
    memset(&o, 0, sizeof o);
    const size_t at = (size_t)(t + 1) * S;
    vjp_states(c, &k, a, aT, m->back + at, m->backT + at, c->table + (size_t)t * 2 * S, next,
               nextT, row, &o);
    const vf z = o.sl + o.sh, zT = o.slT + o.shT, mg = o.sh - o.sl, mT = o.shT - o.slT;
    const vf dv = k.fp * o.r1 - k.fm * o.r2;
    const vf du = k.fp * (o.r3 - shift * o.r1) - k.fm * (o.r4 - shift * o.r2) + k.fp * o.r5 -
                  k.fm * o.r6 + gamma * (k.fp * o.r1 + k.fm * o.r2);
    const vf invZ = 1.0f / z, kappa = zT * invZ;
    fg[t] = (mT - kappa * mg) * invZ;
    const vf lv = lanes_at(g, t, live);
    fold_bits(row, W, upper);
    gacc[(size_t)t * W] += lv * ((du - kappa * dv) * invZ);
    for (int32_t b = 1; b < W; b++) gacc[(size_t)t * W + b] += lv * (2.0f * upper[b - 1] - row[0]);
    zPrev = z;
    zTPrev = zT;
    sigma = o.sumA;
    shift = o.sumAT / o.sumA;
    vf *swap = a;
    a = next;
    next = swap;
    swap = aT;
    aT = nextT;
    nextT = swap;
  }
}

#endif
