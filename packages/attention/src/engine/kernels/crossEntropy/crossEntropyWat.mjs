// Writes the WebAssembly text of the engine's cross-entropy kernel, crossEntropy.wat beside it
// (compiled into crossEntropy{,Shared}Wasm.generated.ts by
// `pnpm --filter @boltzmann/attention build:wasm`). For each row z of logits
// with target t and weight w (the loss mask over its sum): writes the row's max, Σ exp(z − max)
// and z_t into three floats of `stats` (the caller takes the log in float64), then overwrites z by its
// gradient (softmax(z) − onehot(t)) w. exp is elementwiseWat's (Cephes' expf).
import { arenaModule, f32x4, get, i32, keys } from '../../../../../../tools/wasm/wat.mjs';
import { exp } from '../vectorMathWat.mjs';

/** Byte address of float `index` (an i32 expression) of `base`. */
const float = (base, index) => i32.add(get(base), `(i32.shl ${index} (i32.const 2))`);

function crossEntropy() {
  const body = [
    `(local.set $target (i32.load ${float('targets', get('row'))}))`,
    `(local.set $st ${float('stats', `(i32.mul ${get('row')} (i32.const 3))`)})`,
    `(f32.store offset=8 (local.get $st) (f32.load ${float('z', get('target'))}))`,
    `(local.set $acc (f32x4.splat (f32.const -inf)))`,
    keys('mx', (load) => `(local.set $acc (f32x4.max ${get('acc')} ${load('z')}))`),
    `(local.set $c (f32x4.splat ${f32x4.reduce('f32.max', get('acc'))}))`,
    `(local.set $acc (v128.const i32x4 0 0 0 0))`,
    keys(
      'ex',
      (load, store, lane0) =>
        `${exp(`(f32x4.sub ${load('z')} ${get('c')})`).replaceAll('$n', '$k')}
        ${store('z', get('e'))}
        (local.set $acc (f32x4.add ${get('acc')} ${lane0(get('e'))}))`,
    ),
    `(local.set $sum ${f32x4.reduce('f32.add', get('acc'))})`,
    `(local.set $weight (f32.load ${float('weights', get('row'))}))`,
    `(f32.store (local.get $st) (f32x4.extract_lane 0 ${get('c')}))`,
    `(f32.store offset=4 (local.get $st) (local.get $sum))`,
    `(local.set $c (f32x4.splat (f32.div ${get('weight')} ${get('sum')})))`,
    keys('sc', (load, store) => store('z', `(f32x4.mul ${load('z')} ${get('c')})`)),
    `(f32.store ${float('z', get('target'))} (f32.sub (f32.load ${float('z', get('target'))}) ${get('weight')}))`,
  ].join('\n');
  return `(func (export "cross_entropy") (param $z i32) (param $rows i32) (param $classes i32)
    (param $targets i32) (param $weights i32) (param $stats i32)
    (local $row i32) (local $n i32) (local $j i32) (local $o i32) (local $st i32) (local $target i32)
    (local $sum f32) (local $weight f32)
    (local $acc v128) (local $c v128) (local $e v128) (local $r v128) (local $k v128)
    (local.set $n ${get('classes')})
    (block $rd (loop $rl
      (br_if $rd (i32.ge_u ${get('row')} ${get('rows')}))
      ${body}
      (local.set $z ${i32.add(get('z'), `(i32.shl ${get('classes')} (i32.const 2))`)})
      (local.set $row ${i32.add(get('row'), '(i32.const 1)')})
      (br $rl))))`;
}

/** The module's text, on the caller's memory (the engine's one arena). */
export function crossEntropyWat() {
  return arenaModule(crossEntropy());
}
