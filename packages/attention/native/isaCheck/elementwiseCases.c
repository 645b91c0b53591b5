/*
 * The element-wise kernels' cases (elementwise.c), as elementwiseNative.test.ts draws them: GELU
 * forward and backward (8 float32 ulps of |u|, 1, |dy|, |db₀| + Σ |dx|: FMA-contracted on NEON as
 * on AVX2), the residual with a mask (8 ulps of |x| + |y·m|); copies, sums and lone products
 * exact: the residual without a mask, masked, scale, column_sums, bias_rows, embed and its backward.
 */
#include <stdio.h>

#include "isaCheck.h"

#define ULPS (8 * 0x1p-23)

static const int32_t SHAPES[][2] = {{1, 1},  {2, 2},  {3, 3},  {4, 4},  {1, 5},  {2, 6},
                                    {3, 7},  {4, 8},  {1, 9},  {2, 10}, {3, 11}, {4, 12},
                                    {1, 13}, {2, 14}, {3, 15}, {4, 16}, {1, 17}, {2, 18},
                                    {3, 19}, {2, 31}, {3, 33}, {2, 63}, {768, 256}, {768, 512}};
#define SHAPE_COUNT (sizeof SHAPES / sizeof SHAPES[0])

/* The float offsets of a GELU case: odd, so rows start off any vector alignment. */
typedef struct {
  uint32_t n, cols, x, b, y, cdf, dy, dx, db, end;
  const float *before;
} gelu_layout;

static gelu_layout layout_of(int32_t rows, int32_t cols) {
  gelu_layout l = {.n = rows * cols, .cols = cols, .x = 3};
  l.b = l.x + l.n + 2;
  l.y = l.b + cols + 1;
  l.cdf = l.y + l.n + 3;
  l.dy = l.cdf + l.n + 1;
  l.dx = l.dy + l.n + 5;
  l.db = l.dx + l.n + 1;
  l.end = l.db + cols + 7;
  return l;
}

static double abs_u(const void *ctx, uint32_t i) {
  const gelu_layout *l = ctx;
  return __builtin_fabs(l->before[l->x + i] + l->before[l->b + i % l->cols]);
}
static double one(const void *ctx, uint32_t i) { return (void)ctx, (void)i, 1; }
static double abs_dy(const void *ctx, uint32_t i) {
  const gelu_layout *l = ctx;
  return __builtin_fabs(l->before[l->dy + i]);
}
/* |db₀(j)| + Σ_rows |dx(·, j)|, dx read where the call wrote it (l->y holds its offset here). */
static double db_scale(const void *ctx, uint32_t j) {
  const gelu_layout *l = ctx;
  double s = __builtin_fabs(l->before[l->db + j]);
  for (uint32_t i = j; i < l->n; i += l->cols) s += __builtin_fabs(AT(l->y)[i]);
  return s;
}

static void gelu_forward(int32_t rows, int32_t cols) {
  gelu_layout l = layout_of(rows, cols);
  const uint32_t seed = 31 * rows + cols;
  char what[48];
  snprintf(what, sizeof what, "bias_gelu_%dx%d", rows, cols);
  case_begin(what);
  junk(l.end, seed);
  seeded(l.x, l.n, seed + 1, 8); /* |x + b| to 9: past erf's clamp and exp's underflow */
  seeded(l.b, cols, seed + 2, 1);
  l.before = snapshot(l.end);
  CALL(bias_gelu, 4 * l.x, 4 * l.b, 4 * l.y, 0, rows, cols);
  out_each("y", l.y, l.n, ULPS, abs_u, &l);
  CALL(bias_gelu_save, 4 * l.x, 4 * l.b, 4 * l.y, 4 * l.cdf, rows, cols);
  out_each("y_saving", l.y, l.n, ULPS, abs_u, &l);
  out_each("cdf", l.cdf, l.n, ULPS, one, NULL);
  CALL(bias_gelu, 4 * l.x, 4 * l.b, 4 * l.x, 0, rows, cols);
  out_each("y_in_place", l.x, l.n, ULPS, abs_u, &l);
  case_end(l.end);
}

static void gelu_backward(int32_t rows, int32_t cols) {
  gelu_layout l = layout_of(rows, cols);
  const uint32_t seed = 37 * rows + cols;
  char what[48];
  snprintf(what, sizeof what, "bias_gelu_backward_%dx%d", rows, cols);
  case_begin(what);
  junk(l.end, seed);
  seeded(l.x, l.n, seed + 1, 8);
  seeded(l.b, cols, seed + 2, 1);
  seeded(l.dy, l.n, seed + 3, 1);
  seeded(l.db, cols, seed + 4, 1);
  seeded(l.cdf, l.n, seed + 5, 0.5f); /* Φ as data, the same on every ISA: Φ − ½ in [−½, ½) */
  for (uint32_t i = 0; i < l.n; i++) AT(l.cdf)[i] += 0.5f;
  l.before = snapshot(l.end);
  const uint32_t dxs[2] = {l.dx, l.dy};
  for (int saved = 0; saved < 2; saved++)
    for (int d = 0; d < 2; d++) {
      const uint32_t dx = dxs[d];
      const double args[] = {4 * l.x, 4 * l.b, 4 * l.cdf, 4 * l.dy, 4 * dx, 4 * l.db, rows, cols};
      (saved ? KERNEL_OF(bias_gelu_backward_saved) : KERNEL_OF(bias_gelu_backward))(mem, args);
      gelu_layout at_dx = l;
      at_dx.y = dx;
      out_each(d ? (saved ? "dx_saved_in_place" : "dx_in_place") : (saved ? "dx_saved" : "dx"), dx,
               l.n, ULPS, abs_dy, &l);
      out_each(saved ? (d ? "db_saved_2" : "db_saved_1") : (d ? "db_2" : "db_1"), l.db, cols, ULPS,
               db_scale, &at_dx);
      /* Back to the inputs before the next call. */
      for (uint32_t i = 0; i < l.n; i++) AT(l.dy)[i] = l.before[l.dy + i];
      for (uint32_t j = 0; j < l.cols; j++) AT(l.db)[j] = l.before[l.db + j];
    }
  case_end(l.end);
}

typedef struct {
  uint32_t x, y, mask, twice;
  const float *before;
} residual_case;

/* |x| + |y·m| (+ |x| once more after the second residual in place). */
static double residual_scale(const void *ctx, uint32_t i) {
  const residual_case *r = ctx;
  const float *v = r->before;
  const double x = __builtin_fabs(v[r->x + i]), ym = __builtin_fabs(v[r->y + i] * v[r->mask + i]);
  return x * (1 + r->twice) + ym;
}

static void residual(uint32_t n) {
  const uint32_t x = 1, y = n + 4, mask = 2 * n + 7, out = 3 * n + 9, end = 4 * n + 16;
  char what[48];
  snprintf(what, sizeof what, "residual_masked_%u", n);
  case_begin(what);
  junk(end, n);
  seeded(x, n, n + 1, 4);
  seeded(y, n, n + 2, 4);
  seeded(mask, n, n + 3, 1);
  if (n < 100) /* a dropout mask: 0 or 1/(1 − p) */
    for (uint32_t i = 0; i < n; i++) AT(mask)[i] = AT(mask)[i] < -0.5f ? 0.0f : 1.25f;
  residual_case r = {x, y, mask, 0, snapshot(end)}, twice = r;
  twice.twice = 1;
  CALL(residual, 4 * x, 4 * y, 4 * mask, 4 * out, n, 1);
  out_each("masked_residual", out, n, ULPS, residual_scale, &r);
  CALL(residual, 4 * x, 4 * y, 0, 4 * out, n, 0);
  out_exact("residual", out, n);
  CALL(masked, 4 * x, 4 * mask, 4 * out, n);
  out_exact("masked", out, n);
  CALL(scale, 4 * x, 4 * out, n, 0.17677669529663687); /* 1/√32 */
  out_exact("scale", out, n);
  CALL(scale, 4 * out, 4 * out, n, -3.0);
  out_exact("scale_in_place", out, n);
  CALL(residual, 4 * x, 4 * y, 4 * mask, 4 * y, n, 1);
  CALL(residual, 4 * x, 4 * y, 0, 4 * x, n, 0);
  out_each("masked_residual_in_place", y, n, ULPS, residual_scale, &r);
  out_each("residual_in_place", x, n, ULPS, residual_scale, &twice);
  case_end(end);
}

static void column_sums(int32_t rows, int32_t cols) {
  const uint32_t n = rows * cols, src = 5, dst = n + 6, b = n + cols + 8, y = n + 2 * cols + 9;
  const uint32_t end = 2 * n + 2 * cols + 12;
  char what[48];
  snprintf(what, sizeof what, "column_sums_%dx%d", rows, cols);
  case_begin(what);
  junk(end, n + cols);
  seeded(src, n, rows + 1, 2);
  seeded(dst, cols, cols + 2, 2);
  seeded(b, cols, cols + 3, 2);
  CALL(column_sums, 4 * src, rows, cols, 4 * dst);
  CALL(bias_rows, 4 * b, 4 * y, rows, cols);
  out_exact("dst", dst, cols);
  out_exact("bias_rows", y, n);
  case_end(end);
}

static void embed(uint32_t count, uint32_t length, uint32_t d, uint32_t vocab) {
  const uint32_t tokens = 3, table = tokens + count + 2, positions = table + vocab * d + 1;
  const uint32_t x = positions + length * d + 3, end = x + count * d + 5, seed = 41 * count + d;
  char what[64];
  snprintf(what, sizeof what, "embed_%ux%ux%ux%u", count, length, d, vocab);
  case_begin(what);
  junk(end, seed);
  seeded(tokens, count, seed + 1, 1);
  for (uint32_t i = 0; i < count; i++) {
    const int32_t id = (int32_t)((AT(tokens)[i] + 1) / 2 * vocab);
    ((int32_t *)AT(tokens))[i] = id < (int32_t)vocab - 1 ? id : (int32_t)vocab - 1;
  }
  seeded(table, vocab * d, seed + 2, 1);
  seeded(positions, length * d, seed + 3, 1);
  for (int has = 1; has >= 0; has--) {
    CALL(embed, 4 * tokens, 4 * table, 4 * positions, 4 * x, count, length, d, has);
    out_exact(has ? "x_positions" : "x", x, count * d);
    CALL(embed_backward, 4 * tokens, 4 * x, 4 * table, 4 * positions, count, length, d, has);
    out_exact(has ? "dtable_positions" : "dtable", table, vocab * d);
    out_exact(has ? "dpositions_positions" : "dpositions", positions, length * d);
  }
  case_end(end);
}

void elementwise_cases(void) {
  for (uint32_t s = 0; s < SHAPE_COUNT; s++) {
    gelu_forward(SHAPES[s][0], SHAPES[s][1]);
    gelu_backward(SHAPES[s][0], SHAPES[s][1]);
    column_sums(SHAPES[s][0], SHAPES[s][1]);
  }
  for (uint32_t n = 1; n <= 19; n++) residual(n);
  static const uint32_t COUNTS[] = {31, 33, 63, 768 * 64, 768 * 128};
  for (uint32_t c = 0; c < 5; c++) residual(COUNTS[c]);
  for (uint32_t i = 0; i < 19; i++) embed(2 + i % 9, 1 + i % 4, i + 1, 1 + i % 5);
  embed(7, 3, 33, 4);
  embed(5, 5, 63, 2);
  embed(768, 12, 64, 65);
  embed(768, 64, 128, 65);
}
