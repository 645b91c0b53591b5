/*
 * Vector helpers beyond vec.h's arithmetic, for every width VW: lane masks and selects (C's
 * vector extensions have no ?: on vectors), the WAT kernels' max, a row's tail of fewer than VW
 * floats as one vector, and exp as the WAT kernels compute it (elementwiseWat.mjs's `exp`,
 * Cephes' expf), so native and wasm agree to float32 rounding.
 */
#ifndef BOLTZMANN_VMATH_H
#define BOLTZMANN_VMATH_H
#include "vec.h"
#if defined(BOLTZMANN_ISA_AVX512) || defined(BOLTZMANN_ISA_AVX2)
#include <immintrin.h>
#endif

/* VW int32 lanes: the masks of vf comparisons (all ones where true). */
typedef int32_t vi __attribute__((vector_size(VW * sizeof(int32_t))));

/* Where mask, a; elsewhere b. */
static inline vf vselect(vi mask, vf a, vf b) {
  return (vf)(((vi)a & mask) | ((vi)b & ~mask));
}

/* Lane-wise max, as f32x4.max on the finite values the kernels see. */
static inline vf vmax(vf a, vf b) { return vselect(a > b, a, b); }

/*
 * The sum and the max of a vector's lanes, as a tree: the upper half onto the lower until four
 * lanes are left, then (0 ∘ 1) ∘ (2 ∘ 3), the WAT's f32x4 reduction (so the base's agree with it).
 */
static inline float vhsum(vf v) {
  float t[VW];
  memcpy(t, &v, sizeof v);
  for (int w = VW / 2; w >= 4; w /= 2)
    for (int i = 0; i < w; i++) t[i] += t[i + w];
  return (t[0] + t[1]) + (t[2] + t[3]);
}
static inline float vhmax(vf v) {
  float t[VW];
  memcpy(t, &v, sizeof v);
  for (int w = VW / 2; w >= 4; w /= 2)
    for (int i = 0; i < w; i++) t[i] = t[i + w] > t[i] ? t[i + w] : t[i];
  const float a = t[1] > t[0] ? t[1] : t[0], b = t[3] > t[2] ? t[3] : t[2];
  return b > a ? b : a;
}

/* Lanes 0 … k − 1 set (k < VW): the live lanes of a row's tail. */
static inline vi vfirst(int32_t k) {
  vi lane;
  for (int i = 0; i < VW; i++) lane[i] = i;
  return lane < k;
}

/*
 * The k < VW floats at p as one vector, the other lanes `fill`; reads only the k floats (masked
 * loads on AVX-512 and AVX2, whose masked-off lanes never fault; lane by lane elsewhere).
 */
static inline vf vload_tail(const float *p, int32_t k, float fill) {
#if defined(BOLTZMANN_ISA_AVX512)
  return (vf)_mm512_mask_loadu_ps(_mm512_set1_ps(fill), (__mmask16)((1u << k) - 1u), p);
#elif defined(BOLTZMANN_ISA_AVX2)
  const vi live = vfirst(k);
  return vselect(live, (vf)_mm256_maskload_ps(p, (__m256i)live), vsplat(fill));
#else
  vf v = vsplat(fill);
  for (int32_t i = 0; i < k; i++) v[i] = p[i];
  return v;
#endif
}

/* Stores the first k < VW lanes of v at p (writes only the k floats). */
static inline void vstore_tail(float *p, vf v, int32_t k) {
#if defined(BOLTZMANN_ISA_AVX512)
  _mm512_mask_storeu_ps(p, (__mmask16)((1u << k) - 1u), (__m512)v);
#elif defined(BOLTZMANN_ISA_AVX2)
  _mm256_maskstore_ps(p, (__m256i)vfirst(k), (__m256)v);
#else
  for (int32_t i = 0; i < k; i++) p[i] = v[i];
#endif
}

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
