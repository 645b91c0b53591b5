// Writes the WebAssembly text of the engine's causal softmax and sigmoid kernels, softmax.wat
// beside it (compiled into softmax{,Shared}Wasm.generated.ts by
// `pnpm --filter @boltzmann/attention build:wasm`). Over `rows` rows of
// T × T blocks (row r is query i = r mod T): w_ij = softmax_j(β h_ij) over j ≤ i, zero above;
// the backward gh_ij = β w_ij (gw_ij − Σ_k w_ik gw_ik), zero above. The sigmoid's
// (sigmoidWat.mjs) are exported beside them. exp is elementwiseWat's (Cephes' expf). Keys go
// four at a time in f32x4; the last (i + 1) mod 4 through lane 0. Weights and gradients below
// 2^−126 are stored as 0 (causalRowsWat.mjs flushTiny).
import { arenaModule, f32x4, get, keys } from '../../../../../../tools/wasm/wat.mjs';
import { LOCALS, expOf, flushTiny, rowDot, rows, zeroAbove } from './causalRowsWat.mjs';
import { sigmoidBackward, sigmoidForward } from './sigmoidWat.mjs';

/** The forward: w = causal softmax(β h); h, w byte addresses; rows = blocks · T. */
function forward() {
  const beta = (load) => `(f32x4.mul ${load('h')} ${get('bv')})`;
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
    keys('sc', (load, store) => store('w', flushTiny(`(f32x4.mul ${load('w')} ${get('c')})`))),
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
    ...rowDot(),
    keys('gr', (load, store) =>
      store(
        'gh',
        flushTiny(
          `(f32x4.mul (f32x4.mul ${load('w')} ${get('bv')}) (f32x4.sub ${load('gw')} ${get('c')}))`,
        ),
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
  return arenaModule(forward(), backward(), sigmoidForward(), sigmoidBackward());
}
