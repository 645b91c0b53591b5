/*
 * The transfer-matrix kernels' cases (src/engine/kernels/transfer/transfer.c): seeded fields,
 * banded couplings and ∂L/∂w; the weights, each row's Σα, ∂L/∂h and ∂L/∂J compared within the
 * kernels' own accuracy against float64 (transferNative.test.ts: w 5e-7, gh and gJ 4e-6 of the
 * region's largest), the count of rows left to the caller exactly. Lane groups of mixed lengths
 * (B not a multiple of 4), padding lanes, windows 3–8, the VJP whole and in segments.
 */
#include <stdio.h>

#include "isaCheck.h"

static void transfer(int32_t batch, int32_t heads, int32_t t, int32_t window, int32_t segment) {
  const uint32_t bhtt = batch * heads * t * t, htt = heads * t * t, rows = batch * heads * t;
  const uint32_t h = 3, j = 5 + bhtt, w = 7 + bhtt + htt, sums = 9 + 2 * bhtt + htt;
  const uint32_t gw = sums + rows + 11, gh = gw + bhtt + 13, gj = gh + bhtt + 15;
  const uint32_t end = gj + htt + 17, seed = 53 * t + 7 * window + batch + segment;
  const double beta = 0.8 + window / 10.0;
  char what[64];
  snprintf(what, sizeof what, "transfer_B%d_H%d_T%d_W%d_seg%d", batch, heads, t, window, segment);
  case_begin(what);
  junk(end, seed);
  seeded(h, bhtt, seed, 2);
  seeded(gw, bhtt, seed + 1, 1);
  seeded(j, htt, seed + 2, 0.4f);
  for (int32_t hd = 0; hd < heads; hd++)
    for (int32_t r = 0; r < t; r++)
      for (int32_t k = 0; k < t; k++)
        if (k <= r || k - r > window) AT(j)[(hd * t + r) * t + k] = 0.0f;
  const double left = CALL(transfer_forward, 4 * h, 4 * j, 4 * w, 4 * sums, batch, heads, t,
                           window, beta);
  out_value("left", left, 0);
  out_region("w", w, bhtt, 5e-7, 1e-30);
  out_region("sums", sums, rows, 5e-7, 1e-30);
  CALL(transfer_backward, 4 * h, 4 * j, 4 * w, 4 * sums, batch, heads, t, window, beta, 4 * gw,
       4 * gh, 4 * gj, segment);
  out_region("gh", gh, bhtt, 4e-6, 1e-30);
  out_region("gj", gj, htt, 4e-6, 1e-30);
  case_end(end);
}

void transfer_cases(void) {
  transfer(3, 2, 16, 4, 0);
  transfer(5, 1, 24, 8, 0);
  transfer(5, 1, 24, 8, 5);
  transfer(1, 1, 20, 3, 0);
}
