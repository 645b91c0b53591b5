// The WebAssembly text of the engine's causal sigmoid kernels, exported from softmax.wat beside
// the softmax's (softmaxWat.mjs), as softmax.c's causal_sigmoid{,_backward} compute them (see
// there): α = σ(x), x = 2β h, each as α e^{−c} = E / (1 + E e^c), E = exp(2β (h − m)),
// m = min(max h, 0), c = 2β m; w = α / Σα, or zero where ising-core's float64 Σα < 1e-300; the backward
// gh = 2β w (gw − Σ w gw) / (1 + exp(x)). Keys go four at a time; the last (i + 1) mod 4 through
// lane 0 (a splat, whose other lanes are computed and dropped).
import { f32x4, get, keys } from '../../../../../../tools/wasm/wat.mjs';
import { LOCALS, expOf, flushTiny, rowDot, rows, zeroAbove } from './causalRowsWat.mjs';

/** ln 1e-300: ising-core's MIN_ALPHA_SUM, as the exponent of the row's scaled sum. */
const LN_MIN_ALPHA_SUM = '-690.775527898';

const SIGMOID_LOCALS = `${LOCALS} (local $s v128) (local $top f32) (local $sum f32)`;

/** exp of the scalar `x` (an f32 expression) into every lane of $e, by exp on its splat. */
const scalarExp = (x) => expOf(f32x4.splat(x));

/** The forward: w = α / Σα per row, α = σ(2β h); h, w byte addresses; rows = blocks · T. */
export function sigmoidForward() {
  const x = (load) => `(f32x4.mul (f32x4.sub ${load('h')} ${get('c')}) ${get('bv')})`;
  const body = [
    `(local.set $acc (f32x4.splat (f32.const -inf)))`,
    keys('mx', (load) => `(local.set $acc (f32x4.max ${get('acc')} ${load('h')}))`),
    // $c: m = min(max h, 0) in every lane; $top: c = 2β m.
    `(local.set $c (f32x4.splat (f32.min ${f32x4.reduce('f32.max', get('acc'))} (f32.const 0))))`,
    `(local.set $top (f32.mul (f32x4.extract_lane 0 ${get('c')}) (f32x4.extract_lane 0 ${get('bv')})))`,
    scalarExp(get('top')),
    `(local.set $s ${get('e')})`,
    `(local.set $acc (v128.const i32x4 0 0 0 0))`,
    keys(
      'ex',
      (load, store, lane0) =>
        `${expOf(x(load))}
        (local.set $e (f32x4.div ${get('e')} ${f32x4.add(f32x4.splat('(f32.const 1)'), f32x4.mul(get('e'), get('s')))}))
        ${store('w', get('e'))}
        (local.set $acc (f32x4.add ${get('acc')} ${lane0(get('e'))}))`,
    ),
    `(local.set $sum ${f32x4.reduce('f32.add', get('acc'))})`,
    scalarExp(`(f32.sub (f32.const ${LN_MIN_ALPHA_SUM}) ${get('top')})`),
    `(local.set $c (f32x4.splat (select (f32.div (f32.const 1) ${get('sum')}) (f32.const 0)
      (f32.ge ${get('sum')} (f32x4.extract_lane 0 ${get('e')})))))`,
    keys('sc', (load, store) => store('w', flushTiny(`(f32x4.mul ${load('w')} ${get('c')})`))),
    zeroAbove('w'),
  ].join('\n');
  return `(func (export "causal_sigmoid") (param $h i32) (param $w i32) (param $rows i32)
    (param $t i32) (param $beta f32)
    ${SIGMOID_LOCALS}
    (local.set $bv (f32x4.splat (f32.mul (f32.const 2) ${get('beta')})))
    ${rows(['h', 'w'], body)})`;
}

/** The backward: gh = 2β w (gw − Σ w gw) / (1 + exp(2β h)) per row (gh may be gw). */
export function sigmoidBackward() {
  const body = [
    ...rowDot(),
    keys(
      'gr',
      (load, store) =>
        `${expOf(`(f32x4.mul ${load('h')} ${get('bv')})`)}
        ${store(
          'gh',
          flushTiny(
            `(f32x4.div (f32x4.mul (f32x4.mul ${load('w')} ${get('bv')}) (f32x4.sub ${load('gw')} ${get('c')})) ${f32x4.add(f32x4.splat('(f32.const 1)'), get('e'))})`,
          ),
        )}`,
    ),
    zeroAbove('gh'),
  ].join('\n');
  return `(func (export "causal_sigmoid_backward") (param $h i32) (param $w i32) (param $gw i32)
    (param $gh i32) (param $rows i32) (param $t i32) (param $beta f32)
    ${SIGMOID_LOCALS}
    (local.set $bv (f32x4.splat (f32.mul (f32.const 2) ${get('beta')})))
    ${rows(['h', 'w', 'gw', 'gh'], body)})`;
}
