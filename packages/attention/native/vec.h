/*
 * The one vector type every native kernel is written in: VW float lanes of the ISA this copy of
 * the kernel is compiled for (binding.gyp compiles each kernel source once per ISA: AVX-512 16,
 * AVX2 + FMA 8, the portable x86-64 baseline (SSE2) 4; NEON 4 on arm64), with GCC's vector
 * extensions, so one source serves every width. Loads and stores are unaligned (memcpy), as the
 * WAT kernels' v128.load/store are.
 */
#ifndef BOLTZMANN_VEC_H
#define BOLTZMANN_VEC_H
#include <stdint.h>
#include <string.h>

#if defined(BOLTZMANN_ISA_AVX512)
#define VW 16
#define ISA_NAME avx512
#elif defined(BOLTZMANN_ISA_AVX2)
#define VW 8
#define ISA_NAME avx2
#elif defined(BOLTZMANN_ISA_NEON)
#define VW 4
#define ISA_NAME neon
#else
#define VW 4
#define ISA_NAME base
#endif

typedef float vf __attribute__((vector_size(VW * sizeof(float))));

static inline vf vload(const float *p) {
  vf v;
  memcpy(&v, p, sizeof v);
  return v;
}
static inline void vstore(float *p, vf v) { memcpy(p, &v, sizeof v); }
/* x in every lane: x − 0 is x exactly (−0 too), so the compiler folds it to one broadcast, where
   0 + x (−0 + 0 is +0) costs an add before every broadcast. */
static inline vf vsplat(float x) { return x - (vf){0}; }
static inline float vsum(vf v) {
  float s = 0.0f;
  for (int i = 0; i < VW; i++) s += v[i];
  return s;
}

/* A float operand at a byte offset of the arena (the WAT kernels' i32 addresses). */
#define F32(mem, a) ((float *)((mem) + (uint32_t)(a)))
#define I32(mem, a) ((int32_t *)((mem) + (uint32_t)(a)))

#define KPASTE2(name, isa) name##_##isa
#define KPASTE(name, isa) KPASTE2(name, isa)
/*
 * A kernel: `KERNEL(gemm) { ... }` defines gemm_<isa>(mem, a), where mem is the arena's first byte
 * and a[i] is the i-th parameter of the WAT export of the same name, in the same order and units
 * (byte offsets, counts, f32/f64 scalars); it returns the export's result, or 0 if it has none.
 */
#define KERNEL(name) double KPASTE(name, ISA_NAME)(uint8_t * mem, const double *a)

#endif
