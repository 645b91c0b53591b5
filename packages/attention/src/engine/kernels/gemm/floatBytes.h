/*
 * What the GEMM family's sources (gemm.c, gemmDot.c, transpose.c) share: floats at byte addresses
 * of the arena, as the WAT kernels' f32.load and f32.store read them (any alignment), and the
 * always-inlined helpers their tiles are built from.
 */
#ifndef BOLTZMANN_FLOAT_BYTES_H
#define BOLTZMANN_FLOAT_BYTES_H
#include <stdint.h>
#include <string.h>

#define INLINE static inline __attribute__((always_inline))

/* A float at a byte address. */
INLINE float load1(const uint8_t *p) {
  float x;
  memcpy(&x, p, sizeof x);
  return x;
}
INLINE void store1(uint8_t *p, float x) { memcpy(p, &x, sizeof x); }

#endif
