/*
 * The engine's transfer-matrix kernels: Boltzmann attention's causal op with exact banded
 * inference, on the arena, for every problem of a pass at once. Problem (b, hd, i) is query i of
 * sequence b in head hd: the chain of keys t ≤ i with fields h[b][hd][i][t] and the head's
 * couplings J[hd][t − W + k][t] (bandwidth W); α_t = P(s_t = +1), w_t = α_t / Σ α. One head's
 * problems share its coupling table; VW of them at a time run one per vector lane
 * (transferChain.h), in the order (i descending, b), so a group's lanes have (nearly) one length.
 *
 * Fields of any finite size run here: a step's field factors are exp(±β h_t − |β h_t|), the
 * larger 1 (transferChain.h), so none overflows; the smaller, exp(−2|β h_t|), rounds to 0 beyond
 * the messages' range, where the exact answer is 0 or 1 to their precision too. A field sets only
 * its own spin's factor, so no later step can raise an entry it made small relative to the
 * others. Couplings can, and strong ones cost digits, so each call runs two passes
 * (transferPass.h), both with flush-to-zero on, as every native kernel (native/fpMode.h):
 * - float32 messages (this file) for the rows whose couplings, counted without the fields, keep
 *   every key's β Σ|J| over its band both ways (to the row's own keys) within 12 (8 until
 *   7 Dec 2026; measured at W = 3 … 12 with the bound at 12: no float32 row further off than
 *   with it at 8, docs/benchmarks/attention.md), 2β Σ of that
 *   over W + 1 consecutive keys within 250, and every coupling's β|J| within 1.5
 *   (transferLanes.h), and whose Σα ≥ e^−32. The bounds are measured (scripts/
 *   transferPrecision.ts: every key scaled to a β Σ|J|, W = 3 … 8): within them ∂L/∂h stayed
 *   within 3.7e-6 of its largest; at ising-core's float32 bound (16, no bound a coupling) float32
 *   lost it to 1.1e-4 (W = 3), and a row of 3 keys with one coupling at 2.6 to 1.3e-3 of its own;
 * - float64 messages (transferWide.c, VW / 2 lanes) for the rows the first left: bounds 40 and
 *   600, Σα ≥ e^−256 (∂L/∂h within 6e-8 of its largest to 39, W = 3 … 8).
 * Left to the caller (the engine runs them through ising-core in float64, in its log domain) are
 * rows past the float64 bounds, rows with a non-finite field, and rows whose Σα is below e^−256:
 * the forward marks them with sums[p] = −1 and returns their count. The WAT kernels
 * (transferTableWat.mjs, transferLanesWat.mjs) have the float32 pass only, with the same bounds
 * (12 a key, 1.5 a coupling).
 */
#include "transferPass.h"
/* The arguments both kernels start with: h, J, w, sums (byte offsets), B, heads, T, W, β. */
static op_shape shape_of(uint8_t *mem, const double *a) {
  op_shape o = {(int32_t)a[4], (int32_t)a[5], (int32_t)a[6], (int32_t)a[7], a[8],
                F32(mem, a[0]), F32(mem, a[1])};
  return o;
}

/*
 * transfer_forward(h, J, w, sums, B, heads, T, W, β): w = the causal weights of every problem
 * (zero past each row's keys), sums[p] = Σ α of a row the float32 pass took, TAKEN_WIDE for one
 * the float64 pass took (transferWide.c: the float32 pass's left rows), or −1 (and the row
 * untouched) for a problem left to the caller. Returns that count, or −1 when out of memory.
 */
KERNEL(transfer_forward) {
  const op_shape o = shape_of(mem, a);
  float *w = F32(mem, a[2]), *sums = F32(mem, a[3]);
  double left = forward_pass(&o, w, sums);
  if (left > 0) left = KPASTE(transfer_wide_forward, ISA_NAME)(&o, w, sums);
  return left;
}

/*
 * transfer_backward(h, J, w, sums, B, heads, T, W, β, gw, gh, gJ): gh = ∂L/∂h of every problem
 * the forward took (zero past each row's keys; other rows untouched), gJ = ∂L/∂J summed over
 * them (H × T × T, zero outside the band). Returns 0, or −1 when out of memory.
 */
KERNEL(transfer_backward) {
  const op_shape o = shape_of(mem, a);
  const float *w = F32(mem, a[2]), *sums = F32(mem, a[3]), *gw = F32(mem, a[9]);
  float *gh = F32(mem, a[10]), *gJ = F32(mem, a[11]);
  /* a[12] > 0: the segment length (tests only). */
  const int32_t K = a[12] > 0 ? (int32_t)a[12] : segment_length(o.W, o.T);
  memset(gJ, 0, (size_t)o.heads * o.T * o.T * sizeof(float));
  double code = backward_pass(&o, w, sums, gw, gh, gJ, K);
  int wide = 0;
  for (int32_t p = 0; p < o.B * o.heads * o.T && !wide; p++) wide = sums[p] == TAKEN_WIDE;
  if (code == 0 && wide) code = KPASTE(transfer_wide_backward, ISA_NAME)(&o, w, sums, gw, gh, gJ, K);
  return code;
}
