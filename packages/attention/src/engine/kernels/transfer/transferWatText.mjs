// The WebAssembly-text vocabulary of the transfer-matrix kernels' writers (transferWat.mjs,
// transferSweepsWat.mjs, transferVjpWat.mjs): globals, loops, vector loads of the lane group's
// state vectors (one v128 a state: lane l is problem l of the group), the coupling table's
// broadcasts, the flush of tiny message entries and a float64 exp accurate to an ulp or two.

/** `(global.get $name)`, `(local.get $name)`, their setters. */
export const gg = (name) => `(global.get $${name})`;
export const lg = (name) => `(local.get $${name})`;
export const gs = (name, v) => `(global.set $${name} ${v})`;
export const ls = (name, v) => `(local.set $${name} ${v})`;

/** i32 arithmetic. */
export const add = (...xs) => xs.reduce((a, b) => `(i32.add ${a} ${b})`);
export const sub = (a, b) => `(i32.sub ${a} ${b})`;
export const mul = (a, b) => `(i32.mul ${a} ${b})`;
export const shl = (a, k) => `(i32.shl ${a} (i32.const ${k}))`;
export const c32 = (k) => `(i32.const ${k})`;

/** f32x4 arithmetic. */
export const vadd = (a, b) => `(f32x4.add ${a} ${b})`;
export const vsub = (a, b) => `(f32x4.sub ${a} ${b})`;
export const vmul = (a, b) => `(f32x4.mul ${a} ${b})`;
export const vdiv = (a, b) => `(f32x4.div ${a} ${b})`;
export const vneg = (a) => `(f32x4.neg ${a})`;
export const vsplat = (x) => `(v128.const f32x4 ${x} ${x} ${x} ${x})`;
export const VZERO = '(v128.const i32x4 0 0 0 0)';
export const vload = (at) => `(v128.load ${at})`;
export const vstore = (at, v) => `(v128.store ${at} ${v})`;
/** The table entry at byte `at` in every lane. */
export const tload = (at, offset = 0) => `(v128.load32_splat offset=${offset} ${at})`;
/** `S` in every lane. */
export const vstates = () => `(f32x4.convert_i32x4_u (i32x4.splat ${gg('S')}))`;

/**
 * Sets a local's lanes below 2^-60 in magnitude to 0 (`signed`: tangents; else messages, ≥ 0),
 * so no product of two entries is subnormal (WebAssembly has no flush-to-zero: a float32
 * subnormal costs a microcode assist per operation on x86). ising-core's transfer32.wat does the
 * same; in the kernels' range (every step factor within e^±16) a flushed entry is below 1e-9 of
 * its message's largest.
 */
export const flush = (name, signed = false) =>
  ls(
    name,
    `(v128.and ${lg(name)} (f32x4.ge ${signed ? `(f32x4.abs ${lg(name)})` : lg(name)} ${vsplat('0x1p-60')}))`,
  );

let labels = 0;
/** A fresh label. */
const label = () => `$L${labels++}`;

/** `for (i = from; i < end; i += step) body` (i32, signed compare). */
export function forUp(i, from, end, step, body) {
  const [done, again] = [label(), label()];
  return `${ls(i, from)}
    (block ${done} (loop ${again}
      (br_if ${done} (i32.ge_s ${lg(i)} ${end}))
      ${body}
      ${ls(i, add(lg(i), step))}
      (br ${again})))`;
}

/** `for (i = from; i >= last; i--) body` (i32, signed compare). */
export function forDown(i, from, last, body) {
  const [done, again] = [label(), label()];
  return `${ls(i, from)}
    (block ${done} (loop ${again}
      (br_if ${done} (i32.lt_s ${lg(i)} ${last}))
      ${body}
      ${ls(i, sub(lg(i), c32(1)))}
      (br ${again})))`;
}

/** Fills `count` vectors from byte `at` with `value` (a v128 expression without side effects). */
export const fillVectors = (at, count, value) =>
  forUp('x', c32(0), shl(count, 4), c32(16), vstore(add(at, lg('x')), value));

/** Mutable globals: `[name, type]` pairs. */
export function globals(list) {
  const init = { i32: '(i32.const 0)', f64: '(f64.const 0)', v128: VZERO };
  return list.map(([name, type]) => `(global $${name} (mut ${type}) ${init[type]})`).join('\n  ');
}

const factorial = (n) => (n <= 1 ? 1 : n * factorial(n - 1));

/**
 * exp of a float64, `$exp`: k = round(x / ln 2), r = x − k ln 2 (ln 2 in two parts, fdlibm's, so
 * k·ln2hi is exact), |r| ≤ ½ ln 2; e^r by its Taylor series to degree 13 (the remainder below
 * 5e-18 of e^r) in Horner's form; then times 2^k, built in the exponent bits in two halves so
 * that results near the ends of the range stay right. x is clamped to [−746, 710] first (0 and
 * +∞ beyond); NaN gives NaN. Agrees with libm's exp within a few ulps (tested against Math.exp).
 */
export function expFunc() {
  let poly = `(f64.const ${1 / factorial(13)})`;
  for (let d = 12; d >= 0; d--)
    poly = `(f64.add (f64.mul ${poly} ${lg('r')}) (f64.const ${1 / factorial(d)}))`;
  const pow2 = (k) =>
    `(f64.reinterpret_i64 (i64.shl (i64.extend_i32_s ${add(k, c32(1023))}) (i64.const 52)))`;
  return `(func $exp (param $x f64) (result f64) (local $k f64) (local $r f64) (local $n i32) (local $half i32)
    ${ls('x', '(f64.min (f64.max (local.get $x) (f64.const -746)) (f64.const 710))')}
    ${ls('k', '(f64.nearest (f64.mul (local.get $x) (f64.const 1.4426950408889634)))')}
    ${ls('r', '(f64.sub (f64.sub (local.get $x) (f64.mul (local.get $k) (f64.const 0.6931471803691238))) (f64.mul (local.get $k) (f64.const 1.9082149292705877e-10)))')}
    ${ls('n', '(i32.trunc_sat_f64_s (local.get $k))')}
    ${ls('half', '(i32.shr_s (local.get $n) (i32.const 1))')}
    (f64.mul (f64.mul ${poly} ${pow2(lg('half'))}) ${pow2(sub(lg('n'), lg('half')))}))`;
}

/**
 * transferChain.h's blocked sums: a state loop adds its terms into partial sums that it empties
 * into the outer ones every BLOCK pairs (j, a byte offset 16·pair; and after the loop,
 * `blockRest`), so a float32 sum over 2^W states loses about (BLOCK + 2^W/BLOCK)·ε, not 2^W·ε.
 * `sums` are [outer, partial] local names.
 */
export const BLOCK = 32;
const emptyInto = (sums) =>
  sums
    .map(
      ([outer, part]) => `${ls(outer, `(f32x4.add ${lg(outer)} ${lg(part)})`)} ${ls(part, VZERO)}`,
    )
    .join(' ');
export const blockFlush = (j, sums) =>
  `(if (i32.eq (i32.and ${lg(j)} (i32.const ${16 * BLOCK - 1})) (i32.const ${16 * (BLOCK - 1)})) (then ${emptyInto(sums)}))`;
export const blockRest = (sums) => emptyInto(sums);
