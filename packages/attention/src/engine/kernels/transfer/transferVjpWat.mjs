// The VJP's sweeps of the transfer-matrix WAT kernels (transferWat.mjs) over one lane group:
// transferVjp.h's back_vjp_step, back_whole, back_checkpoints, back_segment and
// transferVjpForward.h's vjp_states, vjp_segment, fold_bits and fwd_start, term by term, four
// problems a vector. The running states (back_state, fwd_state, the step's sums) are globals; a
// message and its tangent are one block of 2S vectors (value, then tangent).
import { factors, tableRow } from './transferSweepsWat.mjs';
import {
  add,
  blockFlush,
  blockRest,
  c32,
  fillVectors,
  flush,
  forDown,
  forUp,
  gg,
  gs,
  lg,
  ls,
  mul,
  shl,
  sub,
  tload,
  vadd,
  vdiv,
  vload,
  vmul,
  vneg,
  vsplat,
  vstates,
  vstore,
  vsub,
  VZERO,
} from './transferWatText.mjs';

/** The v128 globals of the sweeps. */
export const VJP_GLOBALS = [
  ...['sSig', 'sShift', 'sSum', 'sSumT', 'tot', 'totT', 'fSig', 'fShift', 'zPrev', 'zTPrev'],
  ...['sumA', 'sumAT', 'sl', 'sh', 'slT', 'shT', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6'],
].map((n) => [n, 'v128']);

const acc = (name, v) => ls(name, vadd(lg(name), v));
const at = (base, j, extra) => (extra ? add(lg(base), lg(j), extra) : add(lg(base), lg(j)));
const pairAt = (base) => add(lg(base), shl(lg('j'), 1));

const STEP_SUMS = [
  ['sum', 'psum'],
  ['sumT', 'psumT'],
];

/** back_vjp_step: β_{t−1} and its tangent into out, outT from β_t in in, inT. */
function backStep() {
  const pair = `${ls('q', add(lg('q0'), lg('j')))}
        ${ls('pl', vload(at('in', 'j')))}
        ${ls('ph', vload(at('in', 'j', gg('Hb'))))}
        ${ls('bl', vmul(lg('fm'), lg('pl')))}
        ${ls('bh', vmul(lg('fp'), lg('ph')))}
        ${ls('dl', vmul(lg('fm'), vadd(vload(at('inT', 'j')), vmul(lg('gl'), lg('pl')))))}
        ${ls('dh', vmul(lg('fp'), vadd(vload(at('inT', 'j', gg('Hb'))), vmul(lg('gh'), lg('ph')))))}
        ${ls('v0', vadd(vmul(tload(lg('q')), lg('bl')), vmul(tload(lg('q'), 8), lg('bh'))))}
        ${ls('v1', vadd(vmul(tload(lg('q'), 4), lg('bl')), vmul(tload(lg('q'), 12), lg('bh'))))}
        ${ls('w0', vadd(vmul(tload(lg('q')), lg('dl')), vmul(tload(lg('q'), 8), lg('dh'))))}
        ${ls('w1', vadd(vmul(tload(lg('q'), 4), lg('dl')), vmul(tload(lg('q'), 12), lg('dh'))))}
        ${flush('v0')} ${flush('v1')} ${flush('w0', true)} ${flush('w1', true)}
        ${vstore(pairAt('out'), lg('v0'))}
        (v128.store offset=16 ${pairAt('out')} ${lg('v1')})
        ${vstore(pairAt('outT'), lg('w0'))}
        (v128.store offset=16 ${pairAt('outT')} ${lg('w1')})
        ${acc('psum', vadd(lg('v0'), lg('v1')))}
        ${acc('psumT', vadd(lg('w0'), lg('w1')))}
        ${blockFlush('j', STEP_SUMS)}`;
  return `(func $backStep (param $t i32) (param $in i32) (param $inT i32) (param $out i32) (param $outT i32)
    (local $j i32) (local $q i32) (local $q0 i32) (local $fp v128) (local $fm v128)
    (local $gl v128) (local $gh v128) (local $g v128) (local $pl v128) (local $ph v128) (local $bl v128)
    (local $bh v128) (local $dl v128) (local $dh v128) (local $v0 v128) (local $v1 v128) (local $w0 v128)
    (local $w1 v128) (local $sum v128) (local $sumT v128) (local $psum v128) (local $psumT v128) (local $mask v128)
    ${factors(lg('t'), gg('sSig'))}
    ${ls('gl', vsub(vneg(vload(add(gg('gm'), shl(lg('t'), 4)))), gg('sShift')))}
    ${ls('gh', vsub(vload(add(gg('gp'), shl(lg('t'), 4))), gg('sShift')))}
    ${ls('q0', tableRow(lg('t')))}
    ${forUp('j', c32(0), gg('Hb'), c32(16), pair)}
    ${blockRest(STEP_SUMS)}
    ${gs('sSum', lg('sum'))}
    ${gs('sSumT', lg('sumT'))}
    ${gs('sSig', lg('sum'))}
    ${gs('sShift', vdiv(lg('sumT'), lg('sum')))}
    (if (i32.ge_s ${lg('t')} ${gg('nmin')}) (then
      ${ls('mask', `(call $ended ${lg('t')})`)}
      (call $restart ${lg('mask')} ${lg('out')} ${lg('outT')})
      ${gs('sSig', `(v128.bitselect ${vstates()} ${gg('sSig')} ${lg('mask')})`)}
      ${gs('sShift', `(v128.andnot ${gg('sShift')} ${lg('mask')})`)})))`;
}

/** back_start (message ones, tangent zeros, the state's start) and copy_pair (2S vectors). */
function startAndCopy() {
  return `(func $backStart (param $msg i32) (local $x i32)
    ${fillVectors(lg('msg'), gg('S'), vsplat(1))}
    ${fillVectors(add(lg('msg'), gg('Sb')), gg('S'), VZERO)}
    ${gs('sSig', vstates())} ${gs('sShift', VZERO)} ${gs('sSum', vstates())} ${gs('sSumT', VZERO)})
  (func $copyPair (param $to i32) (param $from i32)
    (memory.copy ${lg('to')} ${lg('from')} ${shl(gg('Sb'), 1)}))`;
}

/** back_whole: β_t and tangent for every t into block t of seg; β_{−1} into ring. */
function backWhole() {
  return `(func $backWhole (local $t i32) (local $in i32) (local $out i32)
    (call $backStart ${add(gg('seg'), mul(sub(gg('nmax'), c32(1)), shl(gg('Sb'), 1)))})
    ${forDown(
      't',
      sub(gg('nmax'), c32(1)),
      c32(0),
      `(v128.store ${add(gg('bsum'), shl(lg('t'), 4))} ${gg('sSig')})
      (v128.store ${add(gg('bshift'), shl(lg('t'), 4))} ${gg('sShift')})
      ${ls('in', add(gg('seg'), mul(lg('t'), shl(gg('Sb'), 1))))}
      ${ls('out', `(select ${sub(lg('in'), shl(gg('Sb'), 1))} ${gg('ring')} (i32.gt_s ${lg('t')} (i32.const 0)))`)}
      (call $backStep ${lg('t')} ${lg('in')} ${add(lg('in'), gg('Sb'))} ${lg('out')} ${add(lg('out'), gg('Sb'))})`,
    )}
    ${gs('tot', gg('sSum'))} ${gs('totT', gg('sSumT'))})`;
}

/** The back_state of checkpoint c (4 vectors at cst + 64c) stored or loaded. */
const stateAt = (c, k) => add(gg('cst'), shl(c, 6), c32(16 * k));
const STATE = ['sSig', 'sShift', 'sSum', 'sSumT'];

/** back_checkpoints: the sweep once, keeping β_{e−1} and its state at each e = K, 2K, … < nmax. */
function backCheckpoints() {
  return `(func $backCheckpoints (local $t i32) (local $cur i32) (local $nx i32) (local $c i32)
    ${ls('cur', gg('ring'))}
    ${ls('nx', add(gg('ring'), shl(gg('Sb'), 1)))}
    (call $backStart ${lg('cur')})
    ${forDown(
      't',
      sub(gg('nmax'), c32(1)),
      c32(0),
      `(v128.store ${add(gg('bsum'), shl(lg('t'), 4))} ${gg('sSig')})
      (v128.store ${add(gg('bshift'), shl(lg('t'), 4))} ${gg('sShift')})
      (call $backStep ${lg('t')} ${lg('cur')} ${add(lg('cur'), gg('Sb'))} ${lg('nx')} ${add(lg('nx'), gg('Sb'))})
      ${ls('c', lg('cur'))} ${ls('cur', lg('nx'))} ${ls('nx', lg('c'))}
      (if (i32.and (i32.gt_s ${lg('t')} (i32.const 0)) (i32.eqz (i32.rem_s ${lg('t')} ${gg('K')}))) (then
        ${ls('c', sub(`(i32.div_s ${lg('t')} ${gg('K')})`, c32(1)))}
        (call $copyPair ${add(gg('ck'), mul(lg('c'), shl(gg('Sb'), 1)))} ${lg('cur')})
        ${STATE.map((n, k) => vstore(stateAt(lg('c'), k), gg(n))).join(' ')}))`,
    )}
    ${gs('tot', gg('sSum'))} ${gs('totT', gg('sSumT'))})`;
}

/** back_segment: segment [start, end)'s messages again from its checkpoint, into seg block t − start. */
function backSegment() {
  return `(func $backSegment (param $start i32) (param $end i32) (local $t i32) (local $top i32) (local $in i32) (local $c i32)
    ${ls('top', add(gg('seg'), mul(sub(sub(lg('end'), c32(1)), lg('start')), shl(gg('Sb'), 1))))}
    (if (i32.eq ${lg('end')} ${gg('nmax')}) (then (call $backStart ${lg('top')})) (else
      ${ls('c', sub(`(i32.div_s ${lg('end')} ${gg('K')})`, c32(1)))}
      (call $copyPair ${lg('top')} ${add(gg('ck'), mul(lg('c'), shl(gg('Sb'), 1)))})
      ${STATE.map((n, k) => gs(n, vload(stateAt(lg('c'), k)))).join(' ')}))
    ${forDown(
      't',
      sub(lg('end'), c32(1)),
      add(lg('start'), c32(1)),
      `${ls('in', add(gg('seg'), mul(sub(lg('t'), lg('start')), shl(gg('Sb'), 1))))}
      (call $backStep ${lg('t')} ${lg('in')} ${add(lg('in'), gg('Sb'))} ${sub(lg('in'), shl(gg('Sb'), 1))} ${sub(lg('in'), gg('Sb'))})`,
    )})`;
}

/** fwd_start: α_{−1} = 1, tangent 0, Z from the backward totals. */
function fwdStart() {
  return `(func $fwdStart (local $x i32)
    ${fillVectors(gg('A'), gg('S'), vsplat(1))}
    ${fillVectors(gg('AT'), gg('S'), VZERO)}
    ${gs('fSig', vstates())} ${gs('fShift', VZERO)} ${gs('zPrev', gg('tot'))} ${gs('zTPrev', gg('totT'))}
    ${gs('fa', gg('A'))} ${gs('faT', gg('AT'))} ${gs('fnx', gg('NX'))} ${gs('fnxT', gg('NXT'))})`;
}

/** fold_bits: the sums of row over the states with bit k set into upper[k]; row[0] ends as the total. */
function foldBits() {
  return `(func $foldBits (local $k i32) (local $half i32) (local $s i32) (local $u v128) (local $pu v128) (local $x v128)
    ${forDown(
      'k',
      sub(gg('W'), c32(1)),
      c32(0),
      `${ls('half', `(i32.shl (i32.const 16) ${lg('k')})`)}
      ${ls('u', VZERO)} ${ls('pu', VZERO)}
      ${forUp(
        's',
        c32(0),
        lg('half'),
        c32(16),
        `${ls('x', vload(add(gg('row'), lg('s'), lg('half'))))}
        ${acc('pu', lg('x'))}
        ${vstore(add(gg('row'), lg('s')), vadd(vload(add(gg('row'), lg('s'))), lg('x')))}
        ${blockFlush('s', [['u', 'pu']])}`,
      )}
      ${blockRest([['u', 'pu']])}
      ${vstore(add(gg('upper'), shl(lg('k'), 4)), lg('u'))}`,
    )})`;
}

export { acc, pairAt };

/** The VJP's backward sweeps, its start and the bit sums. */
export function vjpBackFuncs() {
  return [
    backStep(),
    startAndCopy(),
    backWhole(),
    backCheckpoints(),
    backSegment(),
    fwdStart(),
    foldBits(),
  ].join('\n  ');
}
