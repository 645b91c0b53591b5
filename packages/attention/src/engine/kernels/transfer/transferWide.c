/*
 * The engine's transfer-matrix kernels in float64 (transferReal.h), for the rows the float32 ones
 * (transfer.c) leave: couplings past the float32 bounds up to the float64 ones (transferLanes.h),
 * and rows whose Σα is below e^−32 down to e^−256 (transferPass.h). The same algorithm and code
 * (transferChain.h, transferVjp.h, transferVjpForward.h, transferLanes.h, transferPass.h) on VW / 2
 * float64 lanes; transfer.c calls it within its own call, so with flush-to-zero on (native/fpMode.h).
 */
#define TRANSFER_WIDE 1
#include "transferPass.h"

double KPASTE(transfer_wide_forward, ISA_NAME)(const op_shape *o, float *w, float *sums) {
  return forward_pass(o, w, sums);
}

double KPASTE(transfer_wide_backward, ISA_NAME)(const op_shape *o, const float *w, const float *sums,
                                                const float *gw, float *gh, float *gJ, int32_t K) {
  return backward_pass(o, w, sums, gw, gh, gJ, K);
}
