// Writes the WebAssembly text of the engine's LayerNorm kernels, layerNorm.wat beside it
// (compiled into layerNorm{,Shared}Wasm.generated.ts by
// `pnpm --filter @boltzmann/attention build:wasm`), as the tfjs model's
// (src/tfjs/layers.ts): over each row of cols floats, biased variance, ε = 1e-5,
// y = x̂ γ (+ β), x̂ = (x − μ) rstd. Forward: one sweep for the statistics (sums of x − x₀ and
// its square, shifted by the row's first entry so that E[d²] − E[d]² does not cancel for a row
// far from zero), one writing y; the row's μ and rstd are saved for the backward. Backward
// (llm.c's): one sweep for Σ g and Σ g x̂ (g = dy γ) that also accumulates dγ += dy x̂ and
// dβ += dy, one writing dx = (g − mean g − x̂ mean(g x̂)) rstd. Four columns at a time in f32x4,
// the rest scalar.

import { arenaModule, get, i32 } from '../../../../../../tools/wasm/wat.mjs';

/** The vector (f32x4) and scalar (f32) flavours a sweep's body is written in. */
const VEC = {
  op: 'f32x4',
  load: (p) => `(v128.load align=4 ${p})`,
  store: (p, v) => `(v128.store align=4 ${p} ${v})`,
  splat: (v) => `(f32x4.splat ${v})`,
  zero: '(v128.const i32x4 0 0 0 0)',
  acc: (n) => `$v${n}`,
};
const SCALAR = {
  op: 'f32',
  load: (p) => `(f32.load ${p})`,
  store: (p, v) => `(f32.store ${p} ${v})`,
  splat: (v) => v,
  zero: '(f32.const 0)',
  acc: (n) => `$s${n}`,
};

/** A sweep over the row's columns: `body(T)` with $o the byte offset of the column. */
function sweep(body) {
  return `(local.set $j (i32.const 0))
    (block $vd (loop $vl
      (br_if $vd (i32.gt_u ${i32.add(get('j'), '(i32.const 4)')} ${get('cols')}))
      (local.set $o (i32.shl ${get('j')} (i32.const 2)))
      ${body(VEC)}
      (local.set $j ${i32.add(get('j'), '(i32.const 4)')})
      (br $vl)))
    (block $sd (loop $sl
      (br_if $sd (i32.ge_u ${get('j')} ${get('cols')}))
      (local.set $o (i32.shl ${get('j')} (i32.const 2)))
      ${body(SCALAR)}
      (local.set $j ${i32.add(get('j'), '(i32.const 1)')})
      (br $sl)))`;
}

/** Zeroes accumulators 0 and 1 of both flavours. */
const zeroAccs = () =>
  [0, 1]
    .flatMap((n) => [`(local.set $v${n} ${VEC.zero})`, `(local.set $s${n} ${SCALAR.zero})`])
    .join(' ');

/** $s<n> += the four lanes of $v<n>. */
const fold = (n) =>
  `(local.set $s${n} (f32.add ${get(`s${n}`)} (f32.add (f32.add (f32x4.extract_lane 0 ${get(`v${n}`)}) (f32x4.extract_lane 1 ${get(`v${n}`)})) (f32.add (f32x4.extract_lane 2 ${get(`v${n}`)}) (f32x4.extract_lane 3 ${get(`v${n}`)})))))`;

/** acc += value in flavour T. */
const accum = (T, n, value) =>
  `(local.set ${T.acc(n)} (${T.op}.add (local.get ${T.acc(n)}) ${value}))`;

/** `(local.get $name)` in flavour T (the vector locals are the splats, $vname). */
const scalarOr = (T, name) => (T === VEC ? get(`v${name}`) : get(name));

/** x̂ = ((x − x₀) − (μ − x₀)) rstd at the current column in flavour T (forward: no rounding of μ). */
const xHatShifted = (T) =>
  `(${T.op}.mul (${T.op}.sub (${T.op}.sub ${T.load(i32.add(get('xr'), get('o')))} ${T === VEC ? get('vs0') : get('x0')}) ${scalarOr(T, 'm')}) ${scalarOr(T, 'r')})`;

/** x̂ = (x − μ) rstd at the current column in flavour T. */
const xHat = (T) =>
  `(${T.op}.mul (${T.op}.sub ${T.load(i32.add(get('xr'), get('o')))} ${scalarOr(T, 'mu')}) ${scalarOr(T, 'r')})`;

const LOCALS = `(local $i i32) (local $j i32) (local $o i32) (local $xr i32) (local $yr i32)
    (local $c f32) (local $x0 f32) (local $m f32) (local $mu f32) (local $r f32) (local $s0 f32)
    (local $s1 f32) (local $d f32) (local $vs0 v128) (local $v0 v128) (local $v1 v128)
    (local $vmu v128) (local $vr v128) (local $vm0 v128) (local $vm1 v128) (local $m0 f32)
    (local $m1 f32) (local $vd v128) (local $vm v128)`;

/** Statistics of row $xr into $mu, $r (and their splats). */
function statistics() {
  const d = (T) => (T === VEC ? '$vd' : '$d');
  return `(local.set $x0 (f32.load ${get('xr')}))
    (local.set $vs0 (f32x4.splat ${get('x0')}))
    ${zeroAccs()}
    ${sweep(
      (
        T,
      ) => `(local.set ${d(T)} (${T.op}.sub ${T.load(i32.add(get('xr'), get('o')))} ${T === VEC ? get('vs0') : get('x0')}))
      ${accum(T, 0, `(local.get ${d(T)})`)}
      ${accum(T, 1, `(${T.op}.mul (local.get ${d(T)}) (local.get ${d(T)}))`)}`,
    )}
    ${fold(0)} ${fold(1)}
    (local.set $m (f32.div ${get('s0')} ${get('c')}))
    (local.set $mu (f32.add ${get('x0')} ${get('m')}))
    (local.set $r (f32.div (f32.const 1) (f32.sqrt (f32.add (f32.const 1e-5)
      (f32.max (f32.const 0) (f32.sub (f32.div ${get('s1')} ${get('c')}) (f32.mul ${get('m')} ${get('m')})))))))
    (local.set $vm (f32x4.splat ${get('m')})) (local.set $vr (f32x4.splat ${get('r')}))`;
}

/** Forward: y = x̂ γ (+ β when $hasBeta), mean[i] = μ, rstd[i] = 1/√(var + ε). */
function forward() {
  const y = (T) => {
    const scaled = `(${T.op}.mul ${xHatShifted(T)} ${T.load(i32.add(get('gamma'), get('o')))})`;
    const type = T === VEC ? 'v128' : 'f32';
    const beta = `(select (result ${type}) ${T.load(i32.add(get('beta'), get('o')))} ${T.zero} ${get('hasBeta')})`;
    return T.store(i32.add(get('yr'), get('o')), `(${T.op}.add ${scaled} ${beta})`);
  };
  return `(func (export "layer_norm") (param $x i32) (param $gamma i32) (param $beta i32)
    (param $hasBeta i32) (param $y i32) (param $mean i32) (param $rstd i32) (param $rows i32)
    (param $cols i32)
    ${LOCALS}
    (local.set $c (f32.convert_i32_u ${get('cols')}))
    (block $id (loop $il
      (br_if $id (i32.ge_u ${get('i')} ${get('rows')}))
      (local.set $xr ${i32.add(get('x'), `(i32.shl (i32.mul ${get('i')} ${get('cols')}) (i32.const 2))`)})
      (local.set $yr ${i32.add(get('y'), `(i32.shl (i32.mul ${get('i')} ${get('cols')}) (i32.const 2))`)})
      ${statistics()}
      (f32.store ${i32.add(get('mean'), `(i32.shl ${get('i')} (i32.const 2))`)} ${get('mu')})
      (f32.store ${i32.add(get('rstd'), `(i32.shl ${get('i')} (i32.const 2))`)} ${get('r')})
      ${sweep(y)}
      (local.set $i ${i32.add(get('i'), '(i32.const 1)')})
      (br $il))))`;
}

/** Backward: dx = (g − mean g − x̂ mean(g x̂)) rstd, dγ += Σ dy x̂, dβ += Σ dy (when $hasBeta). */
function backward() {
  const at = (base) => i32.add(get(base), get('o'));
  const dyAt = () => i32.add(get('dyr'), get('o'));
  const g = (T) => `(${T.op}.mul ${T.load(dyAt())} ${T.load(at('gamma'))})`;
  const first = (T) => `${accum(T, 0, g(T))}
    ${accum(T, 1, `(${T.op}.mul ${g(T)} ${xHat(T)})`)}
    ${T.store(at('dgamma'), `(${T.op}.add ${T.load(at('dgamma'))} (${T.op}.mul ${T.load(dyAt())} ${xHat(T)}))`)}
    (if ${get('hasBeta')} (then ${T.store(at('dbeta'), `(${T.op}.add ${T.load(at('dbeta'))} ${T.load(dyAt())})`)}))`;
  const second = (T) =>
    T.store(
      i32.add(get('dxr'), get('o')),
      `(${T.op}.mul (${T.op}.sub (${T.op}.sub ${g(T)} ${scalarOr(T, 'm0')}) (${T.op}.mul ${xHat(T)} ${scalarOr(T, 'm1')})) ${scalarOr(T, 'r')})`,
    );
  const row = (p) =>
    i32.add(get(p), `(i32.shl (i32.mul ${get('i')} ${get('cols')}) (i32.const 2))`);
  const perRow = (p) => `(f32.load ${i32.add(get(p), `(i32.shl ${get('i')} (i32.const 2))`)})`;
  return `(func (export "layer_norm_backward") (param $x i32) (param $gamma i32) (param $mean i32)
    (param $rstd i32) (param $dy i32) (param $dx i32) (param $dgamma i32) (param $dbeta i32)
    (param $hasBeta i32) (param $rows i32) (param $cols i32)
    ${LOCALS} (local $dyr i32) (local $dxr i32)
    (local.set $c (f32.convert_i32_u ${get('cols')}))
    (block $id (loop $il
      (br_if $id (i32.ge_u ${get('i')} ${get('rows')}))
      (local.set $xr ${row('x')}) (local.set $dyr ${row('dy')}) (local.set $dxr ${row('dx')})
      (local.set $mu ${perRow('mean')}) (local.set $r ${perRow('rstd')})
      (local.set $vmu (f32x4.splat ${get('mu')})) (local.set $vr (f32x4.splat ${get('r')}))
      ${zeroAccs()}
      ${sweep(first)}
      ${fold(0)} ${fold(1)}
      (local.set $m0 (f32.div ${get('s0')} ${get('c')})) (local.set $m1 (f32.div ${get('s1')} ${get('c')}))
      (local.set $vm0 (f32x4.splat ${get('m0')})) (local.set $vm1 (f32x4.splat ${get('m1')}))
      ${sweep(second)}
      (local.set $i ${i32.add(get('i'), '(i32.const 1)')})
      (br $il))))`;
}

/** The module's text, on the caller's memory (the engine's one arena). */
export function layerNormWat() {
  return arenaModule(forward(), backward());
}
