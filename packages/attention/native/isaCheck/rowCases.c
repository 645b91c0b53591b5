/*
 * The row kernels' cases, with the tolerances of their <op>Native.test.ts (a region's largest
 * |value|): LayerNorm (y, mean, rstd 4e-6; dγ, dβ 2e-6; dx 1e-6 of |dy γ| rstd), causal softmax
 * and sigmoid (1e-6; the backwards' of β and 2β), cross-entropy (gradient and Σ exp 1e-6; max and z_t exact), AdamW
 * (p, m, v 1e-6; sum_squares 1e-12 relative; add_into exact). The backwards read inputs made here
 * (the same on every ISA), not the forward's outputs, so each is compared on its own.
 */
#include <stdio.h>

#include "isaCheck.h"

static float max_abs(uint32_t at, uint32_t n) {
  float m = 0;
  for (uint32_t i = 0; i < n; i++) {
    const float v = __builtin_fabsf(AT(at)[i]);
    m = v > m ? v : m;
  }
  return m;
}

/* mean and rstd of each row, in double (the same on every ISA), as the backward's inputs. */
static void row_statistics(uint32_t x, uint32_t mean, uint32_t rstd, int32_t rows, int32_t cols) {
  for (int32_t i = 0; i < rows; i++) {
    double s = 0, s2 = 0;
    for (int32_t j = 0; j < cols; j++) s += AT(x)[i * cols + j];
    const double mu = s / cols;
    for (int32_t j = 0; j < cols; j++) {
      const double d = AT(x)[i * cols + j] - mu;
      s2 += d * d;
    }
    AT(mean)[i] = (float)mu;
    AT(rstd)[i] = (float)(1 / __builtin_sqrt(s2 / cols + 1e-5));
  }
}

static void layer_norm(int32_t rows, int32_t cols, int32_t has_beta) {
  const uint32_t n = rows * cols, x = 1, gamma = 3 + n, beta = 5 + n + cols, y = 7 + n + 2 * cols;
  const uint32_t mean = 9 + 2 * n + 2 * cols, rstd = mean + rows + 1, dy = mean + 2 * rows + 3;
  const uint32_t dx = dy + n + 2, dgamma = dx + n + 1, dbeta = dgamma + cols + 1;
  const uint32_t end = dbeta + cols + 3, seed = 41 * cols + rows + has_beta;
  char what[48];
  snprintf(what, sizeof what, "layer_norm_%dx%d_beta%d", rows, cols, has_beta);
  case_begin(what);
  junk(end, seed);
  seeded(x, n, seed, 3);
  for (uint32_t i = 0; i < n; i++) AT(x)[i] += (i / cols) % 2 == 0 ? 30.0f : 0.0f; /* far from 0 */
  seeded(gamma, cols, seed + 1, 2);
  seeded(beta, cols, seed + 2, 1);
  seeded(dy, n, seed + 3, 1);
  seeded(dgamma, cols, seed + 4, 1);
  seeded(dbeta, cols, seed + 5, 1);
  CALL(layer_norm, 4 * x, 4 * gamma, 4 * beta, has_beta, 4 * y, 4 * mean, 4 * rstd, rows, cols);
  out_region("y", y, n, 4e-6, 1e-30);
  out_region("mean", mean, rows, 4e-6, 1e-30);
  out_region("rstd", rstd, rows, 4e-6, 1e-30);
  row_statistics(x, mean, rstd, rows, cols);
  const double terms = (double)max_abs(dy, n) * max_abs(gamma, cols) * max_abs(rstd, rows);
  const double back[] = {4 * x, 4 * gamma, 4 * mean, 4 * rstd, 4 * dy, 4 * dx, 4 * dgamma,
                         4 * dbeta, has_beta, rows, cols};
  KERNEL_OF(layer_norm_backward)(mem, back);
  out_region("dx", dx, n, 1e-6, terms);
  out_region("dgamma", dgamma, cols, 2e-6, 1e-30);
  out_region("dbeta", dbeta, cols, 2e-6, 1e-30);
  CALL(layer_norm_backward, 4 * x, 4 * gamma, 4 * mean, 4 * rstd, 4 * dy, 4 * dy, 4 * dgamma,
       4 * dbeta, has_beta, rows, cols);
  out_region("dx_in_place", dy, n, 1e-6, terms);
  out_region("dgamma_2", dgamma, cols, 2e-6, 1e-30);
  out_region("dbeta_2", dbeta, cols, 2e-6, 1e-30);
  case_end(end);
}

static void softmax(int32_t t, int32_t blocks) {
  const uint32_t n = blocks * t * t, h = 3, w = 5 + n, gw = 7 + 2 * n, gh = 9 + 3 * n;
  const uint32_t w_in = 11 + 4 * n, end = 13 + 5 * n, seed = 97 * t + blocks;
  const double beta = 0.25 + ((t * 7) % 11) / 4.0;
  char what[48];
  snprintf(what, sizeof what, "causal_softmax_T%d_blocks%d", t, blocks);
  case_begin(what);
  junk(end, seed);
  seeded(h, n, seed, 6);
  seeded(gw, n, seed + 1, 1);
  seeded(w_in, n, seed + 4, 0.5f); /* weights in [0, 1) for the backward */
  for (uint32_t i = 0; i < n; i++) AT(w_in)[i] += 0.5f;
  CALL(causal_softmax, 4 * h, 4 * w, blocks * t, t, beta);
  out_region("w", w, n, 1e-6, 1e-30);
  CALL(causal_softmax_backward, 4 * w_in, 4 * gw, 4 * gh, blocks * t, t, beta);
  out_region("gh", gh, n, 1e-6, beta);
  CALL(causal_softmax_backward, 4 * w_in, 4 * gw, 4 * gw, blocks * t, t, beta);
  out_region("gh_in_place", gw, n, 1e-6, beta);
  case_end(end);
}

/* The sigmoid's fields as sigmoidNative.test.ts draws them: moderate, large, far below 0, and one
   query's at −1e3 (zero weights). */
static void sigmoid(int32_t t, int32_t blocks) {
  const uint32_t n = blocks * t * t, h = 3, w = 5 + n, gw = 7 + 2 * n, gh = 9 + 3 * n;
  const uint32_t w_in = 11 + 4 * n, end = 13 + 5 * n, seed = 89 * t + blocks;
  const float beta = 0.25f + ((t * 7) % 11) / 4.0f;
  char what[48];
  snprintf(what, sizeof what, "causal_sigmoid_T%d_blocks%d", t, blocks);
  case_begin(what);
  junk(end, seed);
  seeded(h, n, seed, 1);
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t kind = i / (t * t) % 3;
    const float u = AT(h)[i];
    AT(h)[i] = kind == 0 ? 6 * u : kind == 1 ? 1e3f * u : (-350 + 250 * u) / (2 * beta);
  }
  if (t > 3)
    for (int32_t j = 0; j < t; j++) AT(h)[3 * t + j] = -1e3f;
  seeded(gw, n, seed + 1, 1);
  seeded(w_in, n, seed + 4, 0.5f); /* weights in [0, 1) for the backward */
  for (uint32_t i = 0; i < n; i++) AT(w_in)[i] += 0.5f;
  CALL(causal_sigmoid, 4 * h, 4 * w, blocks * t, t, beta);
  out_region("w", w, n, 1e-6, 1e-30);
  CALL(causal_sigmoid_backward, 4 * h, 4 * w_in, 4 * gw, 4 * gh, blocks * t, t, beta);
  out_region("gh", gh, n, 1e-6, 2 * beta);
  CALL(causal_sigmoid_backward, 4 * h, 4 * w_in, 4 * gw, 4 * gw, blocks * t, t, beta);
  out_region("gh_in_place", gw, n, 1e-6, 2 * beta);
  case_end(end);
}

static void cross_entropy(int32_t classes, int32_t rows) {
  const uint32_t n = rows * classes, z = 1, targets = 3 + n, weights = 5 + n + rows;
  const uint32_t stats = 7 + n + 2 * rows, end = stats + 3 * rows + 2, seed = 31 * classes + rows;
  char what[48];
  snprintf(what, sizeof what, "cross_entropy_%dx%d", rows, classes);
  case_begin(what);
  junk(end, seed);
  seeded(z, n, seed, 8);
  seeded(targets, rows, seed + 1, 1);
  for (int32_t r = 0; r < rows; r++) {
    const int32_t t = (int32_t)((AT(targets)[r] + 1) / 2 * classes);
    ((int32_t *)AT(targets))[r] = t < classes - 1 ? t : classes - 1;
    AT(weights)[r] = r == 1 ? 0.0f : 1.0f / rows;
  }
  CALL(cross_entropy, 4 * z, rows, classes, 4 * targets, 4 * weights, 4 * stats);
  out_region("gradient", z, n, 1e-6, 1e-30);
  for (int32_t r = 0; r < rows; r++) {
    char name[32];
    snprintf(name, sizeof name, "max_%d", r);
    out_exact(name, stats + 3 * r, 1);
    snprintf(name, sizeof name, "sum_exp_%d", r);
    out_region(name, stats + 3 * r + 1, 1, 1e-6, 1e-30);
    snprintf(name, sizeof name, "z_t_%d", r);
    out_exact(name, stats + 3 * r + 2, 1);
  }
  case_end(end);
}

static void adamw(int32_t n) {
  const uint32_t p = 1, g = 3 + n, m = 5 + 2 * n, v = 7 + 3 * n, src = 9 + 4 * n;
  const uint32_t dst = 11 + 5 * n, end = 13 + 6 * n;
  char what[32];
  snprintf(what, sizeof what, "adamw_%d", n);
  case_begin(what);
  junk(end, n);
  seeded(p, n, n, 2);
  seeded(g, n, n + 1, 0.5f);
  seeded(m, n, n + 2, 0.1f);
  seeded(v, n, n + 3, 0.01f);
  for (int32_t i = 0; i < n; i++) AT(v)[i] = __builtin_fabsf(AT(v)[i]);
  seeded(src, n, n + 4, 1);
  seeded(dst, n, n + 5, 1);
  out_value("sum_squares", CALL(sum_squares, 4 * g, n), 1e-12);
  const double lr = 3e-3, b1 = 0.9, b2 = 0.99, eps = 1e-8;
  const int32_t steps[2] = {1, 7};
  const double decays[2] = {0, 0.1};
  for (int s = 0; s < 2; s++) {
    const double c1 = 1 - __builtin_pow(b1, steps[s]), c2 = 1 - __builtin_pow(b2, steps[s]);
    CALL(adamw, 4 * p, 4 * g, 4 * m, 4 * v, n, lr, b1, b2, eps, 1 - lr * decays[s], c1, c2, 0.75);
    out_region(s ? "p_step7" : "p_step1", p, n, 1e-6, 1e-30);
    out_region(s ? "m_step7" : "m_step1", m, n, 1e-6, 1e-30);
    out_region(s ? "v_step7" : "v_step1", v, n, 1e-6, 1e-30);
  }
  CALL(add_into, 4 * dst, 4 * src, n);
  out_exact("add_into", dst, n);
  case_end(end);
}

void row_cases(void) {
  static const int32_t COLS[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 48, 64, 127, 128};
  for (uint32_t c = 0; c < sizeof COLS / sizeof COLS[0]; c++)
    for (int32_t r = 0; r < 3; r++)
      for (int32_t beta = 0; beta < 2; beta++) layer_norm((int32_t[]){1, 7, 48}[r], COLS[c], beta);
  for (int32_t t = 1; t <= 20; t++)
    for (int32_t blocks = 1; blocks <= 3; blocks += 2) softmax(t == 20 ? 64 : t, blocks);
  for (int32_t t = 1; t <= 20; t++)
    for (int32_t blocks = 1; blocks <= 3; blocks += 2) sigmoid(t == 20 ? 64 : t, blocks);
  static const int32_t CLASSES[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 65, 100};
  for (uint32_t c = 0; c < sizeof CLASSES / sizeof CLASSES[0]; c++)
    for (int32_t r = 0; r < 3; r++) cross_entropy(CLASSES[c], (int32_t[]){1, 5, 24}[r]);
  static const int32_t SIZES[] = {1, 3, 4, 5, 8, 12, 16, 20, 28, 36, 64, 68, 132, 4100};
  for (uint32_t s = 0; s < sizeof SIZES / sizeof SIZES[0]; s++) adamw(SIZES[s]);
}
