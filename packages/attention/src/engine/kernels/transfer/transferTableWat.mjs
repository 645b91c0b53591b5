// The transfer-matrix WAT kernels' coupling table, transfer.c's head_table and
// couplings_in_range: a head's table of every position (its couplings in float32, for the sweeps)
// with the head's coupling bounds, and whether a problem's couplings keep the float32 pass's
// bounds (else its row goes to the sampler). The lanes' scalar parts are transferLanesWat.mjs.
import { c32, forUp, gg as g, lg, ls } from './transferWatText.mjs';

/**
 * The couplings' step bound: 12 here, not the native kernels' 16 (ising-core's FLOAT32_STEP_RANGE).
 * The flush of entries below 2^-60 (not the CPU's 2^-126) cost digits of ∂L/∂J with keys' β Σ|J|
 * at 15.9 and fields to 1e3 (measured: 6.0e-4 of the largest, native 4.8e-7); at 12, 7.7e-7.
 */
const STEP_RANGE = 12;
const LINEAR_RANGE = 250; // ising-core's LINEAR_RANGE
/**
 * Every coupling's β|J|, as the native float32 pass's PAIR_RANGE (transferLanes.h): without it
 * rows whose keys kept the step bound but had one strong coupling lost ∂L/∂h to 1.3e-4 of the
 * head's largest, with it 4.7e-6 (scripts/transferPrecision.ts --backend wat); those rows now
 * go to the sampler.
 */
const PAIR_RANGE = 1.5;

/** A float32 at byte address `a`, as a double. */
export const f32at = (a) => `(f64.promote_f32 (f32.load ${a}))`;
/** The coupling J[t − W + b][t] of the head's table at $jp (0 before the chain's start). */
const coupling = `(if (result f64) (i32.ge_s ${lg('r')} (i32.const 0))
        (then ${f32at(`(i32.add ${lg('jp')} (i32.shl (i32.add (i32.mul ${lg('r')} ${g('T')}) ${lg('t')}) (i32.const 2)))`)})
        (else (f64.const 0)))`;

/** head_table: the table of every position and the head's coupling bounds ($headBounds); $jhead: its couplings. */
export function headTable() {
  const row = (arr, x) => `(i32.add ${g(arr)} (i32.shl ${x} (i32.const 3)))`;
  const entry = (k, arr, x) =>
    `(f32.store offset=${4 * k} (i32.add ${lg('tb')} (i32.shl ${lg('j')} (i32.const 4))) (f32.demote_f64 (f64.load ${row(arr, x)})))`;
  const twoJ = `(i32.shl ${lg('j')} (i32.const 1))`;
  return `(func $headTable (param $hd i32) (local $t i32) (local $b i32) (local $x i32) (local $j i32) (local $r i32)
    (local $half i32) (local $jp i32) (local $tb i32) (local $v f64) (local $c0 f64) (local $f f64) (local $gd f64)
    ${ls('jp', `(i32.add ${g('Jp')} (i32.shl (i32.mul ${lg('hd')} (i32.mul ${g('T')} ${g('T')})) (i32.const 2)))`)}
    (global.set $jhead ${lg('jp')})
    ${forUp(
      't',
      c32(0),
      g('T'),
      c32(1),
      `${ls('c0', '(f64.const 0)')}
      ${forUp(
        'b',
        c32(0),
        g('W'),
        c32(1),
        `${ls('r', `(i32.add (i32.sub ${lg('t')} ${g('W')}) ${lg('b')})`)}
        ${ls('v', coupling)}
        ${ls('c0', `(f64.sub ${lg('c0')} ${lg('v')})`)}`,
      )}
      (f64.store ${g('tup')} (call $exp (f64.mul ${g('beta')} ${lg('c0')})))
      (f64.store ${g('tdown')} (call $exp (f64.mul (f64.neg ${g('beta')}) ${lg('c0')})))
      ${forUp(
        'b',
        c32(0),
        g('W'),
        c32(1),
        `${ls('half', `(i32.shl (i32.const 1) ${lg('b')})`)}
        ${ls('r', `(i32.add (i32.sub ${lg('t')} ${g('W')}) ${lg('b')})`)}
        ${ls('v', coupling)}
        ${ls('f', `(call $exp (f64.mul (f64.mul (f64.const 2) ${g('beta')}) ${lg('v')}))`)}
        ${ls('gd', `(call $exp (f64.mul (f64.mul (f64.const -2) ${g('beta')}) ${lg('v')}))`)}
        ${forUp(
          'x',
          c32(0),
          lg('half'),
          c32(1),
          `(f64.store ${row('tup', `(i32.add ${lg('x')} ${lg('half')})`)} (f64.mul (f64.load ${row('tup', lg('x'))}) ${lg('f')}))
          (f64.store ${row('tdown', `(i32.add ${lg('x')} ${lg('half')})`)} (f64.mul (f64.load ${row('tdown', lg('x'))}) ${lg('gd')}))`,
        )}`,
      )}
      ${ls('tb', `(i32.add ${g('tbl')} (i32.shl (i32.mul ${lg('t')} ${g('S')}) (i32.const 3)))`)}
      ${forUp(
        'j',
        c32(0),
        g('H'),
        c32(1),
        `${entry(0, 'tdown', twoJ)} ${entry(1, 'tdown', `(i32.add ${twoJ} (i32.const 1))`)}
        ${entry(2, 'tup', twoJ)} ${entry(3, 'tup', `(i32.add ${twoJ} (i32.const 1))`)}`,
      )}`,
    )}
    (call $headBounds))`;
}

/** Byte address of double k of the region at global `crow` (crow, cmax, wmax, jmax: T each; then 33 for a row's last keys). */
const dbl = (k) => `(i32.add ${g('crow')} (i32.shl ${k} (i32.const 3)))`;
const CMAX = (t) => dbl(`(i32.add ${g('T')} ${t})`);
const WMAX = (t) => dbl(`(i32.add (i32.shl ${g('T')} (i32.const 1)) ${t})`);
const JMAX = (t) => dbl(`(i32.add (i32.mul ${g('T')} (i32.const 3)) ${t})`);
const CTAIL = (k) => dbl(`(i32.add (i32.shl ${g('T')} (i32.const 2)) ${k})`);
/** max(a, b), or a NaN if either is one (transfer's nan_max). */
const nanMax = (a, b) => `(call $nanMax ${a} ${b})`;
const lower = (x) => `(select ${x} (i32.const 0) (i32.gt_s ${x} (i32.const 0)))`;

/**
 * key_coupling, head_bounds and couplings_in_range (transferLanes.h): Σ|J| over key t's band both
 * ways to keys < n; a head's tables at its full length (crow, and the running largest key value,
 * W + 1-key window sum and |J|, NaNs carried); and whether a problem of n keys keeps the bounds
 * (its last W keys recomputed into the 33 doubles after them). A NaN fails.
 */
export function couplingBounds() {
  const J = (r, c) =>
    `(f64.abs ${f32at(`(i32.add ${g('jhead')} (i32.shl (i32.add (i32.mul ${r} ${g('T')}) ${c}) (i32.const 2)))`)})`;
  const lastOut = `(select (i32.add ${lg('t')} ${g('W')}) (i32.sub ${lg('n')} (i32.const 1)) (i32.lt_s (i32.add ${lg('t')} ${g('W')}) (i32.sub ${lg('n')} (i32.const 1))))`;
  const windowSum = (at, e) =>
    `${ls('w', '(f64.const 0)')}
      ${forUp('k', lower(`(i32.sub ${e} ${g('W')})`), `(i32.add ${e} (i32.const 1))`, c32(1), ls('w', `(f64.add ${lg('w')} (f64.load ${at(lg('k'))}))`))}`;
  return `(func $nanMax (param $a f64) (param $b f64) (result f64)
    (select (local.get $a) (local.get $b) (i32.or (f64.gt (local.get $a) (local.get $b)) (f64.ne (local.get $a) (local.get $a)))))
  (func $keyCoupling (param $t i32) (param $n i32) (result f64) (local $r i32) (local $c f64)
    ${forUp('r', lower(`(i32.sub ${lg('t')} ${g('W')})`), lg('t'), c32(1), ls('c', `(f64.add ${lg('c')} ${J(lg('r'), lg('t'))})`))}
    ${forUp('r', `(i32.add ${lg('t')} (i32.const 1))`, `(i32.add ${lastOut} (i32.const 1))`, c32(1), ls('c', `(f64.add ${lg('c')} ${J(lg('t'), lg('r'))})`))}
    ${lg('c')})
  (func $headBounds (local $t i32) (local $k i32) (local $r i32) (local $w f64) (local $j f64)
    ${forUp(
      't',
      c32(0),
      g('T'),
      c32(1),
      `(f64.store ${dbl(lg('t'))} (call $keyCoupling ${lg('t')} ${g('T')}))
      ${windowSum(dbl, lg('t'))}
      ${ls('j', '(f64.const 0)')}
      ${forUp('r', lower(`(i32.sub ${lg('t')} ${g('W')})`), lg('t'), c32(1), ls('j', nanMax(J(lg('r'), lg('t')), lg('j'))))}
      (if (i32.eqz ${lg('t')}) (then
        (f64.store ${CMAX(lg('t'))} (f64.load ${dbl(lg('t'))}))
        (f64.store ${WMAX(lg('t'))} ${lg('w')})
        (f64.store ${JMAX(lg('t'))} ${lg('j')}))
      (else
        (f64.store ${CMAX(lg('t'))} ${nanMax(`(f64.load ${dbl(lg('t'))})`, `(f64.load ${CMAX(`(i32.sub ${lg('t')} (i32.const 1))`)})`)})
        (f64.store ${WMAX(lg('t'))} ${nanMax(lg('w'), `(f64.load ${WMAX(`(i32.sub ${lg('t')} (i32.const 1))`)})`)})
        (f64.store ${JMAX(lg('t'))} ${nanMax(lg('j'), `(f64.load ${JMAX(`(i32.sub ${lg('t')} (i32.const 1))`)})`)})))`,
    )})
  (func $couplingsInRange (param $n i32) (result i32) (local $tail i32) (local $k0 i32) (local $k i32) (local $e i32)
    (local $c f64) (local $w f64) (local $big f64) (local $wbig f64)
    ${ls('tail', lower(`(i32.sub ${lg('n')} ${g('W')})`))}
    ${ls('k0', lower(`(i32.sub ${lg('tail')} ${g('W')})`))}
    (if (i32.gt_s ${lg('tail')} (i32.const 0)) (then
      ${ls('big', `(f64.load ${CMAX(`(i32.sub ${lg('tail')} (i32.const 1))`)})`)}
      ${ls('wbig', `(f64.load ${WMAX(`(i32.sub ${lg('tail')} (i32.const 1))`)})`)}))
    ${forUp(
      'k',
      lg('k0'),
      lg('n'),
      c32(1),
      `(if (i32.lt_s ${lg('k')} ${lg('tail')})
        (then ${ls('c', `(f64.load ${dbl(lg('k'))})`)})
        (else ${ls('c', `(call $keyCoupling ${lg('k')} ${lg('n')})`)} ${ls('big', nanMax(lg('c'), lg('big')))}))
      (f64.store ${CTAIL(`(i32.sub ${lg('k')} ${lg('k0')})`)} ${lg('c')})`,
    )}
    ${forUp(
      'e',
      lg('tail'),
      lg('n'),
      c32(1),
      `${windowSum((k) => CTAIL(`(i32.sub ${k} ${lg('k0')})`), lg('e'))}
      ${ls('wbig', nanMax(lg('w'), lg('wbig')))}`,
    )}
    (i32.and
      (i32.and (f64.le (f64.mul ${g('beta')} ${lg('big')}) (f64.const ${STEP_RANGE}))
        (f64.le (f64.mul (f64.mul (f64.const 2) ${g('beta')}) ${lg('wbig')}) (f64.const ${LINEAR_RANGE})))
      (f64.le (f64.mul ${g('beta')} (f64.load ${JMAX(`(i32.sub ${lg('n')} (i32.const 1))`)})) (f64.const ${PAIR_RANGE}))))`;
}
