// Writes the WebAssembly text of the engine's fused element-wise kernels, elementwise.wat beside
// it (compiled into elementwise{,Shared}Wasm.generated.ts by
// `pnpm --filter @boltzmann/attention build:wasm`). bias + GELU,
// forward and backward, over a row-major rows × cols matrix with a per-column bias; the
// residual add with its dropout mask, a masked copy, a scaled copy, column sums (a bias's gradient), the
// embedding's gather and scatter-add, and a bias laid down over rows. The GELU is
// the exact one the tfjs model uses (src/tfjs/layers.ts): ½ u (1 + erf(u/√2)), its gradient
// Φ(u) + u φ(u), with erf and exp from ../vectorMathWat.mjs. Columns go four at a time in
// f32x4; the last cols mod 4 columns run the same vector code on one splatted lane.

import { arenaModule, f32x4, get, i32 } from '../../../../../../tools/wasm/wat.mjs';
import { erfHalf, exp, f } from '../vectorMathWat.mjs';

const { mul } = f32x4;

/** Forward on $u: $y = ½ u (1 + erf(u/√2)). */
const forward = () =>
  [
    erfHalf(get('u')),
    `(local.set $y ${mul(mul(get('u'), f(0.5)), f32x4.add(get('t'), f(1)))})`,
  ].join('\n');

/** Φ(u) = ½(1 + erf(u/√2)) from $t = erf(u/√2), as the forward saves it and the backward uses it. */
const cdfOf = () => mul(f32x4.add(get('t'), f(1)), f(0.5));

/**
 * Backward on $u and $g (dy): $y = dy (Φ(u) + u exp(−u²/2)/√(2π)), with Φ(u) in $c when the
 * forward saved it (`saved`), else computed again from erf.
 */
const backward = (saved) =>
  [
    saved ? '' : `${erfHalf(get('u'))} (local.set $c ${cdfOf()})`,
    exp(mul(mul(get('u'), get('u')), f(-0.5))),
    `(local.set $y ${mul(
      get('g'),
      f32x4.add(get('c'), mul(get('u'), mul(get('e'), f(1 / Math.sqrt(2 * Math.PI))))),
    )})`,
  ].join('\n');

/**
 * One pass over a row: `load(lane)` reads the inputs into $u (and $g), `body` computes $y,
 * `store` writes it; vectors of four, then the scalar rest through lane 0.
 */
function rowLoop(vecLoad, vecStore, laneLoad, laneStore, body) {
  return `(local.set $j (i32.const 0))
    (block $vd (loop $vl
      (br_if $vd (i32.gt_u ${i32.add(get('j'), '(i32.const 4)')} ${get('cols')}))
      (local.set $o (i32.shl ${get('j')} (i32.const 2)))
      ${vecLoad}
      ${body}
      ${vecStore}
      (local.set $j ${i32.add(get('j'), '(i32.const 4)')})
      (br $vl)))
    (block $sd (loop $sl
      (br_if $sd (i32.ge_u ${get('j')} ${get('cols')}))
      (local.set $o (i32.shl ${get('j')} (i32.const 2)))
      ${laneLoad}
      ${body}
      ${laneStore}
      (local.set $j ${i32.add(get('j'), '(i32.const 1)')})
      (br $sl)))`;
}

const LOCALS = `(local $i i32) (local $j i32) (local $o i32) (local $row i32)
    (local $u v128) (local $g v128) (local $y v128) (local $t v128) (local $s v128)
    (local $e v128) (local $n v128) (local $r v128) (local $c v128)`;

const at = (base, off = get('o')) => i32.add(i32.add(get(base), get('row')), off);
const vload = (p) => `(v128.load align=4 ${p})`;
const lload = (p) => `(f32x4.splat (f32.load ${p}))`;

/**
 * y = gelu(x + b) and, when `save`, Φ(x + b) into cdf for the backward: x, y, cdf rows × cols
 * contiguous, b cols; byte addresses.
 */
function geluForward(save) {
  const bias = i32.add(get('b'), get('o'));
  const name = save ? 'bias_gelu_save' : 'bias_gelu';
  return `(func (export "${name}") (param $x i32) (param $b i32) (param $yp i32) (param $cdf i32)
    (param $rows i32) (param $cols i32)
    ${LOCALS}
    (block $id (loop $il
      (br_if $id (i32.ge_u ${get('i')} ${get('rows')}))
      (local.set $row (i32.shl (i32.mul ${get('i')} ${get('cols')}) (i32.const 2)))
      ${rowLoop(
        `(local.set $u ${f32x4.add(vload(at('x')), vload(bias))})`,
        `(v128.store align=4 ${at('yp')} ${get('y')})
         ${save ? `(v128.store align=4 ${at('cdf')} ${cdfOf()})` : ''}`,
        `(local.set $u ${f32x4.add(lload(at('x')), lload(bias))})`,
        `(f32.store ${at('yp')} (f32x4.extract_lane 0 ${get('y')}))
         ${save ? `(f32.store ${at('cdf')} (f32x4.extract_lane 0 ${cdfOf()}))` : ''}`,
        forward(),
      )}
      (local.set $i ${i32.add(get('i'), '(i32.const 1)')})
      (br $il))))`;
}

/**
 * dx = dy gelu'(x + b), db += Σ_rows dx (dx may alias dy); `saved`: Φ(x + b) is read from cdf
 * (the forward's) instead of computed again.
 */
function geluBackward(saved) {
  const bias = i32.add(get('b'), get('o'));
  const db = i32.add(get('db'), get('o'));
  const name = saved ? 'bias_gelu_backward_saved' : 'bias_gelu_backward';
  const cdf = (load) => (saved ? `(local.set $c ${load(at('cdf'))})` : '');
  return `(func (export "${name}") (param $x i32) (param $b i32) (param $cdf i32) (param $dy i32)
    (param $dx i32) (param $db i32) (param $rows i32) (param $cols i32)
    ${LOCALS}
    (block $id (loop $il
      (br_if $id (i32.ge_u ${get('i')} ${get('rows')}))
      (local.set $row (i32.shl (i32.mul ${get('i')} ${get('cols')}) (i32.const 2)))
      ${rowLoop(
        `(local.set $u ${f32x4.add(vload(at('x')), vload(bias))}) (local.set $g ${vload(at('dy'))}) ${cdf(vload)}`,
        `(v128.store align=4 ${at('dx')} ${get('y')})
         (v128.store align=4 ${db} ${f32x4.add(vload(db), get('y'))})`,
        `(local.set $u ${f32x4.add(lload(at('x')), lload(bias))}) (local.set $g ${lload(at('dy'))}) ${cdf(lload)}`,
        `(f32.store ${at('dx')} (f32x4.extract_lane 0 ${get('y')}))
         (f32.store ${db} (f32.add (f32.load ${db}) (f32x4.extract_lane 0 ${get('y')})))`,
        backward(saved),
      )}
      (local.set $i ${i32.add(get('i'), '(i32.const 1)')})
      (br $il))))`;
}

/** A loop over n floats, four at a time then one at a time: `body(load, store)` per step. */
function flatLoop(body) {
  const vec = body(
    (p) => `(v128.load align=4 (i32.add ${get(p)} ${get('o')}))`,
    (p, v) => `(v128.store align=4 (i32.add ${get(p)} ${get('o')}) ${v})`,
  );
  const lane = body(
    (p) => `(f32x4.splat (f32.load (i32.add ${get(p)} ${get('o')})))`,
    (p, v) => `(f32.store (i32.add ${get(p)} ${get('o')}) (f32x4.extract_lane 0 ${v}))`,
  );
  return `(local.set $end (i32.shl ${get('n')} (i32.const 2)))
    (block $vd (loop $vl
      (br_if $vd (i32.gt_u ${i32.add(get('o'), '(i32.const 16)')} ${get('end')}))
      ${vec}
      (local.set $o ${i32.add(get('o'), '(i32.const 16)')})
      (br $vl)))
    (block $sd (loop $sl
      (br_if $sd (i32.ge_u ${get('o')} ${get('end')}))
      ${lane}
      (local.set $o ${i32.add(get('o'), '(i32.const 4)')})
      (br $sl)))`;
}

/** out = x + y ⊙ mask (the residual with its dropout), or x + y when has_mask is 0; n floats. */
function residual() {
  return `(func (export "residual") (param $x i32) (param $y i32) (param $mask i32) (param $out i32)
    (param $n i32) (param $hasMask i32) (local $o i32) (local $end i32)
    (if ${get('hasMask')}
      (then ${flatLoop((load, store) => store('out', f32x4.add(load('x'), mul(load('y'), load('mask')))))})
      (else ${flatLoop((load, store) => store('out', f32x4.add(load('x'), load('y'))))})))`;
}

/** out = x ⊙ mask over n floats (dropout of a tensor, or of its gradient). */
function masked() {
  return `(func (export "masked") (param $x i32) (param $mask i32) (param $out i32) (param $n i32)
    (local $o i32) (local $end i32)
    ${flatLoop((load, store) => store('out', mul(load('x'), load('mask'))))})`;
}

/** out = s · x over n floats, s a float32 (the attention fields' 1/√d_k; out may be x). */
function scale() {
  return `(func (export "scale") (param $x i32) (param $out i32) (param $n i32) (param $s f32)
    (local $o i32) (local $end i32) (local $sv v128)
    (local.set $sv (f32x4.splat ${get('s')}))
    ${flatLoop((load, store) => store('out', mul(load('x'), get('sv'))))})`;
}

/** dst += Σ_rows src over a rows × cols matrix (a bias's gradient), four columns at a time. */
function columnSums() {
  return `(func (export "column_sums") (param $src i32) (param $rows i32) (param $cols i32) (param $dst i32)
    (local $i i32) (local $n i32) (local $o i32) (local $end i32) (local $row i32)
    (local.set $n ${get('cols')})
    (block $id (loop $il
      (br_if $id (i32.ge_u ${get('i')} ${get('rows')}))
      (local.set $o (i32.const 0))
      (local.set $row ${i32.add(get('src'), `(i32.shl (i32.mul ${get('i')} ${get('cols')}) (i32.const 2))`)})
      ${flatLoop((load, store) => store('dst', f32x4.add(load('dst'), load('row'))))}
      (local.set $i ${i32.add(get('i'), '(i32.const 1)')})
      (br $il))))`;
}

/** Bytes of `rows` rows of $d floats (an i32 expression). */
const rowBytes = (rows, d = get('d')) => `(i32.shl (i32.mul ${rows} ${d}) (i32.const 2))`;

/** A loop over i in [0, count): `body` per row; $o is reset for each row's flatLoop. */
const eachRow = (count, body) => `(block $id (loop $il
      (br_if $id (i32.ge_u ${get('i')} ${count}))
      ${body}
      (local.set $i ${i32.add(get('i'), '(i32.const 1)')})
      (br $il)))`;

/** The table row of token i (int32s at $tokens): $e = table + tokens[i] · d floats. */
const tokenRow = (table) =>
  `(local.set $e ${i32.add(get(table), rowBytes(`(i32.load ${i32.add(get('tokens'), '(i32.shl (local.get $i) (i32.const 2))')})`))})`;

/** x[i] = E[tokens[i]] (+ P[i mod length]) for i < count, rows of d floats. */
function embed() {
  return `(func (export "embed") (param $tokens i32) (param $table i32) (param $positions i32)
    (param $x i32) (param $count i32) (param $length i32) (param $d i32) (param $hasPositions i32)
    (local $i i32) (local $n i32) (local $o i32) (local $end i32) (local $e i32) (local $p i32) (local $row i32)
    (local.set $n ${get('d')})
    ${eachRow(
      get('count'),
      `(local.set $o (i32.const 0))
      (local.set $row ${i32.add(get('x'), rowBytes(get('i')))})
      ${tokenRow('table')}
      (if ${get('hasPositions')}
        (then
          (local.set $p ${i32.add(get('positions'), rowBytes(`(i32.rem_u ${get('i')} ${get('length')})`))})
          ${flatLoop((load, store) => store('row', f32x4.add(load('e'), load('p'))))})
        (else ${flatLoop((load, store) => store('row', load('e')))}))`,
    )})`;
}

/** dE[tokens[i]] += g[i] (and dP[i mod length] += g[i]) for i < count, in order of i. */
function embedBackward() {
  return `(func (export "embed_backward") (param $tokens i32) (param $g i32) (param $dTable i32)
    (param $dPositions i32) (param $count i32) (param $length i32) (param $d i32) (param $hasPositions i32)
    (local $i i32) (local $n i32) (local $o i32) (local $end i32) (local $e i32) (local $p i32) (local $row i32)
    (local.set $n ${get('d')})
    ${eachRow(
      get('count'),
      `(local.set $o (i32.const 0))
      (local.set $row ${i32.add(get('g'), rowBytes(get('i')))})
      ${tokenRow('dTable')}
      ${flatLoop((load, store) => store('e', f32x4.add(load('e'), load('row'))))}
      (if ${get('hasPositions')}
        (then
          (local.set $o (i32.const 0))
          (local.set $p ${i32.add(get('dPositions'), rowBytes(`(i32.rem_u ${get('i')} ${get('length')})`))})
          ${flatLoop((load, store) => store('p', f32x4.add(load('p'), load('row'))))}))`,
    )})`;
}

/** Every row of the rows × cols matrix y set to b (a bias laid down before a GEMM adds onto it). */
function biasRows() {
  return `(func (export "bias_rows") (param $b i32) (param $y i32) (param $rows i32) (param $cols i32)
    (local $i i32) (local $n i32) (local $o i32) (local $end i32) (local $row i32)
    (local.set $n ${get('cols')})
    ${eachRow(
      get('rows'),
      `(local.set $o (i32.const 0))
      (local.set $row ${i32.add(get('y'), rowBytes(get('i'), get('cols')))})
      ${flatLoop((load, store) => store('row', load('b')))}`,
    )})`;
}

/** The module's text, on the caller's memory (the engine's one arena). */
export function elementwiseWat() {
  return arenaModule(
    geluForward(false),
    geluForward(true),
    geluBackward(false),
    geluBackward(true),
    residual(),
    masked(),
    scale(),
    columnSums(),
    embed(),
    embedBackward(),
    biasRows(),
  );
}
