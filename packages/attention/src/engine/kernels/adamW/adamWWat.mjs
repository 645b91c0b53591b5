// Writes the WebAssembly text of the engine's optimizer kernels, adamW.wat beside it (compiled
// into adamW{,Shared}Wasm.generated.ts by `pnpm --filter @boltzmann/attention build:wasm`): one AdamW update over a
// run of n floats (n a multiple of 4: the engine's slots are padded with zeros, which stay zero)
// of parameters, gradients and the two moments, as the tfjs trainer's update
// (src/model/adamW.ts); Σ g² in float64 for the global gradient norm; and dst += src, which
// sums the threads' gradient buffers.

import { arenaModule, f32x4, get } from '../../../../../../tools/wasm/wat.mjs';

const splat = (name) => f32x4.splat(get(name));
const { mul } = f32x4;
const load = (base) => `(v128.load align=4 (i32.add ${get(base)} ${get('o')}))`;
const store = (base, v) => `(v128.store align=4 (i32.add ${get(base)} ${get('o')}) ${v})`;

/**
 * g ← s·g; m ← β1 m + (1 − β1) g; v ← β2 v + (1 − β2) g²; p ← p·keep − lr (m/c1)/(√(v/c2) + ε),
 * with the loop's constants splatted once and the two bias corrections as products
 * (m·(lr/c1), v·(1/c2)): one division and one square root per vector.
 */
function adamW() {
  const constants = {
    kScale: splat('scale'),
    kB1: splat('b1'),
    kA1: `(f32x4.splat (f32.sub (f32.const 1) ${get('b1')}))`,
    kB2: splat('b2'),
    kA2: `(f32x4.splat (f32.sub (f32.const 1) ${get('b2')}))`,
    kStep: `(f32x4.splat (f32.div ${get('lr')} ${get('c1')}))`,
    kC2: `(f32x4.splat (f32.div (f32.const 1) ${get('c2')}))`,
    kEps: splat('eps'),
    kKeep: splat('keep'),
  };
  const names = Object.keys(constants);
  return `(func (export "adamw") (param $p i32) (param $g i32) (param $m i32) (param $v i32)
    (param $n i32) (param $lr f32) (param $b1 f32) (param $b2 f32) (param $eps f32) (param $keep f32)
    (param $c1 f32) (param $c2 f32) (param $scale f32)
    (local $o i32) (local $end i32) (local $gv v128) (local $mv v128) (local $vv v128)
    ${names.map((k) => `(local $${k} v128)`).join(' ')}
    ${names.map((k) => `(local.set $${k} ${constants[k]})`).join('\n    ')}
    (local.set $end (i32.shl ${get('n')} (i32.const 2)))
    (block $d (loop $l
      (br_if $d (i32.ge_u ${get('o')} ${get('end')}))
      (local.set $gv ${mul(load('g'), get('kScale'))})
      (local.set $mv ${f32x4.add(mul(load('m'), get('kB1')), mul(get('gv'), get('kA1')))})
      (local.set $vv ${f32x4.add(mul(load('v'), get('kB2')), mul(mul(get('gv'), get('gv')), get('kA2')))})
      ${store('m', get('mv'))}
      ${store('v', get('vv'))}
      ${store(
        'p',
        `(f32x4.sub ${mul(load('p'), get('kKeep'))} (f32x4.div ${mul(get('mv'), get('kStep'))} ${f32x4.add(`(f32x4.sqrt ${mul(get('vv'), get('kC2'))})`, get('kEps'))}))`,
      )}
      (local.set $o (i32.add ${get('o')} (i32.const 16)))
      (br $l))))`;
}

/** Σ g² over n floats (a multiple of 4), each square and sum in float64. */
function sumSquares() {
  const half = (which) =>
    `(local.set $acc (f64x2.add ${get('acc')} (f64x2.mul (local.tee $h (f64x2.promote_low_f32x4 ${which})) ${get('h')})))`;
  return `(func (export "sum_squares") (param $g i32) (param $n i32) (result f64)
    (local $o i32) (local $end i32) (local $x v128) (local $h v128) (local $acc v128)
    (local.set $end (i32.shl ${get('n')} (i32.const 2)))
    (block $d (loop $l
      (br_if $d (i32.ge_u ${get('o')} ${get('end')}))
      (local.set $x ${load('g')})
      ${half(get('x'))}
      ${half(`(i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 ${get('x')} ${get('x')})`)}
      (local.set $o (i32.add ${get('o')} (i32.const 16)))
      (br $l)))
    (f64.add (f64x2.extract_lane 0 ${get('acc')}) (f64x2.extract_lane 1 ${get('acc')})))`;
}

/** dst += src over n floats (a multiple of 4): the threads' gradients summed into one buffer. */
function addInto() {
  return `(func (export "add_into") (param $dst i32) (param $src i32) (param $n i32)
    (local $o i32) (local $end i32)
    (local.set $end (i32.shl ${get('n')} (i32.const 2)))
    (block $d (loop $l
      (br_if $d (i32.ge_u ${get('o')} ${get('end')}))
      ${store('dst', f32x4.add(load('dst'), load('src')))}
      (local.set $o (i32.add ${get('o')} (i32.const 16)))
      (br $l))))`;
}

/** The module's text, on the caller's memory (the engine's one arena). */
export function adamWWat() {
  return arenaModule(adamW(), sumSquares(), addInto());
}
