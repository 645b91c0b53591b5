/*
 * The engine's transfer-matrix kernels: Boltzmann attention's causal op with exact banded
 * inference, on the arena, for every problem of a pass at once. Problem (b, hd, i) is query i of
 * sequence b in head hd: the chain of keys t ≤ i with fields h[b][hd][i][t] and the head's
 * couplings J[hd][t − W + k][t] (bandwidth W); α_t = P(s_t = +1), w_t = α_t / Σ α. One head's
 * problems share its coupling table; VW of them at a time run one per vector lane
 * (transferChain.h), in the order (i descending, b), so a group's lanes have (nearly) one length.
 *
 * Fields of any finite size run here: a step's field factors are exp(±β h_t − |β h_t|), the
 * larger 1 (transferChain.h), so none overflows; the smaller, exp(−2|β h_t|), rounds to 0 beyond
 * float32's range, where the float64 answer is 0 or 1 to float32 precision too. A field sets only
 * its own spin's factor, so no later step can raise an entry it made small relative to the
 * others. Couplings can: a problem runs here when its couplings keep ising-core's float32 bounds
 * (its fastPath) counted without the fields: every key's β Σ|J| over its band both ways (to the
 * row's own keys) within 16 (12 in the WAT, transferLanesWat.mjs), and 2β Σ of that over W + 1
 * consecutive keys within 250 (transferLanes.h). Stronger couplings cost float32 digits
 * (measured: random cases with every key at 20 lost ∂L/∂J to 5.8e-6 of its largest), so those
 * rows stay with float64. Left to the caller (the engine runs them through ising-core in float64)
 * are problems whose couplings pass those bounds, problems with a non-finite field, and rows
 * whose Σα is below e^−32 (the weights' normalizer; the smallest the old step bound allowed): the
 * forward marks them with sums[p] = −1 and returns their count. Messages are float32 with
 * flush-to-zero on, so no operation meets a subnormal; an entry that would be one is below e^−87
 * of its message's sum.
 */
#include <math.h>
#include <stdlib.h>
#include "transferLanes.h"
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#define MIN_TOTAL 1.2664165549094176e-14 /* e^−32: the smallest Σα a row keeps here */

/* Flush-to-zero and denormals-are-zero on for a kernel's duration (restored after). */
#if defined(__x86_64__) || defined(__i386__)
typedef unsigned fp_mode;
static fp_mode ftz_on(void) {
  const unsigned m = _mm_getcsr();
  _mm_setcsr(m | 0x8040);
  return m;
}
static void ftz_off(fp_mode m) { _mm_setcsr(m); }
#elif defined(__aarch64__)
typedef uint64_t fp_mode;
static fp_mode ftz_on(void) {
  uint64_t r;
  __asm__ volatile("mrs %0, fpcr" : "=r"(r));
  __asm__ volatile("msr fpcr, %0" ::"r"(r | (1ull << 24)));
  return r;
}
static void ftz_off(fp_mode m) { __asm__ volatile("msr fpcr, %0" ::"r"(m)); }
#else
typedef int fp_mode;
static fp_mode ftz_on(void) { return 0; }
static void ftz_off(fp_mode m) { (void)m; }
#endif


/*
 * Positions per segment of the VJP's backward messages. All of them (no recomputation) while a
 * group's messages and tangents take at most WHOLE_BYTES: streamed through L3, that measured
 * faster than segments kept in L2 and recomputed from checkpoints (AVX2, W = 8: T = 64 backward
 * 1.10 against 1.24 ns a state, T = 128 1.16 against 1.53, T = 256 1.14 against 1.67). Beyond
 * (wide windows), as many as keep a segment within SEGMENT_BYTES (L2 with room for the rest).
 */
#define WHOLE_BYTES ((size_t)16 << 20)
#define SEGMENT_BYTES ((size_t)192 << 10)
static int32_t segment_length(int32_t W, int32_t T) {
  const size_t per = (size_t)2 * ((size_t)1 << W) * sizeof(vf);
  if (per * (size_t)T <= WHOLE_BYTES) return T;
  const size_t k = SEGMENT_BYTES / per;
  return k < 2 ? 2 : (int32_t)k;
}

static int scratch_alloc(scratch *s, const op_shape *o, int vjp, int32_t K) {
  const size_t T = (size_t)o->T, S = (size_t)1 << o->W, W = (size_t)o->W;
  const size_t segs = (T + (size_t)K - 1) / (size_t)K;
  const size_t messages = vjp ? 4 * S + segs * 2 * S + (size_t)K * 2 * S : T * S;
  const size_t vecs = 6 * T + T * W + messages + 2 * T + 5 * S + W + 1;
  const size_t bytes = vecs * sizeof(vf) + segs * sizeof(back_state) +
                       T * 2 * S * sizeof(float) + (3 * T + 2 * S) * sizeof(double);
  if (posix_memalign(&s->block, 64, bytes) != 0) return 0;
  vf *v = s->block;
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
  } else {
    s->back = v, v += T * S;
  }
  s->backSum = v, v += T;
  s->backShift = v, v += T;
  s->a = v, v += S;
  s->aT = v, v += S;
  s->next = v, v += S;
  s->nextT = v, v += S;
  s->row = v, v += S;
  s->upper = v, v += W;
  s->cst = (back_state *)v;
  s->table = (float *)(s->cst + segs);
  s->crow = (double *)(s->table + T * 2 * S);
  s->cmax = s->crow + T;
  s->wmax = s->cmax + T;
  s->tup = s->wmax + T;
  s->tdown = s->tup + S;
  return 1;
}

/* The arguments both kernels start with: h, J, w, sums (byte offsets), B, heads, T, W, β. */
static op_shape shape_of(uint8_t *mem, const double *a) {
  op_shape o = {(int32_t)a[4], (int32_t)a[5], (int32_t)a[6], (int32_t)a[7], a[8],
                F32(mem, a[0]), F32(mem, a[1])};
  return o;
}

/*
 * transfer_forward(h, J, w, sums, B, heads, T, W, β): w = the causal weights of every problem
 * (zero past each row's keys), sums[p] = Σ α of the row, or −1 (and the row untouched) for a
 * problem left to the caller. Returns that count, or −1 when out of memory.
 */
KERNEL(transfer_forward) {
  const op_shape o = shape_of(mem, a);
  float *w = F32(mem, a[2]), *sums = F32(mem, a[3]);
  scratch s;
  if (!scratch_alloc(&s, &o, 0, 1)) return -1;
  const fp_mode mode = ftz_on();
  double left = 0;
  for (int32_t hd = 0; hd < o.heads; hd++) {
    head_table(&o, hd, &s);
    const chain_head c = {o.W, 1 << o.W, 1 << (o.W - 1), s.table};
    for (int32_t k0 = 0; k0 < o.B * o.T; k0 += VW) {
      lane_group lg;
      group_lanes(&o, hd, k0, &lg);
      group_fields(&o, hd, &lg, &s);
      chain_back(&c, &lg.g, s.back);
      chain_forward(&c, &lg.g, s.back, s.a, s.next, s.up);
      for (int32_t l = 0; l < VW && k0 + l < o.B * o.T; l++) {
        const int32_t n = lg.g.n[l];
        double total = 0;
        for (int32_t t = 0; t < n; t++) total += s.up[t][l];
        if (lg.live[l] == 0.0f || !(total >= MIN_TOTAL)) {
          sums[lg.prob[l]] = -1.0f;
          left++;
          continue;
        }
        float *row = w + lg.row[l];
        const float inv = (float)(1.0 / total);
        for (int32_t t = 0; t < n; t++) row[t] = s.up[t][l] * inv;
        memset(row + n, 0, (size_t)(o.T - n) * sizeof(float));
        sums[lg.prob[l]] = (float)total;
      }
    }
  }
  ftz_off(mode);
  free(s.block);
  return left;
}


/*
 * transfer_backward(h, J, w, sums, B, heads, T, W, β, gw, gh, gJ): gh = ∂L/∂h of every problem
 * the forward took (zero past each row's keys; other rows untouched), gJ = ∂L/∂J summed over
 * them (H × T × T, zero outside the band). Returns 0, or −1 when out of memory.
 */
KERNEL(transfer_backward) {
  const op_shape o = shape_of(mem, a);
  const float *w = F32(mem, a[2]), *sums = F32(mem, a[3]), *gw = F32(mem, a[9]);
  float *gh = F32(mem, a[10]), *gJ = F32(mem, a[11]);
  /* a[12] > 0: the segment length (tests only). */
  const int32_t K = a[12] > 0 ? (int32_t)a[12] : segment_length(o.W, o.T);
  scratch s;
  if (!scratch_alloc(&s, &o, 1, K)) return -1;
  const fp_mode mode = ftz_on();
  const int32_t T = o.T, W = o.W, S = 1 << W;
  memset(gJ, 0, (size_t)o.heads * T * T * sizeof(float));
  for (int32_t hd = 0; hd < o.heads; hd++) {
    head_table(&o, hd, &s);
    const chain_head c = {W, S, S >> 1, s.table};
    for (int32_t x = 0; x < T * W; x++) s.gacc[x] = vsplat(0.0f);
    for (int32_t k0 = 0; k0 < o.B * T; k0 += VW) {
      lane_group lg;
      group_lanes(&o, hd, k0, &lg);
      for (int32_t l = 0; l < VW; l++)
        if (!(sums[lg.prob[l]] >= 0)) lg.live[l] = 0.0f;
      group_fields(&o, hd, &lg, &s);
      group_direction(&o, &lg, w, gw, sums, &s);
      chain_back_t m = {s.backSum, s.backShift, vsplat(0.0f), vsplat(0.0f)};
      fwd_state f = {.a = s.a, .aT = s.aT, .next = s.next, .nextT = s.nextT};
      if (lg.g.nmax <= K) {
        back_whole(&c, &lg.g, s.ring, s.seg, &m);
        fwd_start(&c, &m, &f);
        vjp_segment(&c, &lg.g, &m, 0, lg.g.nmax, s.seg, lg.live, &f, s.row, s.upper, s.fg, s.gacc);
        goto group_done;
      }
      back_checkpoints(&c, &lg.g, K, s.ring, s.ck, s.cst, &m);
      fwd_start(&c, &m, &f);
      for (int32_t start = 0; start < lg.g.nmax; start += K) {
        const int32_t end = start + K < lg.g.nmax ? start + K : lg.g.nmax;
        back_segment(&c, &lg.g, start, end, s.ck, s.cst, K, s.seg);
        vjp_segment(&c, &lg.g, &m, start, end, s.seg, lg.live, &f, s.row, s.upper, s.fg, s.gacc);
      }
    group_done:
      for (int32_t l = 0; l < VW; l++) {
        if (lg.live[l] == 0.0f) continue;
        float *row = gh + lg.row[l];
        for (int32_t t = 0; t < lg.g.n[l]; t++) row[t] = s.fg[t][l];
        memset(row + lg.g.n[l], 0, (size_t)(T - lg.g.n[l]) * sizeof(float));
      }
    }
    float *gj = gJ + (size_t)hd * T * T;
    for (int32_t t = 0; t < T; t++)
      for (int32_t b = 0; b < W; b++)
        if (t - W + b >= 0) gj[(size_t)(t - W + b) * T + t] = vhsum(s.gacc[(size_t)t * W + b]);
  }
  ftz_off(mode);
  free(s.block);
  return 0;
}
