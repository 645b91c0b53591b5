/*
 * The optimizer's native kernels, one source for every vector width (native/vec.h); they mirror
 * adamW.wat's exports of the same names (adamWWat.mjs writes that text).
 */
#include "vec.h"

/* dst += src over n floats. */
KERNEL(add_into) {
  float *dst = F32(mem, a[0]);
  const float *src = F32(mem, a[1]);
  const int32_t n = (int32_t)a[2];
  int32_t i = 0;
  for (; i + VW <= n; i += VW) vstore(dst + i, vload(dst + i) + vload(src + i));
  for (; i < n; i++) dst[i] += src[i];
  return 0;
}
