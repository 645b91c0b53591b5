// The WebAssembly-text helpers every kernel writer shares (attention's engine kernels under
// packages/attention/src/engine/kernels/, ising-core's float32 transfer rewrite). Each is named
// for its instruction with the lane type spelt out: `i32.add(x, y)` writes `(i32.add x y)`,
// `f32x4.add(x, y)` writes `(f32x4.add x y)`; there is no bare `add`. Also the loop shape of the
// engine's row kernels (softmax, cross-entropy): a pass over the first $n floats of a row, four
// at a time in f32x4 and the rest through lane 0, and the horizontal reduction of a vector.

/** The memory import of a kernel module: the caller's memory (the engine's one arena). */
export const MEMORY_IMPORT = '(import "env" "memory" (memory 1))';

/** A module of `funcs` on the caller's memory (`MEMORY_IMPORT`). */
export const arenaModule = (...funcs) => `(module
  ${MEMORY_IMPORT}
  ${funcs.join('\n  ')}
)
`;

/** `(local.get $name)`. */
export const get = (name) => `(local.get $${name})`;

/** Scalar 32-bit integer instructions (addresses, counters). */
export const i32 = {
  add: (x, y) => `(i32.add ${x} ${y})`,
};

/** The f32 lanes `ls` (a of the first operand, 4 + b of the second) as i8x16.shuffle's bytes. */
const shuffleBytes = (ls) => ls.flatMap((l) => [4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3]).join(' ');

/** Four-lane float instructions on v128 values. */
export const f32x4 = {
  add: (x, y) => `(f32x4.add ${x} ${y})`,
  mul: (x, y) => `(f32x4.mul ${x} ${y})`,
  splat: (x) => `(f32x4.splat ${x})`,
  /** `(i8x16.shuffle …)` picking the f32 lanes `order` of x (0–3) and y (4–7). */
  shuffle: (x, y, order) => `(i8x16.shuffle ${shuffleBytes(order)} ${x} ${y})`,
  /** The f32 `op` ('f32.add', 'f32.max') of a vector's four lanes, pairwise: (0 op 1) op (2 op 3). */
  reduce: (op, v) =>
    `(${op} (${op} (f32x4.extract_lane 0 ${v}) (f32x4.extract_lane 1 ${v})) (${op} (f32x4.extract_lane 2 ${v}) (f32x4.extract_lane 3 ${v})))`,
};

const LANE0 = '(v128.const i32x4 -1 0 0 0)';
const at = (base) => i32.add(get(base), get('o'));
const vload = (base) => `(v128.load align=4 ${at(base)})`;
const lload = (base) => `(f32x4.splat (f32.load ${at(base)}))`;
const vstore = (base, v) => `(v128.store align=4 ${at(base)} ${v})`;
const lstore = (base, v) => `(f32.store ${at(base)} (f32x4.extract_lane 0 ${v}))`;

/**
 * A pass over keys j < $n of the current row: `body(load, store, lane0)` once for four keys
 * at a time and once for one key in lane 0 (`lane0(v)` keeps lane 0 of a vector, for sums).
 */
export function keys(label, body) {
  const vec = body(vload, vstore, (v) => v);
  const lane = body(lload, lstore, (v) => `(v128.and ${v} ${LANE0})`);
  return `(local.set $j (i32.const 0))
    (block $${label}d (loop $${label}l
      (br_if $${label}d (i32.gt_u ${i32.add(get('j'), '(i32.const 4)')} ${get('n')}))
      (local.set $o (i32.shl ${get('j')} (i32.const 2)))
      ${vec}
      (local.set $j ${i32.add(get('j'), '(i32.const 4)')})
      (br $${label}l)))
    (block $${label}sd (loop $${label}sl
      (br_if $${label}sd (i32.ge_u ${get('j')} ${get('n')}))
      (local.set $o (i32.shl ${get('j')} (i32.const 2)))
      ${lane}
      (local.set $j ${i32.add(get('j'), '(i32.const 1)')})
      (br $${label}sl)))`;
}
