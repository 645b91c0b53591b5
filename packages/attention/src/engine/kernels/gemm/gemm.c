/*
 * The engine's native GEMM kernels, one source for every vector width (native/vec.h): they mirror
 * gemm.wat's exports of the same names and parameters (gemmWat.mjs, gemmDotWat.mjs write that
 * text; src/engine/gemm.ts and gemmShape.ts plan the calls), plus fma_peak, the roofline's kernel.
 *
 * gemm / gemm_narrow: C(i, j) (+)= Σ_p A(i, p) · B(p, j) for `batch` products, A read through two
 * byte strides (so A and Aᵀ are one kernel), B's rows contiguous in j, C row-major. A MR × (NV·VW)
 * tile of C lives in MR·NV vector accumulators; each step of p loads NV vectors of B and MR splats
 * of A and does MR·NV multiply-adds (`acc + s * b`, one FMA with -ffp-contract=fast where the ISA
 * has it). Edges: narrower tiles of NV/2 and 1 vectors, bands of fewer rows, and the last n mod VW
 * columns in a pass of their own: through a zero-padded copy of B's last columns, or, for Aᵀ·B
 * (A's rows adjacent), by vectors along i; so every size is served. Both exports are this one
 * kernel (the WAT module has two tile shapes; here the edges pick them).
 *
 * gemm_dot: C (+)= A·Bᵀ as dot products of contiguous rows (the narrow per-head products);
 * transpose: dst = srcᵀ per product, for A·Bᵀ through `gemm`.
 */
#include <stdlib.h>

#include "kernels.h"
#include "vec.h"

/* Micro-tile: MR rows × NV vectors of accumulators, within the ISA's vector registers. */
#if VW == 16
#define MR 6 /* 24 accumulators + 4 of B + a splat of 32 zmm registers */
#define NV 4
#define PEAK_CHAINS 24
#define DOT_ROWS 4
#else
#define MR 6 /* 12 accumulators + 2 of B + a splat (+ a product without FMA) of 16 registers */
#define NV 2
#define PEAK_CHAINS 12
#define DOT_ROWS 2
#endif

/*
 * Rows of the tiles of the last n mod VW columns (one vector of accumulators a row): 12 chains of
 * multiply-adds hide the FMA latency better than 6 (768 × 65 × 64 on AVX-512: 164–165 GFLOP/s
 * against 146–160, on a noisy machine).
 */
#define PAD_ROWS 12
#define ACC_ROWS (PAD_ROWS > MR ? PAD_ROWS : MR)

#define INLINE static inline __attribute__((always_inline))

/* A float at a byte address (the WAT kernels' f32.load: any alignment). */
INLINE float load1(const uint8_t *p) {
  float x;
  memcpy(&x, p, sizeof x);
  return x;
}
INLINE void store1(uint8_t *p, float x) { memcpy(p, &x, sizeof x); }

/* One product of `gemm`: A(i, p) at a + i·ars + p·acs, B(p, j) at b + p·brs + 4j, C at c + i·crs + 4j. */
typedef struct {
  const uint8_t *a;
  intptr_t ars, acs;
  const uint8_t *b;
  intptr_t brs;
  uint8_t *c;
  intptr_t crs;
  int32_t k;
  int accum;
} gemm_op;

/*
 * The rows × vecs tile of C at (i, j), B read from `bp` (its column j) with row stride `brs`; the
 * first `cols` columns are stored (vecs·VW, or fewer for the padded last columns). rows and vecs
 * are constants where it is inlined, so the accumulators stay in registers.
 */
INLINE void tile(const gemm_op *o, int32_t i, int32_t j, const uint8_t *bp, intptr_t brs,
                 int rows, int vecs, int32_t cols) {
  vf acc[ACC_ROWS][NV];
#pragma GCC unroll 12
  for (int r = 0; r < ACC_ROWS; r++)
#pragma GCC unroll 8
    for (int v = 0; v < NV; v++) acc[r][v] = vsplat(0.0f); /* those past rows × vecs go unused */
  const uint8_t *ap = o->a + (intptr_t)i * o->ars;
  for (int32_t p = 0; p < o->k; p++) {
    vf b[NV];
#pragma GCC unroll 8
    for (int v = 0; v < vecs; v++) b[v] = vload((const float *)(bp + 4 * VW * v));
#pragma GCC unroll 12
    for (int r = 0; r < rows; r++) {
      const vf s = vsplat(load1(ap + r * o->ars));
#pragma GCC unroll 8
      for (int v = 0; v < vecs; v++) acc[r][v] = s * b[v] + acc[r][v];
    }
    ap += o->acs;
    bp += brs;
  }
#pragma GCC unroll 12
  for (int r = 0; r < rows; r++) {
    uint8_t *cp = o->c + (intptr_t)(i + r) * o->crs + 4 * (intptr_t)j;
    if (cols == vecs * VW) {
#pragma GCC unroll 8
      for (int v = 0; v < vecs; v++) {
        float *at = (float *)(cp + 4 * VW * v);
        vstore(at, o->accum ? acc[r][v] + vload(at) : acc[r][v]);
      }
    } else {
      float lanes[VW];
      vstore(lanes, acc[r][0]);
      for (int32_t q = 0; q < cols; q++)
        store1(cp + 4 * q, o->accum ? lanes[q] + load1(cp + 4 * q) : lanes[q]);
    }
  }
}

/* One band of `rows` rows at i over n columns (a multiple of VW): tiles of NV vectors, NV/2, 1. */
INLINE void band(const gemm_op *o, int32_t i, int32_t n, int rows) {
  int32_t j = 0;
  for (; j + NV * VW <= n; j += NV * VW) tile(o, i, j, o->b + 4 * (intptr_t)j, o->brs, rows, NV, NV * VW);
#if NV >= 4
  for (; j + 2 * VW <= n; j += 2 * VW) tile(o, i, j, o->b + 4 * (intptr_t)j, o->brs, rows, 2, 2 * VW);
#endif
  for (; j + VW <= n; j += VW) tile(o, i, j, o->b + 4 * (intptr_t)j, o->brs, rows, 1, VW);
}

/* Bands of MR rows, then one band of the m mod MR rows left (a constant row count each). */
static void bands(const gemm_op *o, int32_t m, int32_t n) {
  int32_t i = 0;
  for (; i + MR <= m; i += MR) band(o, i, n, MR);
  switch (m - i) {
#if MR > 5
    case 5: band(o, i, n, 5); break;
#endif
    case 4: band(o, i, n, 4); break;
    case 3: band(o, i, n, 3); break;
    case 2: band(o, i, n, 2); break;
    case 1: band(o, i, n, 1); break;
    default: break;
  }
}

/* The tile of `rows` rows at i of the last columns j0..n-1, read from `pad`. */
INLINE void pad_tile(const gemm_op *o, int32_t i, int32_t j0, int32_t n, const float *pad, int rows) {
  tile(o, i, j0, (const uint8_t *)pad, 4 * VW, rows, 1, n - j0);
}

/*
 * The last columns j0..n-1 (fewer than VW) of every row, from `pad` (B's last columns, zero-padded
 * to VW, VW floats a row): tiles of PAD_ROWS rows, then 6 and the rest.
 */
static void pad_bands(const gemm_op *o, int32_t m, int32_t j0, int32_t n, const float *pad) {
  int32_t i = 0;
  for (; i + PAD_ROWS <= m; i += PAD_ROWS) pad_tile(o, i, j0, n, pad, PAD_ROWS);
  if (i + 6 <= m) {
    pad_tile(o, i, j0, n, pad, 6);
    i += 6;
  }
  switch (m - i) {
    case 5: pad_tile(o, i, j0, n, pad, 5); break;
    case 4: pad_tile(o, i, j0, n, pad, 4); break;
    case 3: pad_tile(o, i, j0, n, pad, 3); break;
    case 2: pad_tile(o, i, j0, n, pad, 2); break;
    case 1: pad_tile(o, i, j0, n, pad, 1); break;
    default: break;
  }
}

/*
 * This thread's buffer for the padded last columns of B, grown as needed (k · VW floats); NULL
 * when it cannot grow, or always while the addon's test switch says so (kernels.h).
 */
static float *pad_buffer(int32_t k) {
  static __thread float *buffer;
  static __thread size_t capacity;
  if (__atomic_load_n(&boltzmann_fail_pad_allocations, __ATOMIC_RELAXED)) return NULL;
  const size_t need = (size_t)(k > 0 ? k : 1) * VW;
  if (need > capacity) {
    float *grown = realloc(buffer, need * sizeof(float));
    if (grown == NULL) return NULL;
    buffer = grown;
    capacity = need;
  }
  return buffer;
}

/* Copies B's columns j0..n-1 (fewer than VW) of every row p < k into `pad`, zeros after them. */
static void pad_columns(const gemm_op *o, int32_t j0, int32_t n, float *pad) {
  for (int32_t p = 0; p < o->k; p++) {
    float *row = pad + (size_t)p * VW;
    for (int q = 0; q < VW; q++)
      row[q] = j0 + q < n ? load1(o->b + (intptr_t)p * o->brs + 4 * (intptr_t)(j0 + q)) : 0.0f;
  }
}

/*
 * C(i, j) (+)= Σ_p A(i, p) B(p, j), one float at a time: the rows past the last vector of
 * adjacent_rows_tail, and the last columns when no buffer could be had for their padded copy.
 */
static void scalar_entry(const gemm_op *o, int32_t i, int32_t j) {
  float x = 0.0f;
  for (int32_t p = 0; p < o->k; p++)
    x = load1(o->a + (intptr_t)i * o->ars + (intptr_t)p * o->acs) *
            load1(o->b + (intptr_t)p * o->brs + 4 * (intptr_t)j) +
        x;
  uint8_t *at = o->c + (intptr_t)i * o->crs + 4 * (intptr_t)j;
  store1(at, o->accum ? x + load1(at) : x);
}

/*
 * Column j of C on rows i.. (vecs · VW of them) when A's rows are adjacent floats (ars = 4):
 * vecs vectors of A's column p times B(p, j) in every lane, at each step of p.
 */
INLINE void column_rows(const gemm_op *o, int32_t i, int32_t j, int vecs) {
  vf acc[4];
#pragma GCC unroll 4
  for (int v = 0; v < 4; v++) acc[v] = vsplat(0.0f);
  const uint8_t *ap = o->a + 4 * (intptr_t)i, *bp = o->b + 4 * (intptr_t)j;
  for (int32_t p = 0; p < o->k; p++) {
    const vf s = vsplat(load1(bp));
#pragma GCC unroll 4
    for (int v = 0; v < vecs; v++) acc[v] = vload((const float *)(ap + 4 * VW * v)) * s + acc[v];
    ap += o->acs;
    bp += o->brs;
  }
  float lanes[4 * VW];
  memcpy(lanes, acc, sizeof lanes);
  for (int l = 0; l < vecs * VW; l++) {
    uint8_t *at = o->c + (intptr_t)(i + l) * o->crs + 4 * (intptr_t)j;
    store1(at, o->accum ? lanes[l] + load1(at) : lanes[l]);
  }
}

/*
 * The last columns j0..n-1 (fewer than VW) when A's rows are adjacent floats (ars = 4: Aᵀ·B, the
 * weight gradients): vectors along i rather than j, so a step of p is one multiply-add per VW rows
 * (the padded tiles spend one a row); rows past the last vector one by one.
 */
static void adjacent_rows_tail(const gemm_op *o, int32_t m, int32_t j0, int32_t n) {
  for (int32_t j = j0; j < n; j++) {
    int32_t i = 0;
    for (; i + 4 * VW <= m; i += 4 * VW) column_rows(o, i, j, 4);
    for (; i + VW <= m; i += VW) column_rows(o, i, j, 1);
    for (; i < m; i++) scalar_entry(o, i, j);
  }
}

/*
 * gemm(a, ars, acs, sa, b, brs, sb, c, crs, sc, m, n, k, batch, accum): byte offsets and strides,
 * `batch` products each advanced by sa, sb, sc bytes; accum adds the product to C.
 */
static double gemm_any(uint8_t *mem, const double *a) {
  gemm_op o = {.ars = (int32_t)a[1], .acs = (int32_t)a[2], .brs = (int32_t)a[5],
               .crs = (int32_t)a[8], .k = (int32_t)a[12], .accum = (int32_t)a[14] != 0};
  const int32_t m = (int32_t)a[10], n = (int32_t)a[11], batch = (int32_t)a[13];
  const int32_t tail = n - n % VW;
  const int adjacent = o.ars == 4; /* Aᵀ·B: the last columns by adjacent_rows_tail */
  const int padded = tail < n && m > 0 && !adjacent;
  /* Without memory for k · VW floats the last columns go one float at a time (slow, but right). */
  float *pad = padded ? pad_buffer(o.k) : NULL;
  for (int32_t q = 0; q < batch; q++) {
    o.a = mem + (uint32_t)a[0] + (uint32_t)q * (uint32_t)a[3];
    o.b = mem + (uint32_t)a[4] + (uint32_t)q * (uint32_t)a[6];
    o.c = mem + (uint32_t)a[7] + (uint32_t)q * (uint32_t)a[9];
    bands(&o, m, tail);
    if (adjacent) adjacent_rows_tail(&o, m, tail, n);
    if (pad != NULL) {
      pad_columns(&o, tail, n, pad);
      pad_bands(&o, m, tail, n, pad);
    } else if (padded) {
      __atomic_fetch_add(&boltzmann_pad_fallbacks, 1, __ATOMIC_RELAXED);
      for (int32_t i = 0; i < m; i++)
        for (int32_t j = tail; j < n; j++) scalar_entry(&o, i, j);
    }
  }
  return 0;
}

KERNEL(gemm) { return gemm_any(mem, a); }
KERNEL(gemm_narrow) { return gemm_any(mem, a); }

/* ---- gemm_dot ---------------------------------------------------------------------------- */

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

/* One product of `gemm_dot`: A's row i at a + i·ars, B's row j at b + j·brs, C as in gemm_op. */
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

/* ---- transpose --------------------------------------------------------------------------- */

/* Eight float lanes, whatever the ISA's width (two SSE/NEON registers, one AVX register). */
typedef float v8 __attribute__((vector_size(8 * sizeof(float))));

/*
 * The 8 × 8 block at src (row stride srs bytes) transposed to dst (row stride drs bytes): three
 * rounds of shuffles, pairs of rows, then of pairs, then of quads (the unpack/shuffle/permute
 * transpose of an AVX register file).
 */
INLINE void transpose8(const uint8_t *src, intptr_t srs, uint8_t *dst, intptr_t drs) {
  v8 r[8], t[8], u[8];
#pragma GCC unroll 8
  for (int i = 0; i < 8; i++) memcpy(&r[i], src + i * srs, sizeof r[i]);
#pragma GCC unroll 4
  for (int i = 0; i < 8; i += 2) {
    t[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[i + 1] = __builtin_shufflevector(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
#pragma GCC unroll 2
  for (int h = 0; h < 8; h += 4)
#pragma GCC unroll 2
    for (int e = 0; e < 2; e++) {
      u[h + 2 * e] = __builtin_shufflevector(t[h + e], t[h + e + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[h + 2 * e + 1] = __builtin_shufflevector(t[h + e], t[h + e + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
#pragma GCC unroll 4
  for (int c = 0; c < 4; c++) {
    const v8 lo = __builtin_shufflevector(u[c], u[c + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    const v8 hi = __builtin_shufflevector(u[c], u[c + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    memcpy(dst + c * drs, &lo, sizeof lo);
    memcpy(dst + (c + 4) * drs, &hi, sizeof hi);
  }
}

/*
 * transpose(src, srs, ss, dst, rows, cols, batch): dst[q] (cols × rows, contiguous, one product
 * after another) = src[q]ᵀ, src[q] rows × cols with a row stride of srs bytes, ss bytes apart.
 * 8 × 8 blocks by shuffles, then every float they left one by one (as the WAT's 4 × 4 blocks).
 */
KERNEL(transpose) {
  const int32_t rows = (int32_t)a[4], cols = (int32_t)a[5], batch = (int32_t)a[6];
  const int32_t rows8 = rows & ~7, cols8 = cols & ~7;
  const intptr_t srs = (int32_t)a[1], drs = 4 * (intptr_t)rows;
  for (int32_t q = 0; q < batch; q++) {
    const uint8_t *src = mem + (uint32_t)a[0] + (uint32_t)q * (uint32_t)a[2];
    uint8_t *dst = mem + (uint32_t)a[3] + (uint32_t)q * (uint32_t)rows * (uint32_t)cols * 4u;
    for (int32_t i0 = 0; i0 < rows8; i0 += 8)
      for (int32_t j0 = 0; j0 < cols8; j0 += 8)
        transpose8(src + i0 * srs + 4 * (intptr_t)j0, srs, dst + j0 * drs + 4 * (intptr_t)i0, drs);
    for (int32_t i = 0; i < rows; i++)
      for (int32_t j = i < rows8 ? cols8 : 0; j < cols; j++)
        store1(dst + j * drs + 4 * (intptr_t)i, load1(src + i * srs + 4 * (intptr_t)j));
  }
  return 0;
}

/* ---- fma_peak ---------------------------------------------------------------------------- */

/*
 * The roofline: PEAK_CHAINS independent chains x = x·y + z in registers (enough to cover the FMA
 * latency on every pipe), `turns` times; returns a checksum of the chains (so none is dead), or,
 * with turns = 0, the flops of one turn (2 · VW · PEAK_CHAINS).
 */
KERNEL(fma_peak) {
  (void)mem;
  const int64_t turns = (int64_t)a[0];
  if (turns <= 0) return 2.0 * VW * PEAK_CHAINS;
  const vf y = vsplat(0.5f), z = vsplat(0.25f);
  vf x[PEAK_CHAINS];
#pragma GCC unroll 32
  for (int c = 0; c < PEAK_CHAINS; c++) x[c] = vsplat((float)(c + 1));
  for (int64_t t = 0; t < turns; t++) {
#pragma GCC unroll 32
    for (int c = 0; c < PEAK_CHAINS; c++) x[c] = x[c] * y + z;
  }
  vf s = x[0];
#pragma GCC unroll 32
  for (int c = 1; c < PEAK_CHAINS; c++) s += x[c];
  return vsum(s);
}
