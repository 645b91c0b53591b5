/*
 * The ISA check's harness (native/isaCheck/README.md): every native kernel of one ISA, called on
 * seeded inputs at the engine's shapes and odd sizes, its outputs printed as text, so two builds
 * (x86-64's base and arm64's NEON under qemu) can be compared float for float by
 * src/testing/isaCheck.ts. The harness's own arithmetic (inputs, tolerance scales) is compiled
 * with -ffp-contract=off, so it is the same on every ISA; only the kernels differ.
 */
#ifndef BOLTZMANN_ISA_CHECK_H
#define BOLTZMANN_ISA_CHECK_H
#include <stdint.h>

#include "fpMode.h"
#include "kernels.h"
#include "vec.h"

/* The arena (floats at float offsets; the kernels take byte offsets, 4 · at). */
extern uint8_t *mem;
#define AT(at) ((float *)mem + (at))

/*
 * name_<isa> of the ISA this harness is built for, called with its arguments as doubles and with
 * flush-to-zero on, as addon.c calls it (fpMode.h).
 */
#define KERNEL_OF(name) KPASTE(name, ISA_NAME)
#define CALL(name, ...) call_flushed(KERNEL_OF(name), (const double[]){__VA_ARGS__})
static inline double call_flushed(kernel_fn fn, const double *a) {
  const fp_mode mode = fp_flush_on();
  const double r = fn(mem, a);
  fp_flush_off(mode);
  return r;
}
#define TEXT2(x) #x
#define TEXT(x) TEXT2(x)
#define ISA_NAME_TEXT TEXT(ISA_NAME)

/* Floats [at, at + n) set to the seeded stream of seededFloats (src/testing/nativeKernels.ts). */
void seeded(uint32_t at, uint32_t n, uint32_t seed, float scale);
/* Floats [0, end) set to seeded junk, so a lane left unwritten shows. */
void junk(uint32_t end, uint32_t seed);
/* The seeded integers in [lo, hi] of gemmNative.test.ts (`integers`). */
typedef struct {
  uint32_t s;
} stream;
int32_t next_int(stream *r, int32_t lo, int32_t hi);
/* A copy of the arena's floats [0, end) as they are now (inputs for the tolerance scales). */
const float *snapshot(uint32_t end);

/* A float's tolerance scale, from ctx (the case's description); i from the region's start. */
typedef double (*scale_fn)(const void *ctx, uint32_t i);

/*
 * A case: its outputs, then everything else of [0, end) as one hash (nothing may be written past
 * the outputs). Outputs are printed as they are when named; a region: exact on every ISA, `each`
 * float within tol · scale(i), or the whole `region` within tol · max(floor, max |value|).
 */
void case_begin(const char *name);
void out_exact(const char *what, uint32_t at, uint32_t n);
void out_each(const char *what, uint32_t at, uint32_t n, double tol, scale_fn scale,
              const void *ctx);
void out_region(const char *what, uint32_t at, uint32_t n, double tol, double floor);
/* A kernel's result: exact (tol 0) or within tol relative. */
void out_value(const char *what, double value, double tol);
void case_end(uint32_t end);

void gemm_cases(void);
void elementwise_cases(void);
void row_cases(void);
void transfer_cases(void);

#endif
