/*
 * The GEMM kernels' cases (gemm.c, gemmDot.c, transpose.c), as gemmNative.test.ts draws them:
 * gemm and gemm_narrow in both of A's layouts with random sizes, strides, batches and
 * accumulation; gemm_dot with k a multiple of 4 and not; transpose (exact); and the models'
 * products (scripts/benchEngineGemm.ts).
 * C(i, j) within (k + 2) · 2⁻²³ · (Σ_p |A(i, p) B(p, j)| + |C₀(i, j)|); outside C, exact.
 */
#include <stdio.h>

#include "isaCheck.h"

/* One product set, in floats: A(q, i, p) at a + q sa + i ars + p acs, B(q, p, j) at
 * b + q sb + p brs + j bcs, C(q, i, j) at c + q sc + i crs + j. */
typedef struct {
  uint32_t a, sa, ars, acs, b, sb, brs, bcs, c, sc, crs;
  int32_t m, n, k, batch, accum;
  const float *before;
} operands;

/* The bound at float i of C's span (0 off C: exact there). */
static double bound(const void *ctx, uint32_t i) {
  const operands *o = ctx;
  const uint32_t q = i / o->sc, r = i % o->sc, row = r / o->crs, j = r % o->crs;
  if (q >= (uint32_t)o->batch || row >= (uint32_t)o->m || j >= (uint32_t)o->n) return 0;
  const float *x = o->before;
  double sum = o->accum ? __builtin_fabs(x[o->c + i]) : 0;
  for (int32_t p = 0; p < o->k; p++)
    sum += __builtin_fabs((double)x[o->a + q * o->sa + row * o->ars + p * o->acs] *
                          x[o->b + q * o->sb + p * o->brs + j * o->bcs]);
  return (o->k + 2) * 0x1p-23 * sum + 1e-30;
}

static void out_c(const operands *o) {
  out_each("C", o->c, (uint32_t)o->batch * o->sc, 1, bound, o);
}

static void random_gemm(const char *name, int tn, uint32_t seed) {
  stream r = {seed};
  const int32_t m = next_int(&r, 1, 72), n = next_int(&r, 1, 72), k = next_int(&r, 0, 21);
  const int32_t batch = next_int(&r, 1, 3), accum = next_int(&r, 0, 1);
  const int32_t a_rows = tn ? k : m, a_cols = tn ? m : k;
  const int32_t lda = a_cols + next_int(&r, 0, 3), ldb = n + next_int(&r, 0, 3);
  const int32_t ldc = n + next_int(&r, 0, 3);
  const int32_t sa = a_rows * lda + next_int(&r, 0, 5), sb = k * ldb + next_int(&r, 0, 5);
  const int32_t sc = m * ldc + next_int(&r, 0, 5);
  const int32_t a = next_int(&r, 0, 3), b = a + batch * sa + 1, c = b + batch * sb + 2;
  operands o = {a, sa, tn ? 1 : lda, tn ? lda : 1, b, sb, ldb, 1, c, sc, ldc,
                m, n, k, batch, accum, NULL};
  const uint32_t end = c + batch * sc + 3;
  char what[96];
  snprintf(what, sizeof what, "%s_%s_%dx%dx%d_batch%d_accum%d_seed%u", name, tn ? "tn" : "nn", m,
           n, k, batch, accum, seed);
  case_begin(what);
  seeded(0, end, seed, 1);
  o.before = snapshot(end);
  const double args[] = {4 * a, 4 * o.ars, 4 * o.acs, 4 * sa, 4 * b, 4 * ldb, 4 * sb, 4 * c,
                         4 * ldc, 4 * sc, m, n, k, batch, accum};
  (name[4] == 0 ? KERNEL_OF(gemm) : KERNEL_OF(gemm_narrow))(mem, args);
  out_c(&o);
  case_end(end);
}

static void random_dot(uint32_t seed) {
  stream r = {seed};
  const int32_t m = next_int(&r, 1, 13), n = next_int(&r, 1, 19), batch = next_int(&r, 1, 3);
  const int32_t k = next_int(&r, 0, 1) == 1 ? 4 * next_int(&r, 0, 20) : next_int(&r, 0, 70);
  const int32_t accum = next_int(&r, 0, 1);
  const int32_t lda = k + next_int(&r, 0, 3), ldb = k + next_int(&r, 0, 3);
  const int32_t ldc = n + next_int(&r, 0, 3);
  const int32_t sa = m * lda + next_int(&r, 0, 5), sb = n * ldb + next_int(&r, 0, 5);
  const int32_t sc = m * ldc + next_int(&r, 0, 5);
  const int32_t a = next_int(&r, 0, 3), b = a + batch * sa + 1, c = b + batch * sb + 2;
  operands o = {a, sa, lda, 1, b, sb, 1, ldb, c, sc, ldc, m, n, k - k % 4, batch, accum, NULL};
  const uint32_t end = c + batch * sc + 3;
  char what[96];
  snprintf(what, sizeof what, "gemm_dot_%dx%dx%d_batch%d_accum%d_seed%u", m, n, k, batch, accum,
           seed);
  case_begin(what);
  seeded(0, end, seed, 1);
  o.before = snapshot(end);
  CALL(gemm_dot, 4 * a, 4 * lda, 4 * sa, 4 * b, 4 * ldb, 4 * sb, 4 * c, 4 * ldc, 4 * sc, m, n, k,
       batch, accum);
  out_c(&o);
  case_end(end);
}

static void random_transpose(uint32_t seed) {
  stream r = {seed};
  const int32_t rows = next_int(&r, 1, 40), cols = next_int(&r, 1, 40);
  const int32_t batch = next_int(&r, 1, 3), srs = cols + next_int(&r, 0, 3);
  const int32_t ss = rows * srs + next_int(&r, 0, 5), src = next_int(&r, 0, 3);
  const int32_t dst = 4 + batch * ss;
  const uint32_t end = dst + batch * rows * cols + 3;
  char what[64];
  snprintf(what, sizeof what, "transpose_%dx%d_batch%d_seed%u", rows, cols, batch, seed);
  case_begin(what);
  seeded(0, end, seed, 1);
  CALL(transpose, 4 * src, 4 * srs, 4 * ss, 4 * dst, rows, cols, batch);
  out_exact("dst", dst, batch * rows * cols);
  case_end(end);
}

/*
 * A model product C (+)= op(A)·op(B), m × n × k, `batch` of them, contiguous: nn and tn through
 * gemm; nt through gemm_dot when k is a multiple of 4, else Bᵀ by transpose into the scratch
 * after C, then gemm (as callGemm plans it).
 */
static void model(char layout, int32_t m, int32_t n, int32_t k, int32_t batch, int32_t accum) {
  const uint32_t a = 1, b = 2 + batch * m * k, c = b + batch * k * n + 1;
  const uint32_t scratch = c + batch * m * n + 1, end = scratch + batch * k * n;
  const int nt = layout == 't', tn = layout == 'T';
  operands o = {a, m * k, tn ? 1 : k, tn ? m : 1, b, k * n, nt ? 1 : n, nt ? k : 1, c, m * n, n,
                m, n, k, batch, accum, NULL};
  char what[64];
  snprintf(what, sizeof what, "model_%s_%dx%dx%d_batch%d_accum%d",
           nt ? "nt" : tn ? "tn" : "nn", m, n, k, batch, accum);
  case_begin(what);
  seeded(0, end, m + n + k, 1);
  o.before = snapshot(end);
  if (nt && k % 4 == 0) {
    CALL(gemm_dot, 4 * a, 4 * k, 4 * m * k, 4 * b, 4 * k, 4 * n * k, 4 * c, 4 * n, 4 * m * n, m,
         n, k, batch, accum);
  } else if (nt) {
    CALL(transpose, 4 * b, 4 * k, 4 * n * k, 4 * scratch, n, k, batch);
    CALL(gemm, 4 * a, 4 * k, 4, 4 * m * k, 4 * scratch, 4 * n, 4 * k * n, 4 * c, 4 * n,
         4 * m * n, m, n, k, batch, accum);
    out_exact("scratch", scratch, batch * k * n);
  } else {
    CALL(gemm, 4 * a, 4 * o.ars, 4 * o.acs, 4 * m * k, 4 * b, 4 * n, 4 * k * n, 4 * c, 4 * n,
         4 * m * n, m, n, k, batch, accum);
  }
  out_c(&o);
  case_end(end);
}

/* A linear layer rows × inp → out: forward, input gradient dY·Wᵀ, weight gradient Xᵀ·dY. */
static void linear(int32_t rows, int32_t inp, int32_t out, int32_t accum) {
  model('n', rows, out, inp, 1, accum);
  model('t', rows, inp, out, 1, !accum);
  model('T', inp, out, rows, 1, accum);
}

/* The per-head products at t tokens, head width dh, `batch` sequences × heads. */
static void heads(int32_t t, int32_t dh, int32_t batch) {
  model('t', t, t, dh, batch, 0);
  model('n', t, dh, t, batch, 1);
  model('T', t, dh, t, batch, 0);
}

void gemm_cases(void) {
  for (uint32_t s = 0; s < 40; s++)
    for (int tn = 0; tn < 2; tn++) {
      random_gemm("gemm", tn, 1000 + s);
      random_gemm("gemm_narrow", tn, 2000 + s);
    }
  for (uint32_t s = 0; s < 60; s++) {
    random_dot(3000 + s);
    random_transpose(4000 + s);
  }
  linear(768, 64, 192, 0);
  linear(768, 64, 256, 1);
  linear(768, 256, 64, 0);
  linear(768, 64, 65, 1);
  heads(12, 64, 64);
  linear(768, 128, 384, 0);
  linear(768, 128, 512, 1);
  linear(768, 512, 128, 0);
  linear(768, 128, 65, 1);
  heads(64, 32, 48);
  case_begin("fma_peak");
  out_value("flops_a_turn", CALL(fma_peak, 0), 0);
  out_value("checksum", CALL(fma_peak, 1000), 0);
  case_end(0);
}
