// The loop shape and locals the causal row kernels' WAT writers share (softmaxWat.mjs,
// sigmoidWat.mjs): every row of T × T blocks with its key count $n, the zeroing of the keys
// above the diagonal, and elementwiseWat's exp on these kernels' locals.
import { f32x4, get, i32, keys } from '../../../../../../tools/wasm/wat.mjs';
import { exp } from '../vectorMathWat.mjs';

/** Zeros keys $n … T − 1 of the current row of `base`. */
export const zeroAbove = (base) =>
  `(memory.fill ${i32.add(get(base), `(i32.shl ${get('n')} (i32.const 2))`)} (i32.const 0) (i32.shl (i32.sub ${get('t')} ${get('n')}) (i32.const 2)))`;

/** Every row: $n = (row mod T) + 1 keys; afterwards the pointers advance one row. */
export function rows(pointers, body) {
  const advance = pointers
    .map((p) => `(local.set $${p} ${i32.add(get(p), `(i32.shl ${get('t')} (i32.const 2))`)})`)
    .join(' ');
  return `(block $rd (loop $rl
      (br_if $rd (i32.ge_u ${get('row')} ${get('rows')}))
      (local.set $n ${i32.add(`(i32.rem_u ${get('row')} ${get('t')})`, '(i32.const 1)')})
      ${body}
      ${advance}
      (local.set $row ${i32.add(get('row'), '(i32.const 1)')})
      (br $rl)))`;
}

/**
 * `x` with every lane below 2^−126 in magnitude set to a zero of its sign (as the CPU's
 * flush-to-zero leaves it): the weights and gradients these kernels
 * store, so no subnormal reaches the attention products (each costs a microcode assist on Intel
 * cores; the native kernels flush them by the CPU's mode, native/fpMode.h). Uses $r.
 */
export const flushTiny = (x) =>
  `(v128.and (local.tee $r ${x}) (v128.or (f32x4.ge (f32x4.abs ${get('r')}) (f32x4.splat (f32.const 0x1p-126))) (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000)))`;

/** The kernels' locals: the row, its key count, the key and its byte offset, and vectors. */
export const LOCALS = `(local $row i32) (local $n i32) (local $j i32) (local $o i32)
    (local $bv v128) (local $acc v128) (local $c v128) (local $e v128) (local $r v128) (local $k v128)`;

/** exp of `x` into $e: elementwiseWat's uses $r, $n and $e; $n is these kernels' key count, so it is $k here. */
export const expOf = (x) => exp(x).replaceAll('$n', '$k');

/** The lines that set $c = Σ_j w_j gw_j over the row's keys, in every lane (the backwards' row dot product). */
export const rowDot = () => [
  `(local.set $acc (v128.const i32x4 0 0 0 0))`,
  keys(
    'dt',
    (load, _store, lane0) =>
      `(local.set $acc (f32x4.add ${get('acc')} ${lane0(`(f32x4.mul ${load('w')} ${load('gw')})`)}))`,
  ),
  `(local.set $c (f32x4.splat ${f32x4.reduce('f32.add', get('acc'))}))`,
];
