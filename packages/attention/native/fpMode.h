/*
 * Flush-to-zero and denormals-are-zero around a native kernel call: addon.c's call_kernel (and the
 * ISA check's CALL) set them for each call and restore the caller's mode after, so Node's own
 * arithmetic on the thread keeps IEEE subnormals. Every native kernel runs with them: subnormal
 * operands cost a microcode assist per operation on Intel cores (a GEMM with every input
 * subnormal took 749 against 4 ms on a Xeon, family 6 model 207, 7 Dec 2026), and attention
 * weights and gradients far down a long row fall there. Values below 2^−126 become 0, where the
 * WebAssembly kernels keep them (wasm has no such mode); nothing the engine computes depends on
 * them.
 */
#ifndef BOLTZMANN_FP_MODE_H
#define BOLTZMANN_FP_MODE_H
#include <stdint.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
typedef unsigned fp_mode;
static inline fp_mode fp_flush_on(void) {
  const unsigned m = _mm_getcsr();
  _mm_setcsr(m | 0x8040); /* FTZ (bit 15) and DAZ (bit 6) */
  return m;
}
static inline void fp_flush_off(fp_mode m) { _mm_setcsr(m); }
#elif defined(__aarch64__)
typedef uint64_t fp_mode;
static inline fp_mode fp_flush_on(void) {
  uint64_t r;
  __asm__ volatile("mrs %0, fpcr" : "=r"(r));
  __asm__ volatile("msr fpcr, %0" ::"r"(r | (1ull << 24))); /* FZ: inputs and results */
  return r;
}
static inline void fp_flush_off(fp_mode m) { __asm__ volatile("msr fpcr, %0" ::"r"(m)); }
#else
typedef int fp_mode;
static inline fp_mode fp_flush_on(void) { return 0; }
static inline void fp_flush_off(fp_mode m) { (void)m; }
#endif

#endif
