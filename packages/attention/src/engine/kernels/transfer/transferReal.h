/*
 * The number type of the transfer-matrix kernels' messages (transferChain.h, transferVjp.h,
 * transferVjpForward.h, transferLanes.h, transferPass.h), set per translation unit: float32
 * (transfer.c), or float64 where TRANSFER_WIDE is defined (transferWide.c, the rows whose
 * couplings pass the float32 bounds).
 * A vector vr has the ISA's width in bytes either way: RW lanes, VW float32 or VW / 2 float64.
 */
#ifndef BOLTZMANN_TRANSFER_REAL_H
#define BOLTZMANN_TRANSFER_REAL_H
#include "vmath.h"

#ifdef TRANSFER_WIDE
#define WIDE 1
typedef double real;
#define RW (VW / 2)
typedef double vr __attribute__((vector_size(RW * sizeof(double))));
/* The sum of a vector's lanes (lane order). */
static inline double vrhsum(vr v) {
  double s = 0;
  for (int i = 0; i < RW; i++) s += v[i];
  return s;
}
#else
#define WIDE 0
typedef float real;
#define RW VW
typedef vf vr;
/* The sum of a vector's lanes: vmath.h's tree, the WAT's f32x4 order. */
static inline float vrhsum(vr v) { return vhsum(v); }
#endif

/* x in every lane (as vec.h's vsplat: x − 0 folds to one broadcast). */
static inline vr vrsplat(real x) { return x - (vr){0}; }

/* The lanes' comparison masks (all ones where true), integers as wide as real. */
#ifdef TRANSFER_WIDE
typedef int64_t vrmask __attribute__((vector_size(RW * sizeof(int64_t))));
#else
typedef int32_t vrmask __attribute__((vector_size(RW * sizeof(int32_t))));
#endif

/*
 * x where `live` is not 0, else +0: a select, not live · x, so that what a dead lane computed
 * (an overflow past the bounds that made it dead: inf, NaN) cannot reach a sum (0 · inf is NaN).
 */
static inline vr vrkeep(vr live, vr x) {
  const vrmask keep = live != vrsplat(0);
  return (vr)((vrmask)x & keep);
}

#endif
