/*
 * Every native kernel, by the name of the WAT export it mirrors, and whether that export returns a
 * value: X(name, returns). Each is defined once per ISA (vec.h's KERNEL) in
 * src/engine/kernels/<op>/<op>.c; addon.c binds the table of the ISA it picks.
 */
#ifndef BOLTZMANN_KERNELS_H
#define BOLTZMANN_KERNELS_H
#include <stdint.h>

#define BOLTZMANN_KERNELS(X) \
  X(add_into, 0) \
  X(adamw, 0) \
  X(sum_squares, 1) \
  X(layer_norm, 0) \
  X(layer_norm_backward, 0) \
  X(causal_softmax, 0) \
  X(causal_softmax_backward, 0) \
  X(causal_sigmoid, 0) \
  X(causal_sigmoid_backward, 0) \
  X(transfer_forward, 1) \
  X(transfer_backward, 1) \
  X(cross_entropy, 0) \
  X(bias_gelu, 0) \
  X(bias_gelu_save, 0) \
  X(bias_gelu_backward, 0) \
  X(bias_gelu_backward_saved, 0) \
  X(residual, 0) \
  X(masked, 0) \
  X(scale, 0) \
  X(column_sums, 0) \
  X(embed, 0) \
  X(embed_backward, 0) \
  X(bias_rows, 0) \
  X(gemm, 0) \
  X(gemm_narrow, 0) \
  X(gemm_dot, 0) \
  X(transpose, 0) \
  X(fma_peak, 1)

typedef double (*kernel_fn)(uint8_t *mem, const double *a);

#define BOLTZMANN_DECLARE(name, returns) \
  double name##_avx512(uint8_t *, const double *); \
  double name##_avx2(uint8_t *, const double *); \
  double name##_base(uint8_t *, const double *); \
  double name##_neon(uint8_t *, const double *);
BOLTZMANN_KERNELS(BOLTZMANN_DECLARE)
#undef BOLTZMANN_DECLARE

/*
 * Test-only switches, defined once in addon.c so that every ISA's library (each has its own copy
 * of the kernels) reads the same ones; set through the addon's `testing` export, never otherwise.
 * Process-wide (every worker's instance of the addon shares them); read and written atomically.
 * boltzmann_fail_pad_allocations: gemm.c's pad_take fails as if out of memory, so the GEMM's
 * last columns take their scalar fallback; boltzmann_pad_fallbacks counts the products that did.
 */
extern int boltzmann_fail_pad_allocations;
extern uint64_t boltzmann_pad_fallbacks;

#endif
