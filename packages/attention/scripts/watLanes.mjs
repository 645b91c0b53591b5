// The loop shapes the engine's row kernels share (softmaxWat.mjs, lossWat.mjs): a pass over the
// first $n floats of a row, four at a time in f32x4 and the rest through lane 0, and horizontal
// reductions of a vector.

export const get = (name) => `(local.get $${name})`;
export const iadd = (x, y) => `(i32.add ${x} ${y})`;
const LANE0 = '(v128.const i32x4 -1 0 0 0)';
const at = (base) => iadd(get(base), get('o'));
const vload = (base) => `(v128.load align=4 ${at(base)})`;
const lload = (base) => `(f32x4.splat (f32.load ${at(base)}))`;
const vstore = (base, v) => `(v128.store align=4 ${at(base)} ${v})`;
const lstore = (base, v) => `(f32.store ${at(base)} (f32x4.extract_lane 0 ${v}))`;
export const lanes = (op, v) =>
  `(${op} (${op} (f32x4.extract_lane 0 ${v}) (f32x4.extract_lane 1 ${v})) (${op} (f32x4.extract_lane 2 ${v}) (f32x4.extract_lane 3 ${v})))`;

/**
 * A pass over keys j < $n of the current row: `body(load, store, lane0)` once for four keys
 * at a time and once for one key in lane 0 (`lane0(v)` keeps lane 0 of a vector, for sums).
 */
export function keys(label, body) {
  const vec = body(vload, vstore, (v) => v);
  const lane = body(lload, lstore, (v) => `(v128.and ${v} ${LANE0})`);
  return `(local.set $j (i32.const 0))
    (block $${label}d (loop $${label}l
      (br_if $${label}d (i32.gt_u ${iadd(get('j'), '(i32.const 4)')} ${get('n')}))
      (local.set $o (i32.shl ${get('j')} (i32.const 2)))
      ${vec}
      (local.set $j ${iadd(get('j'), '(i32.const 4)')})
      (br $${label}l)))
    (block $${label}sd (loop $${label}sl
      (br_if $${label}sd (i32.ge_u ${get('j')} ${get('n')}))
      (local.set $o (i32.shl ${get('j')} (i32.const 2)))
      ${lane}
      (local.set $j ${iadd(get('j'), '(i32.const 1)')})
      (br $${label}sl)))`;
}
