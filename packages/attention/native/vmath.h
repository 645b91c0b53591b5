/*
 * Vector helpers beyond vec.h's arithmetic, for every width VW: lane masks and selects (C's
 * vector extensions have no ?: on vectors), the WAT kernels' max, a row's tail of fewer than VW
 * floats as one vector, and exp as the WAT kernels compute it (elementwiseWat.mjs's `exp`,
 * Cephes' expf), so native and wasm agree to float32 rounding.
 */
#ifndef BOLTZMANN_VMATH_H
#define BOLTZMANN_VMATH_H
#include "vec.h"

/* VW int32 lanes: the masks of vf comparisons (all ones where true). */
typedef int32_t vi __attribute__((vector_size(VW * sizeof(int32_t))));

/* Where mask, a; elsewhere b. */
static inline vf vselect(vi mask, vf a, vf b) {
  return (vf)(((vi)a & mask) | ((vi)b & ~mask));
}

/* Lane-wise max, as f32x4.max on the finite values the kernels see. */
static inline vf vmax(vf a, vf b) { return vselect(a > b, a, b); }

/* The max of a vector's lanes. */
static inline float vhmax(vf v) {
  float m = v[0];
  for (int i = 1; i < VW; i++) m = v[i] > m ? v[i] : m;
  return m;
}

/* Lanes 0 … k − 1 set (k < VW): the live lanes of a row's tail. */
static inline vi vfirst(int32_t k) {
  vi lane;
  for (int i = 0; i < VW; i++) lane[i] = i;
  return lane < k;
}

/* The k < VW floats at p as one vector, the other lanes `fill` (reads only the k floats). */
static inline vf vload_tail(const float *p, int32_t k, float fill) {
  vf v = vsplat(fill);
  memcpy(&v, p, (size_t)k * sizeof(float));
  return v;
}

/* Stores the first k < VW lanes of v at p (writes only the k floats). */
static inline void vstore_tail(float *p, vf v, int32_t k) { memcpy(p, &v, (size_t)k * sizeof(float)); }

/*
 * exp(x), elementwiseWat.mjs's: x clamped to [−87, 88] (NaN stays NaN), n = round-to-even(x log₂e)
 * (by adding and subtracting 1.5·2²³, exact for |n| < 2²²), r = x − n ln 2 in two parts (Cody–Waite),
 * e = 1 + r + r² P(r) with Cephes' degree-5 P, times 2ⁿ built in the exponent bits.
 */
static inline vf vexp(vf x) {
  const vf hi = vsplat(88.0f), lo = vsplat(-87.0f), magic = vsplat(12582912.0f);
  vf r = vselect(hi < x, hi, x);
  r = vselect(r < lo, lo, r);
  vf n = (r * 1.44269504088896341f + magic) - magic;
  r = r - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  vf e = vsplat(1.9875691500e-4f);
  e = e * r + 1.3981999507e-3f;
  e = e * r + 8.3334519073e-3f;
  e = e * r + 4.1665795894e-2f;
  e = e * r + 1.6666665459e-1f;
  e = e * r + 5.0000001201e-1f;
  e = e * r * r + r + 1.0f;
  const vi bits = (__builtin_convertvector(n, vi) + 127) << 23;
  return e * (vf)bits;
}

#endif
