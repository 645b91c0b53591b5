// Writes the WebAssembly text of the engine's transfer-matrix kernels, transfer.wat beside it
// (compiled into transfer{,Shared}Wasm.generated.ts by `pnpm --filter @boltzmann/attention
// build:wasm`): transfer.c's transfer_forward and transfer_backward in f32x4, with the native
// kernels' arguments and two more at the end, the byte offset and size of a scratch region of the
// arena (transfer.ts transferScratchBytes; the native kernels ignore them and allocate their own).
// The same algorithm (transferChain.h: four problems of one head a vector, lanes across problems,
// no shuffles), the same coupling tables and field factors exp(±βh − |βh|) (float64, with the
// float64 exp of transferWatText.mjs, rounded to float32), the same tests of what it leaves; message and tangent entries
// below 2^-60 are flushed to 0 where the native code has the CPU's flush-to-zero. The VJP keeps a
// group's whole backward sweep while it takes at most WHOLE_BYTES, else recomputes it in
// segments of about SEGMENT_BYTES from checkpoints (transfer.c segment_length's rule).
import { arenaModule } from '../../../../../../tools/wasm/wat.mjs';
import { sweepFuncs } from './transferSweepsWat.mjs';
import { vjpForwardFuncs } from './transferVjpForwardWat.mjs';
import { VJP_GLOBALS, vjpBackFuncs } from './transferVjpWat.mjs';
import { expFunc, globals } from './transferWatText.mjs';
import { lanesFuncs } from './transferLanesWat.mjs';

/** The VJP's budgets (bytes): the whole backward sweep of a group while 2·2^W·16·T fits the first. */
export const WHOLE_BYTES = 4 << 20;
export const SEGMENT_BYTES = 192 << 10;

/** Pointers into the scratch region, set by $layout (relative, then moved to the region). */
const POINTERS = [
  ...[
    'lgp',
    'ep',
    'em',
    'gp',
    'gm',
    'up',
    'fg',
    'gacc',
    'bsum',
    'bshift',
    'A',
    'AT',
    'NX',
    'NXT',
    'row',
  ],
  ...['upper', 'tbl', 'crow', 'tup', 'tdown', 'msg', 'ring', 'ck', 'cst', 'seg'],
];
const SHAPE = ['T', 'W', 'S', 'H', 'Sb', 'Hb', 'B', 'heads', 'hp', 'Jp', 'wp', 'sumsp'];
const MORE = ['gwp', 'ghp', 'gJp', 'K', 'nmax', 'nmin', 'fa', 'faT', 'fnx', 'fnxT', 'jhead'];

/**
 * $layout(scr, bytes, vjp, seg): the scratch region's parts (transfer.c scratch_alloc's, in
 * bytes, 16-aligned from scr rounded up) and the segment length K (seg > 0: that, for tests);
 * 0 when they need more than `bytes` (or a message array more than 2^28 bytes).
 */
function layout() {
  const take = (name, size) =>
    `(global.set $${name} (local.get $at)) (local.set $at (i32.add (local.get $at) ${size}))`;
  const T = '(global.get $T)';
  const Sb = '(global.get $Sb)';
  const vecs = (n) => `(i32.shl ${n} (i32.const 4))`;
  return `(func $layout (param $scr i32) (param $bytes i32) (param $vjp i32) (param $seg i32) (result i32)
    (local $at i32) (local $segs i32) (local $base i32)
    (if (f64.gt (f64.mul (f64.convert_i32_u ${T}) (f64.convert_i32_u ${Sb})) (f64.const 0x1p28)) (then (return (i32.const 0))))
    (global.set $K (select (local.get $seg) ${T} (i32.gt_s (local.get $seg) (i32.const 0))))
    (if (i32.and (i32.le_s (local.get $seg) (i32.const 0)) (i32.gt_u (i32.mul (i32.shl ${Sb} (i32.const 1)) ${T}) (i32.const ${WHOLE_BYTES}))) (then
      (global.set $K (select (i32.const 2) (local.tee $at (i32.div_u (i32.const ${SEGMENT_BYTES}) (i32.shl ${Sb} (i32.const 1)))) (i32.lt_u (local.get $at) (i32.const 2))))))
    (local.set $segs (i32.div_u (i32.sub (i32.add ${T} (global.get $K)) (i32.const 1)) (global.get $K)))
    (local.set $at (i32.const 0))
    ${take('lgp', '(i32.const 64)')}
    ${['ep', 'em', 'gp', 'gm', 'up', 'fg'].map((n) => take(n, vecs(T))).join(' ')}
    ${take('gacc', vecs(`(i32.add (i32.mul ${T} (global.get $W)) (i32.const 1))`))}
    ${take('bsum', vecs(T))} ${take('bshift', vecs(T))}
    ${['A', 'AT', 'NX', 'NXT', 'row'].map((n) => take(n, Sb)).join(' ')}
    ${take('upper', vecs('(global.get $W)'))}
    ${take('tbl', `(i32.shr_u (i32.mul ${T} ${Sb}) (i32.const 1))`)}
    ${take('crow', `(i32.and (i32.add (i32.shl (i32.add (i32.shl ${T} (i32.const 2)) (i32.const 33)) (i32.const 3)) (i32.const 15)) (i32.const -16))`)}
    ${take('tup', '(i32.shl (global.get $S) (i32.const 3))')} ${take('tdown', '(i32.shl (global.get $S) (i32.const 3))')}
    (global.set $msg (local.get $at))
    (if (local.get $vjp) (then
      ${take('ring', `(i32.shl ${Sb} (i32.const 2))`)}
      ${take('ck', `(i32.mul (local.get $segs) (i32.shl ${Sb} (i32.const 1)))`)}
      ${take('cst', '(i32.shl (local.get $segs) (i32.const 6))')}
      ${take('seg', `(i32.mul (global.get $K) (i32.shl ${Sb} (i32.const 1)))`)})
    (else (local.set $at (i32.add (local.get $at) (i32.mul ${T} ${Sb})))))
    (local.set $base (i32.and (i32.add (local.get $scr) (i32.const 15)) (i32.const -16)))
    (if (i64.gt_s (i64.extend_i32_u (local.get $at)) (i64.sub (i64.extend_i32_u (local.get $bytes)) (i64.extend_i32_u (i32.sub (local.get $base) (local.get $scr)))))
      (then (return (i32.const 0))))
    ${POINTERS.map((n) => `(global.set $${n} (i32.add (global.get $${n}) (local.get $base)))`).join(' ')}
    (i32.const 1))`;
}

/** $shape: the arguments both kernels start with into the globals. */
function shape() {
  return `(func $shape (param $h i32) (param $J i32) (param $w i32) (param $sums i32) (param $B i32)
    (param $heads i32) (param $T i32) (param $W i32) (param $beta f64)
    (global.set $hp (local.get $h)) (global.set $Jp (local.get $J)) (global.set $wp (local.get $w))
    (global.set $sumsp (local.get $sums)) (global.set $B (local.get $B)) (global.set $heads (local.get $heads))
    (global.set $T (local.get $T)) (global.set $W (local.get $W)) (global.set $beta (local.get $beta))
    (global.set $S (i32.shl (i32.const 1) (local.get $W))) (global.set $H (i32.shr_u (global.get $S) (i32.const 1)))
    (global.set $Sb (i32.shl (global.get $S) (i32.const 4))) (global.set $Hb (i32.shr_u (global.get $Sb) (i32.const 1))))`;
}

const ARGS = `(param $h i32) (param $J i32) (param $w i32) (param $sums i32) (param $B i32) (param $heads i32)
    (param $T i32) (param $W i32) (param $beta f64)`;
const SHAPE_CALL = `(call $shape (local.get $h) (local.get $J) (local.get $w) (local.get $sums) (local.get $B)
      (local.get $heads) (local.get $T) (local.get $W) (local.get $beta))`;
const GROUPS = (body) => `(local.set $k0 (i32.const 0))
      (block $gd (loop $gl
        (br_if $gd (i32.ge_s (local.get $k0) (i32.mul (global.get $B) (global.get $T))))
        (call $groupLanes (local.get $hd) (local.get $k0))
        ${body}
        (local.set $k0 (i32.add (local.get $k0) (i32.const 4)))
        (br $gl)))`;
const HEADS = (body) => `(local.set $hd (i32.const 0))
    (block $hdd (loop $hdl
      (br_if $hdd (i32.ge_s (local.get $hd) (global.get $heads)))
      (call $headTable (local.get $hd))
      ${body}
      (local.set $hd (i32.add (local.get $hd) (i32.const 1)))
      (br $hdl)))`;

/** transfer_forward(h, J, w, sums, B, heads, T, W, β, scratch, bytes) → rows left, or −1. */
function forward() {
  return `(func (export "transfer_forward") ${ARGS} (param $scr i32) (param $bytes i32) (result f64)
    (local $hd i32) (local $k0 i32) (local $left i32)
    ${SHAPE_CALL}
    (if (i32.eqz (call $layout (local.get $scr) (local.get $bytes) (i32.const 0) (i32.const 0))) (then (return (f64.const -1))))
    ${HEADS(
      GROUPS(`(call $groupFields) (call $chainBack) (call $chainForward)
        (local.set $left (i32.add (local.get $left) (call $forwardRows (local.get $k0))))`),
    )}
    (f64.convert_i32_u (local.get $left)))`;
}

/** transfer_backward(h, J, w, sums, B, heads, T, W, β, gw, gh, gJ, segment, scratch, bytes) → 0, or −1. */
function backward() {
  return `(func (export "transfer_backward") ${ARGS} (param $gw i32) (param $gh i32) (param $gJ i32)
    (param $seg i32) (param $scr i32) (param $bytes i32) (result f64)
    (local $hd i32) (local $k0 i32) (local $start i32)
    ${SHAPE_CALL}
    (global.set $gwp (local.get $gw)) (global.set $ghp (local.get $gh)) (global.set $gJp (local.get $gJ))
    (if (i32.eqz (call $layout (local.get $scr) (local.get $bytes) (i32.const 1) (local.get $seg))) (then (return (f64.const -1))))
    (memory.fill (local.get $gJ) (i32.const 0) (i32.shl (i32.mul (global.get $heads) (i32.mul (global.get $T) (global.get $T))) (i32.const 2)))
    ${HEADS(`(memory.fill (global.get $gacc) (i32.const 0) (i32.shl (i32.mul (global.get $T) (global.get $W)) (i32.const 4)))
      ${GROUPS(`(call $killLeft) (call $groupFields) (call $groupDirection)
        (if (i32.le_s (global.get $nmax) (global.get $K)) (then
          (call $backWhole) (call $fwdStart) (call $vjpSegment (i32.const 0) (global.get $nmax)))
        (else
          (call $backCheckpoints) (call $fwdStart)
          (local.set $start (i32.const 0))
          (block $sd (loop $sl
            (br_if $sd (i32.ge_s (local.get $start) (global.get $nmax)))
            (call $backSegment (local.get $start) (select (i32.add (local.get $start) (global.get $K)) (global.get $nmax)
              (i32.lt_s (i32.add (local.get $start) (global.get $K)) (global.get $nmax))))
            (call $vjpSegment (local.get $start) (select (i32.add (local.get $start) (global.get $K)) (global.get $nmax)
              (i32.lt_s (i32.add (local.get $start) (global.get $K)) (global.get $nmax))))
            (local.set $start (i32.add (local.get $start) (global.get $K)))
            (br $sl)))))
        (call $backwardRows)`)}
      (call $writeGJ (local.get $hd))`)}
    (f64.const 0))`;
}

/** The module's text, on the caller's memory (the engine's one arena). */
export function transferWat() {
  const decls = [
    ...[...SHAPE, ...POINTERS, ...MORE].map((n) => [n, 'i32']),
    ['beta', 'f64'],
    ...VJP_GLOBALS,
  ];
  return arenaModule(
    globals(decls),
    expFunc(),
    shape(),
    layout(),
    lanesFuncs(),
    sweepFuncs(),
    vjpBackFuncs(),
    vjpForwardFuncs(),
    forward(),
    backward(),
  );
}
