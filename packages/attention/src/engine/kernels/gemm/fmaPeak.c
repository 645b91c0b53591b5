/*
 * fma_peak, the roofline's kernel: the FMA throughput of the ISA it is built for (native/vec.h),
 * which the benchmarks print each kernel's share of.
 */
#include "kernels.h"
#include "vec.h"

/* Independent chains enough to cover the FMA latency on every pipe, in the ISA's registers. */
#if VW == 16
#define PEAK_CHAINS 24
#else
#define PEAK_CHAINS 12
#endif

/*
 * The roofline: PEAK_CHAINS independent chains x = x·y + z in registers (enough to cover the FMA
 * latency on every pipe), `turns` times; returns a checksum of the chains (so none is dead), or,
 * with turns = 0, the flops of one turn (2 · VW · PEAK_CHAINS).
 */
KERNEL(fma_peak) {
  (void)mem;
  const int64_t turns = (int64_t)a[0];
  if (turns <= 0) return 2.0 * VW * PEAK_CHAINS;
  const vf y = vsplat(0.5f), z = vsplat(0.25f);
  vf x[PEAK_CHAINS];
#pragma GCC unroll 32
  for (int c = 0; c < PEAK_CHAINS; c++) x[c] = vsplat((float)(c + 1));
  for (int64_t t = 0; t < turns; t++) {
#pragma GCC unroll 32
    for (int c = 0; c < PEAK_CHAINS; c++) x[c] = x[c] * y + z;
  }
  vf s = x[0];
#pragma GCC unroll 32
  for (int c = 1; c < PEAK_CHAINS; c++) s += x[c];
  return vsum(s);
}
