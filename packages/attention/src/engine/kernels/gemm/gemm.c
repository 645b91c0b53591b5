/*
 * The engine's native GEMM kernel, one source for every vector width (native/vec.h): it mirrors
 * gemm.wat's `gemm` and `gemm_narrow` exports, of the same names and parameters (gemmWat.mjs
 * writes that text; src/engine/gemm.ts and gemmShape.ts plan the calls). Its siblings here:
 * gemmDot.c (C (+)= A·Bᵀ as dot products of contiguous rows, the narrow per-head products),
 * transpose.c (dst = srcᵀ per product, for A·Bᵀ through `gemm`) and fmaPeak.c (the roofline).
 *
 * gemm / gemm_narrow: C(i, j) (+)= Σ_p A(i, p) · B(p, j) for `batch` products, A read through two
 * byte strides (so A and Aᵀ are one kernel), B's rows contiguous in j, C row-major. A MR × (NV·VW)
 * tile of C lives in MR·NV vector accumulators; each step of p loads NV vectors of B and MR splats
 * of A and does MR·NV multiply-adds (`acc + s * b`, one FMA with -ffp-contract=fast where the ISA
 * has it). Edges: narrower tiles of NV/2 and 1 vectors, bands of fewer rows, and the last n mod VW
 * columns in a pass of their own: through a zero-padded copy of B's last columns, or, for Aᵀ·B
 * (A's rows adjacent), by vectors along i; so every size is served. Both exports are this one
 * kernel (the WAT module has two tile shapes; here the edges pick them).
 */
#include <stdlib.h>

#include "floatBytes.h"
#include "kernels.h"
#include "threadScratch.h"
#include "vec.h"

/* Micro-tile: MR rows × NV vectors of accumulators, within the ISA's vector registers. */
#if VW == 16
#define MR 6 /* 24 accumulators + 4 of B + a splat of 32 zmm registers */
#define NV 4
#else
#define MR 6 /* 12 accumulators + 2 of B + a splat (+ a product without FMA) of 16 registers */
#define NV 2
#endif

/*
 * Rows of the tiles of the last n mod VW columns (one vector of accumulators a row): 12 chains of
 * multiply-adds hide the FMA latency better than 6 (768 × 65 × 64 on AVX-512: 164–165 GFLOP/s
 * against 146–160, on a noisy machine).
 */
#define PAD_ROWS 12
#define ACC_ROWS (PAD_ROWS > MR ? PAD_ROWS : MR)

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
 * A block for the padded last columns of B (k · VW floats), the thread's (threadScratch.h); block
 * NULL when it cannot have one, or always while the addon's test switch says so (kernels.h).
 */
static scratch_block pad_take(int32_t k) {
  if (__atomic_load_n(&boltzmann_fail_pad_allocations, __ATOMIC_RELAXED)) return (scratch_block){NULL, 0};
  return scratch_take((size_t)(k > 0 ? k : 1) * VW * sizeof(float));
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
  const scratch_block padBlock = padded ? pad_take(o.k) : (scratch_block){NULL, 0};
  float *pad = padBlock.block;
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
  scratch_give(padBlock);
  return 0;
}

KERNEL(gemm) { return gemm_any(mem, a); }
KERNEL(gemm_narrow) { return gemm_any(mem, a); }
