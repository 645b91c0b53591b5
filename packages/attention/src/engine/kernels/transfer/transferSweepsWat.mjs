// The forward op's sweeps of the transfer-matrix WAT kernels (transferWat.mjs) over one lane
// group, and the restart of lanes past their end: transferChain.h's chain_back, chain_forward
// and restart_ended, term by term, with four problems a vector. State x of a message is the
// vector at byte 16x of its block; the table's four entries of pair j are broadcasts.
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
  vsplat,
  vstates,
  vstore,
  VZERO,
} from './transferWatText.mjs';

/** The byte address of position t's table row (2S floats). */
export const tableRow = (t) => add(gg('tbl'), shr1(mul(t, gg('Sb'))));
const shr1 = (x) => `(i32.shr_u ${x} (i32.const 1))`;

/** `$fp`, `$fm` = exp(±βh_t − |βh_t|)/σ of position t (locals $fp, $fm; σ in `sigma`). */
export const factors = (t, sigma) => `${ls('fp', vdiv(vload(add(gg('ep'), shl(t, 4))), sigma))}
    ${ls('fm', vdiv(vload(add(gg('em'), shl(t, 4))), sigma))}`;

/**
 * `$ended(t)`: lanes that end before spin t (t ≥ n_l) all ones; `$restart(mask, msg, tangent)`:
 * their lanes of the message (S vectors at byte msg) set to the start, 1, and of the tangent (if
 * not 0) to 0.
 */
function restartFuncs() {
  return `(func $ended (param $t i32) (result v128)
    (i32x4.ge_s (i32x4.splat ${lg('t')}) (v128.load ${gg('lgp')})))
  (func $restart (param $mask v128) (param $msg i32) (param $tan i32) (local $x i32)
    ${forUp(
      'x',
      c32(0),
      gg('Sb'),
      c32(16),
      `${vstore(add(lg('msg'), lg('x')), `(v128.bitselect ${vsplat(1)} ${vload(add(lg('msg'), lg('x')))} ${lg('mask')})`)}
      (if ${lg('tan')} (then ${vstore(add(lg('tan'), lg('x')), `(v128.andnot ${vload(add(lg('tan'), lg('x')))} ${lg('mask')})`)}))`,
    )})`;
}

const STEP_LOCALS = `(local $t i32) (local $j i32) (local $x i32) (local $in i32) (local $out i32) (local $q i32)
    (local $fp v128) (local $fm v128) (local $sigma v128) (local $sum v128) (local $mask v128)`;

/** chain_back: the backward messages β_t into block t of `msg` (S vectors a block), t = nmax − 1 … 0. */
function chainBack() {
  const pair = `${ls('q', add(lg('q0'), lg('j')))}
        ${ls('bl', vmul(lg('fm'), vload(add(lg('in'), lg('j')))))}
        ${ls('bh', vmul(lg('fp'), vload(add(lg('in'), gg('Hb'), lg('j')))))}
        ${ls('v0', vadd(vmul(tload(lg('q')), lg('bl')), vmul(tload(lg('q'), 8), lg('bh'))))}
        ${ls('v1', vadd(vmul(tload(lg('q'), 4), lg('bl')), vmul(tload(lg('q'), 12), lg('bh'))))}
        ${flush('v0')}
        ${flush('v1')}
        ${vstore(add(lg('out'), shl(lg('j'), 1)), lg('v0'))}
        (v128.store offset=16 ${add(lg('out'), shl(lg('j'), 1))} ${lg('v1')})
        ${ls('psum', vadd(lg('psum'), vadd(lg('v0'), lg('v1'))))}
        ${blockFlush('j', [['sum', 'psum']])}`;
  return `(func $chainBack ${STEP_LOCALS} (local $q0 i32) (local $psum v128) (local $bl v128) (local $bh v128) (local $v0 v128) (local $v1 v128)
    ${fillVectors(add(gg('msg'), mul(sub(gg('nmax'), c32(1)), gg('Sb'))), gg('S'), vsplat(1))}
    ${ls('sigma', vstates())}
    ${forDown(
      't',
      sub(gg('nmax'), c32(1)),
      c32(1),
      `${factors(lg('t'), lg('sigma'))}
      ${ls('in', add(gg('msg'), mul(lg('t'), gg('Sb'))))}
      ${ls('out', sub(lg('in'), gg('Sb')))}
      ${ls('q0', tableRow(lg('t')))}
      ${ls('sum', VZERO)} ${ls('psum', VZERO)}
      ${forUp('j', c32(0), gg('Hb'), c32(16), pair)}
      ${blockRest([['sum', 'psum']])}
      ${ls('sigma', lg('sum'))}
      (if (i32.ge_s ${lg('t')} ${gg('nmin')}) (then
        ${ls('mask', `(call $ended ${lg('t')})`)}
        (call $restart ${lg('mask')} ${lg('out')} (i32.const 0))
        ${ls('sigma', `(v128.bitselect ${vstates()} ${lg('sigma')} ${lg('mask')})`)}))`,
    )})`;
}

const FORWARD_SUMS = [
  ['sum', 'psum'],
  ['sl', 'psl'],
  ['sh', 'psh'],
];

/** chain_forward: the forward sweep with P(s_t = +1) into `up` (a vector a position). */
function chainForward() {
  const pair = `${ls('q', add(lg('q0'), lg('j')))}
        ${ls('a0', vload(add(lg('a'), shl(lg('j'), 1))))}
        ${ls('a1', vload(add(lg('a'), shl(lg('j'), 1), c32(16))))}
        ${ls('lo', vmul(lg('fm'), vadd(vmul(lg('a0'), tload(lg('q'))), vmul(lg('a1'), tload(lg('q'), 4)))))}
        ${ls('hi', vmul(lg('fp'), vadd(vmul(lg('a0'), tload(lg('q'), 8)), vmul(lg('a1'), tload(lg('q'), 12)))))}
        ${flush('lo')}
        ${flush('hi')}
        ${vstore(add(lg('nx'), lg('j')), lg('lo'))}
        ${vstore(add(lg('nx'), gg('Hb'), lg('j')), lg('hi'))}
        ${ls('psum', vadd(lg('psum'), vadd(lg('lo'), lg('hi'))))}
        ${ls('psl', vadd(lg('psl'), vmul(lg('lo'), vload(add(lg('in'), lg('j'))))))}
        ${ls('psh', vadd(lg('psh'), vmul(lg('hi'), vload(add(lg('in'), gg('Hb'), lg('j'))))))}
        ${blockFlush('j', FORWARD_SUMS)}`;
  return `(func $chainForward ${STEP_LOCALS} (local $q0 i32) (local $a i32) (local $nx i32)
    (local $a0 v128) (local $a1 v128) (local $lo v128) (local $hi v128) (local $sl v128) (local $sh v128)
    (local $psum v128) (local $psl v128) (local $psh v128)
    ${ls('a', gg('A'))}
    ${ls('nx', gg('NX'))}
    ${fillVectors(lg('a'), gg('S'), vsplat(1))}
    ${ls('sigma', vstates())}
    ${forUp(
      't',
      c32(0),
      gg('nmax'),
      c32(1),
      `${factors(lg('t'), lg('sigma'))}
      ${ls('in', add(gg('msg'), mul(lg('t'), gg('Sb'))))}
      ${ls('q0', tableRow(lg('t')))}
      ${FORWARD_SUMS.flat()
        .map((n) => ls(n, VZERO))
        .join(' ')}
      ${forUp('j', c32(0), gg('Hb'), c32(16), pair)}
      ${blockRest(FORWARD_SUMS)}
      ${vstore(add(gg('up'), shl(lg('t'), 4)), vdiv(lg('sh'), vadd(lg('sl'), lg('sh'))))}
      ${ls('sigma', lg('sum'))}
      ${ls('q', lg('a'))}
      ${ls('a', lg('nx'))}
      ${ls('nx', lg('q'))}`,
    )})`;
}

/** The forward op's sweeps and the restarts. */
export function sweepFuncs() {
  return [restartFuncs(), chainBack(), chainForward()].join('\n  ');
}
