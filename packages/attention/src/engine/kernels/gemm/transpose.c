/*
 * transpose, the engine's native kernel for dst = srcᵀ per product (A·Bᵀ through `gemm`, gemm.c),
 * one source for every vector width: it mirrors gemm.wat's export of the same name and parameters
 * (gemmWat.mjs writes that text).
 */
#include "floatBytes.h"
#include "kernels.h"
#include "vec.h"

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
