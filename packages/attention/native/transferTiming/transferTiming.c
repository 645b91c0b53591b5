/*
 * The transfer-matrix kernels timed outside Node (scripts/benchTransferKernels.ts builds and runs
 * this): transfer_forward and transfer_backward of one ISA, linked from the kernel sources as
 * binding.gyp compiles them (src/testing/isaBuild.ts), on one head of B sequences of T keys with
 * banded couplings of window W. No engine, scheduler or JavaScript runs beside them, so their
 * time a window state, and the part of it that does not depend on W, can be read off a few
 * shapes on a noisy machine.
 *
 *   transferTiming B T W calls mode
 *
 * mode: f (forward calls), b (backward calls, after one forward), fb (the two alternating, as a
 * training step calls them). Prints one JSON object: the shape, the fastest call's ms (a pair's
 * for fb) and the window states a call runs (every query's chain of 1 … T keys, 2^W states each).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fpMode.h"
#include "kernels.h"
#include "vec.h"

#define KERNEL_OF(name) KPASTE(name, ISA_NAME)

/* kernels.h's test switches, which addon.c defines in the addon. */
int boltzmann_fail_pad_allocations;
uint64_t boltzmann_pad_fallbacks;
#define TEXT2(x) #x
#define TEXT(x) TEXT2(x)

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A float uniform in [−scale, scale) from a 32-bit LCG (the inputs only need to be typical). */
static float uniform(uint32_t *state, float scale) {
  *state = *state * 1664525u + 1013904223u;
  return scale * ((float)(*state >> 8) / 8388608.0f - 1.0f);
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: transferTiming B T W calls f|b|fb\n");
    return 2;
  }
  const int32_t B = atoi(argv[1]), T = atoi(argv[2]), W = atoi(argv[3]), calls = atoi(argv[4]);
  const char *mode = argv[5];
  if (B < 1 || T < 2 || W < 1 || W > 12 || calls < 1 || strspn(mode, "fb") != strlen(mode)) {
    fprintf(stderr, "transferTiming: B ≥ 1, T ≥ 2, 1 ≤ W ≤ 12, calls ≥ 1, mode f, b or fb\n");
    return 2;
  }
  const size_t btt = (size_t)B * T * T, tt = (size_t)T * T, rows = (size_t)B * T;
  const size_t h = 0, j = h + btt, w = j + tt, sums = w + btt, gw = sums + rows, gh = gw + btt;
  const size_t gj = gh + btt, end = gj + tt;
  float *f = aligned_alloc(64, ((end + 15) / 16) * 64);
  if (f == NULL) return 3;
  memset(f, 0, end * sizeof(float));
  uint32_t state = 12345;
  for (size_t i = 0; i < btt; i++) f[h + i] = uniform(&state, 2.0f), f[gw + i] = uniform(&state, 1.0f);
  for (int32_t r = 0; r < T; r++)
    for (int32_t k = r + 1; k <= r + W && k < T; k++) f[j + (size_t)r * T + k] = uniform(&state, 0.05f);
  const double a[13] = {4.0 * h, 4.0 * j, 4.0 * w, 4.0 * sums, B, 1, T, W, 1.0, 4.0 * gw, 4.0 * gh, 4.0 * gj, 0};
  uint8_t *mem = (uint8_t *)f;
  const fp_mode fp = fp_flush_on();
  double left = KERNEL_OF(transfer_forward)(mem, a), best = 1e30;
  for (int32_t c = 0; c < calls; c++) {
    const double t0 = seconds();
    if (strchr(mode, 'f')) left = KERNEL_OF(transfer_forward)(mem, a);
    if (strchr(mode, 'b') && KERNEL_OF(transfer_backward)(mem, a) != 0) return 3;
    const double t = seconds() - t0;
    if (t < best) best = t;
  }
  fp_flush_off(fp);
  const double states = (double)B * ((double)T * (T + 1) / 2) * (double)(1 << W);
  printf("{\"isa\":\"%s\",\"B\":%d,\"T\":%d,\"W\":%d,\"mode\":\"%s\",\"ms\":%.4f,\"states\":%.0f,\"left\":%.0f}\n",
         TEXT(ISA_NAME), B, T, W, mode, 1e3 * best, states, left);
  free(f);
  return 0;
}
