// The float32 approximations the WebAssembly kernels share, as f32x4 text over v128 locals: erf
// (Eigen's float rational approximation: odd degree-13 over even degree-8 polynomial, argument
// clamped to ±4) for the GELU, and exp (Cephes' expf: n = round(x log₂e), a degree-5 polynomial
// of the remainder, 2ⁿ built in the exponent bits) for the GELU's gradient, the causal rows and
// the cross-entropy.

import { f32x4, get } from '../../../../../tools/wasm/wat.mjs';

/** A splatted float32 constant. */
export const f = (v) => f32x4.splat(`(f32.const ${v})`);
const { mul } = f32x4;

/**
 * x clamped to [lo, hi] with the pseudo-min and -max (one x64 instruction each, where
 * `f32x4.min`/`max` take several to order NaNs and signed zeros). A NaN x stays NaN: each
 * compare is false and returns x.
 */
export const clamp = (x, lo, hi) => `(f32x4.pmax (f32x4.pmin ${x} ${f(hi)}) ${f(lo)})`;

/** Horner evaluation of Σ c[i] t^i (c from the highest degree down). */
function horner(t, coeffs) {
  let acc = f(coeffs[0]);
  for (const c of coeffs.slice(1)) acc = f32x4.add(mul(acc, t), f(c));
  return acc;
}

/**
 * Estrin's evaluation of Σ c[i] t^i (c from the highest degree down): pairs `c[k] t + c[k+1]`
 * combined with t², t⁴, …, so the dependency chain is about log₂ of Horner's.
 * `sq(level)` gives t^(2^level) (level ≥ 1) as an expression.
 */
function estrin(t, coeffs, sq) {
  // From the constant term up: terms[i] is the coefficient of t^i.
  let terms = [...coeffs].reverse().map((c) => f(c));
  let power = t;
  let level = 0;
  while (terms.length > 1) {
    const next = [];
    for (let i = 0; i < terms.length; i += 2)
      next.push(i + 1 < terms.length ? f32x4.add(mul(terms[i + 1], power), terms[i]) : terms[i]);
    terms = next;
    level += 1;
    power = sq(level);
  }
  return terms[0];
}

/** erf of the vector in local $u scaled by 1/√2, via $t (x) and $s (x²) as scratch. */
export function erfHalf(u) {
  const poly = (x, c) => estrin(x, c, (level) => get(level === 1 ? 'n' : 'r'));
  return [
    `(local.set $t ${clamp(mul(u, f(Math.SQRT1_2)), -4, 4)})`,
    `(local.set $s ${mul(get('t'), get('t'))})`,
    `(local.set $n ${mul(get('s'), get('s'))})`,
    `(local.set $r ${mul(get('n'), get('n'))})`,
    `(local.set $t (f32x4.div ${mul(
      get('t'),
      poly(get('s'), [
        '-2.72614225801306e-10',
        '2.77068142495902e-08',
        '-2.10102402082508e-06',
        '-5.69250639462346e-05',
        '-7.34990630326855e-04',
        '-2.95459980854025e-03',
        '-1.60960333262415e-02',
      ]),
    )} ${poly(get('s'), [
      '-1.45660718464996e-05',
      '-2.13374055278905e-04',
      '-1.68282697438203e-03',
      '-7.37332916720468e-03',
      '-1.42647390514189e-02',
    ])}))`,
  ].join('\n');
}

/** exp of the vector expression `x` into local $e, with $n and $r as scratch (v128 locals). */
export function exp(x) {
  return [
    `(local.set $r ${clamp(x, -87, 88)})`,
    `(local.set $n (f32x4.nearest ${mul(get('r'), f(Math.LOG2E))}))`,
    `(local.set $r (f32x4.sub ${get('r')} ${mul(get('n'), f('0.693359375'))}))`,
    `(local.set $r (f32x4.sub ${get('r')} ${mul(get('n'), f('-2.12194440e-4'))}))`,
    `(local.set $e ${horner(get('r'), [
      '1.9875691500e-4',
      '1.3981999507e-3',
      '8.3334519073e-3',
      '4.1665795894e-2',
      '1.6666665459e-1',
      '5.0000001201e-1',
    ])})`,
    `(local.set $e ${f32x4.add(f32x4.add(mul(mul(get('e'), get('r')), get('r')), get('r')), f(1))})`,
    `(local.set $e ${mul(
      get('e'),
      `(i32x4.shl (i32x4.add (i32x4.trunc_sat_f32x4_s ${get('n')}) (i32x4.splat (i32.const 127))) (i32.const 23))`,
    )})`,
  ].join('\n');
}
