/*
 * gemm_dot, the engine's native kernel for C (+)= A·Bᵀ as dot products of contiguous rows (the
 * narrow per-head products), one source for every vector width (native/vec.h). It mirrors
 * gemm.wat's export of the same name and parameters (gemmDotWat.mjs writes that text).
 */
#include "floatBytes.h"
#include "kernels.h"
#include "vec.h"

/* Rows of A a block takes, each against four rows of B (within the ISA's vector registers). */
#if VW == 16
#define DOT_ROWS 4
#else
#define DOT_ROWS 2
#endif

/* Four float lanes: the dot products' partial sums are folded to this width, as the WAT's are. */
typedef float v4 __attribute__((vector_size(4 * sizeof(float))));

INLINE v4 load4(const uint8_t *p) {
  v4 x;
  memcpy(&x, p, sizeof x);
  return x;
}

/* The VW lanes of x folded to four (lane l: the sum of lanes l, l + 4, ...). */
INLINE v4 fold4(vf x) {
  v4 part[VW / 4];
  memcpy(part, &x, sizeof part);
  v4 s = part[0];
#pragma GCC unroll 4
  for (int q = 1; q < VW / 4; q++) s += part[q];
  return s;
}

/* [Σ x0, Σ x1, Σ x2, Σ x3]: the lane sums of four vectors in one (gemmDotWat.mjs's laneSums). */
INLINE v4 lane_sums(v4 x0, v4 x1, v4 x2, v4 x3) {
  const v4 s01 = __builtin_shufflevector(x0, x1, 0, 4, 1, 5) + __builtin_shufflevector(x0, x1, 2, 6, 3, 7);
  const v4 s23 = __builtin_shufflevector(x2, x3, 0, 4, 1, 5) + __builtin_shufflevector(x2, x3, 2, 6, 3, 7);
  return __builtin_shufflevector(s01, s23, 0, 1, 4, 5) + __builtin_shufflevector(s01, s23, 2, 3, 6, 7);
}

/* Pairs of vectors into one: each chunk of 2h lanes (one sum's partials) halved, x's then y's. */
#define HALVE(x, y, ...) (__builtin_shufflevector(x, y, __VA_ARGS__))
#if VW == 16
#define LEVELS(v)                                                                                  \
  LEVEL(v, 8, HALVE(x, y, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23),                 \
        HALVE(x, y, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31))                 \
  LEVEL(v, 4, HALVE(x, y, 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27),               \
        HALVE(x, y, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31))                   \
  LEVEL(v, 2, HALVE(x, y, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29),               \
        HALVE(x, y, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31))                   \
  LEVEL(v, 1, HALVE(x, y, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30),              \
        HALVE(x, y, 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31))
static const int BIT_REVERSED[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
#elif VW == 8
#define LEVELS(v)                                                                                  \
  LEVEL(v, 4, HALVE(x, y, 0, 1, 2, 3, 8, 9, 10, 11), HALVE(x, y, 4, 5, 6, 7, 12, 13, 14, 15))      \
  LEVEL(v, 2, HALVE(x, y, 0, 1, 8, 9, 4, 5, 12, 13), HALVE(x, y, 2, 3, 10, 11, 6, 7, 14, 15))      \
  LEVEL(v, 1, HALVE(x, y, 0, 8, 2, 10, 4, 12, 6, 14), HALVE(x, y, 1, 9, 3, 11, 5, 13, 7, 15))
static const int BIT_REVERSED[8] = {0, 4, 2, 6, 1, 5, 3, 7};
#else
#define LEVELS(v)                                                                                  \
  LEVEL(v, 2, HALVE(x, y, 0, 1, 4, 5), HALVE(x, y, 2, 3, 6, 7))                                    \
  LEVEL(v, 1, HALVE(x, y, 0, 4, 2, 6), HALVE(x, y, 1, 5, 3, 7))
static const int BIT_REVERSED[4] = {0, 2, 1, 3};
#endif
/* One level of the tree: v[2q] and v[2q + 1] (chunks of 2h partials) into v[q] (chunks of h). */
#define LEVEL(v, h, lo, hi)                                                                        \
  _Pragma("GCC unroll 8") for (int q = 0; q < h; q++) { /* 2h vectors of VW / 2h sums each */    \
    const vf x = v[2 * q], y = v[2 * q + 1];                                                       \
    v[q] = lo + hi;                                                                                \
  }

/*
 * The VW sums of VW vectors in one vector, by a tree of log2(VW) levels (VW − 1 pairings of two
 * shuffles and an add, where folding each to four lanes and lane_sums spend about twice that):
 * lane L holds Σ v[BIT_REVERSED[L]]. v is overwritten.
 */
INLINE vf tree_sums(vf *v) {
  LEVELS(v)
  return v[0];
}

/* One product of `gemm_dot`: A's row i at a + i·ars, B's row j at b + j·brs, C(i, j) at c + i·crs + 4j. */
typedef struct {
  const uint8_t *a;
  intptr_t ars;
  const uint8_t *b;
  intptr_t brs;
  uint8_t *c;
  intptr_t crs;
  int32_t k4; /* k rounded down to a multiple of 4: the WAT loop runs k >> 2 steps of four */
  int accum;
} dot_op;

/*
 * Stores the VW / 4 × 4 block of sums of `acc` at (i, j) (a row's four in a quarter of the tree's
 * vector: output L = 4 r + c goes in at position BIT_REVERSED[L], which is where L comes out).
 */
INLINE void dot_store_tree(const dot_op *o, int32_t i, int32_t j, vf acc[][4]) {
  vf v[VW];
#pragma GCC unroll 16
  for (int q = 0; q < VW; q++) v[q] = acc[BIT_REVERSED[q] / 4][BIT_REVERSED[q] % 4];
  float lanes[VW];
  vstore(lanes, tree_sums(v));
#pragma GCC unroll 4
  for (int r = 0; r < VW / 4; r++) {
    uint8_t *cp = o->c + (intptr_t)(i + r) * o->crs + 4 * (intptr_t)j;
    v4 y = load4((const uint8_t *)(lanes + 4 * r));
    if (o->accum) y += load4(cp);
    memcpy(cp, &y, sizeof y);
  }
}

/*
 * The rows × cols block of C at (i, j) (cols 4 or 1): rows·cols dot products over k4, VW lanes at
 * a time, then the last k4 mod VW four at a time, folded to four lanes and summed.
 */
INLINE void dot_block(const dot_op *o, int32_t i, int32_t j, int rows, int cols) {
  const uint8_t *ap = o->a + (intptr_t)i * o->ars, *bp = o->b + (intptr_t)j * o->brs;
  vf acc[DOT_ROWS][4];
  v4 sum[DOT_ROWS][4];
#pragma GCC unroll 4
  for (int r = 0; r < rows; r++)
#pragma GCC unroll 4
    for (int c = 0; c < cols; c++) acc[r][c] = vsplat(0.0f);
  int32_t p = 0;
  for (; p + VW <= o->k4; p += VW) {
    vf x[DOT_ROWS];
#pragma GCC unroll 4
    for (int r = 0; r < rows; r++) x[r] = vload((const float *)(ap + r * o->ars + 4 * p));
#pragma GCC unroll 4
    for (int c = 0; c < cols; c++) {
      const vf y = vload((const float *)(bp + c * o->brs + 4 * p));
#pragma GCC unroll 4
      for (int r = 0; r < rows; r++) acc[r][c] = x[r] * y + acc[r][c];
    }
  }
  if (cols == 4 && rows * 4 == VW && p == o->k4) {
    dot_store_tree(o, i, j, acc);
    return;
  }
#pragma GCC unroll 4
  for (int r = 0; r < rows; r++)
#pragma GCC unroll 4
    for (int c = 0; c < cols; c++) sum[r][c] = fold4(acc[r][c]);
  for (; p < o->k4; p += 4)
#pragma GCC unroll 4
    for (int r = 0; r < rows; r++)
#pragma GCC unroll 4
      for (int c = 0; c < cols; c++)
        sum[r][c] = load4(ap + r * o->ars + 4 * p) * load4(bp + c * o->brs + 4 * p) + sum[r][c];
#pragma GCC unroll 4
  for (int r = 0; r < rows; r++) {
    uint8_t *cp = o->c + (intptr_t)(i + r) * o->crs + 4 * (intptr_t)j;
    if (cols == 4) {
      v4 y = lane_sums(sum[r][0], sum[r][1], sum[r][2], sum[r][3]);
      if (o->accum) y += load4(cp);
      memcpy(cp, &y, sizeof y);
    } else {
      const v4 s = sum[r][0];
      const float z = (s[0] + s[1]) + (s[2] + s[3]);
      store1(cp, o->accum ? z + load1(cp) : z);
    }
  }
}

/* A band of `rows` rows at i: blocks of four columns while they fit, then single columns. */
INLINE void dot_band(const dot_op *o, int32_t i, int32_t n, int rows) {
  int32_t j = 0;
  for (; j + 4 <= n; j += 4) dot_block(o, i, j, rows, 4);
  for (; j < n; j++) dot_block(o, i, j, rows, 1);
}

/*
 * gemm_dot(a, ars, sa, b, brs, sb, c, crs, sc, m, n, k, batch, accum): `batch` products
 * C (+)= A·Bᵀ, A m × k and B n × k with contiguous rows; only the first k - k mod 4 steps count,
 * as in the WAT kernel (the wrapper calls it with k a multiple of 4).
 */
KERNEL(gemm_dot) {
  dot_op o = {.ars = (int32_t)a[1], .brs = (int32_t)a[4], .crs = (int32_t)a[7],
              .k4 = (int32_t)a[11] & ~3, .accum = (int32_t)a[13] != 0};
  const int32_t m = (int32_t)a[9], n = (int32_t)a[10], batch = (int32_t)a[12];
  for (int32_t q = 0; q < batch; q++) {
    o.a = mem + (uint32_t)a[0] + (uint32_t)q * (uint32_t)a[2];
    o.b = mem + (uint32_t)a[3] + (uint32_t)q * (uint32_t)a[5];
    o.c = mem + (uint32_t)a[6] + (uint32_t)q * (uint32_t)a[8];
    int32_t i = 0;
    for (; i + DOT_ROWS <= m; i += DOT_ROWS) dot_band(&o, i, n, DOT_ROWS);
    for (; i < m; i++) dot_band(&o, i, n, 1);
  }
  return 0;
}
