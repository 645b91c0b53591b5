// Writes the WebAssembly text of the engine's causal softmax kernels, softmax.wat beside it
// (compiled into softmax{,Shared}Wasm.generated.ts by
// `pnpm --filter @boltzmann/attention build:wasm`). Over `rows` rows of
// T × T blocks (row r is query i = r mod T): w_ij = softmax_j(β h_ij) over j ≤ i, zero above;
// the backward gh_ij = β w_ij (gw_ij − Σ_k w_ik gw_ik), zero above. exp is elementwiseWat's
// (Cephes' expf). Keys go four at a time in f32x4; the last (i + 1) mod 4 through lane 0.
import { arenaModule, f32x4, get, i32, keys } from '../../../../../../tools/wasm/wat.mjs';
import { exp } from '../elementwise/elementwiseWat.mjs';

/** Zeros keys $n … T − 1 of the current row of `base`. */
const zeroAbove = (base) =>
  `(memory.fill ${i32.add(get(base), `(i32.shl ${get('n')} (i32.const 2))`)} (i32.const 0) (i32.shl (i32.sub ${get('t')} ${get('n')}) (i32.const 2)))`;

/** Every row: $n = (row mod T) + 1 keys; afterwards the pointers advance one row. */
function rows(pointers, body) {
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

const LOCALS = `(local $row i32) (local $n i32) (local $j i32) (local $o i32)
    (local $bv v128) (local $acc v128) (local $c v128) (local $e v128) (local $r v128) (local $k v128)`;

/** The forward: w = causal softmax(β h); h, w byte addresses; rows = blocks · T. */
function forward() {
  const beta = (load) => `(f32x4.mul ${load('h')} ${get('bv')})`;
  // exp() of elementwiseWat uses $r, $n and $e; $n is this kernel's key count, so it is $k here.
  const expOf = (x) => exp(x).replaceAll('$n', '$k');
  const body = [
    `(local.set $acc (f32x4.splat (f32.const -inf)))`,
    keys('mx', (load) => `(local.set $acc (f32x4.max ${get('acc')} ${beta(load)}))`),
    `(local.set $c (f32x4.splat ${f32x4.reduce('f32.max', get('acc'))}))`,
    `(local.set $acc (v128.const i32x4 0 0 0 0))`,
    keys(
      'ex',
      (load, store, lane0) =>
        `${expOf(`(f32x4.sub ${beta(load)} ${get('c')})`)}
        ${store('w', get('e'))}
        (local.set $acc (f32x4.add ${get('acc')} ${lane0(get('e'))}))`,
    ),
    `(local.set $c (f32x4.splat (f32.div (f32.const 1) ${f32x4.reduce('f32.add', get('acc'))})))`,
    keys('sc', (load, store) => store('w', `(f32x4.mul ${load('w')} ${get('c')})`)),
    zeroAbove('w'),
  ].join('\n');
  return `(func (export "causal_softmax") (param $h i32) (param $w i32) (param $rows i32)
    (param $t i32) (param $beta f32)
    ${LOCALS}
    (local.set $bv (f32x4.splat ${get('beta')}))
    ${rows(['h', 'w'], body)})`;
}

/** The backward: gh = β w (gw − Σ w gw) per row; w, gw, gh byte addresses (gh may be gw). */
function backward() {
  const body = [
    `(local.set $acc (v128.const i32x4 0 0 0 0))`,
    keys(
      'dt',
      (load, _store, lane0) =>
        `(local.set $acc (f32x4.add ${get('acc')} ${lane0(`(f32x4.mul ${load('w')} ${load('gw')})`)}))`,
    ),
    `(local.set $c (f32x4.splat ${f32x4.reduce('f32.add', get('acc'))}))`,
    keys('gr', (load, store) =>
      store(
        'gh',
        `(f32x4.mul (f32x4.mul ${load('w')} ${get('bv')}) (f32x4.sub ${load('gw')} ${get('c')}))`,
      ),
    ),
    zeroAbove('gh'),
  ].join('\n');
  return `(func (export "causal_softmax_backward") (param $w i32) (param $gw i32) (param $gh i32)
    (param $rows i32) (param $t i32) (param $beta f32)
    ${LOCALS}
    (local.set $bv (f32x4.splat ${get('beta')}))
    ${rows(['w', 'gw', 'gh'], body)})`;
}

/** The module's text, on the caller's memory (the engine's one arena). */
export function softmaxWat() {
  return arenaModule(forward(), backward());
}
