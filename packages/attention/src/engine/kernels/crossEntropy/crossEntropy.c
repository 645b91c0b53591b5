/*
 * The engine's cross-entropy kernel, one source for every vector width (native/vec.h); it mirrors
 * crossEntropy.wat's export of the same name (crossEntropyWat.mjs writes that text). For each row
 * z of `classes` logits with target t (int32) and weight w (the loss mask over its sum): writes the
 * row's max, Σ exp(z − max) and z_t into three floats of `stats` (the caller takes the log in
 * float64), then overwrites z by its gradient (softmax(z) − onehot(t)) w. exp is the WAT's
 * (vmath.h). Classes go VW at a time; the last classes mod VW as one vector of the live lanes
 * (masked loads and stores), kept in a register through the row's sweeps.
 */
#include "vmath.h"

/* One row: its statistics into st[0..2], z overwritten by the gradient. */
static void cross_entropy_row(float *z, int32_t classes, int32_t target, float weight, float *st) {
  const int32_t tail = classes % VW, full = classes - tail;
  st[2] = z[target];
  /* The last classes mod VW logits stay in a register through the three sweeps. */
  const vf last = vload_tail(z + full, tail, -__builtin_inff());
  vf acc = last;
  for (int32_t j = 0; j < full; j += VW) acc = vmax(acc, vload(z + j));
  const float c = vhmax(acc);
  /* z ← exp(z − max), summed. */
  const vf e_last = vselect(vfirst(tail), vexp(last - c), vsplat(0.0f));
  acc = e_last;
  for (int32_t j = 0; j < full; j += VW) {
    const vf e = vexp(vload(z + j) - c);
    vstore(z + j, e);
    acc += e;
  }
  const float sum = vhsum(acc);
  st[0] = c;
  st[1] = sum;
  /* z ← softmax(z) w, then w off the target. */
  const float scale = weight / sum;
  for (int32_t j = 0; j < full; j += VW) vstore(z + j, vload(z + j) * scale);
  if (tail) vstore_tail(z + full, e_last * scale, tail);
  z[target] -= weight;
}

/* cross_entropy(z, rows, classes, targets, weights, stats): byte offsets; stats 3 floats a row. */
KERNEL(cross_entropy) {
  float *z = F32(mem, a[0]);
  const int32_t rows = (int32_t)a[1], classes = (int32_t)a[2];
  const int32_t *targets = I32(mem, a[3]);
  const float *weights = F32(mem, a[4]);
  float *stats = F32(mem, a[5]);
  for (int32_t row = 0; row < rows; row++)
    cross_entropy_row(z + (size_t)row * classes, classes, targets[row], weights[row], stats + 3 * (size_t)row);
  return 0;
}
