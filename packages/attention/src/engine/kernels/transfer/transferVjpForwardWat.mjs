// The VJP's forward sweep of the transfer-matrix WAT kernels (transferWat.mjs) over one lane
// group: transferVjpForward.h's vjp_states and vjp_segment, term by term, four problems a vector.
// ∂L/∂h_t into fg (a vector a position), the band gradient summed over the live lanes into gacc.
import { acc, pairAt } from './transferVjpWat.mjs';
import { tableRow } from './transferSweepsWat.mjs';
import {
  add,
  blockFlush,
  blockRest,
  c32,
  flush,
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
  vsplat,
  vstore,
  vsub,
  VZERO,
} from './transferWatText.mjs';

const SUMS = ['sumA', 'sumAT', 'sl', 'sh', 'slT', 'shT', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
/** The loops' blocked sums (transferWatText.mjs blockFlush): [outer, partial]. */
const partial = (names) => names.map((n) => [n, `p${n}`]);
const FIRST_SUMS = partial(['sumA', 'sumAT']);
const THIRD_SUMS = partial(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
const SECOND_SUMS = partial(['sl', 'sh', 'slT', 'shT']);
const vlocals = (names) => names.map((n) => `(local $${n} v128)`).join(' ');
const hi = (base) => add(lg(base), gg('Hb'), lg('j'));
const lo = (base) => add(lg(base), lg('j'));

/** The pair's messages and tangents, and the table's four entries, into locals. */
const pairLoads = `${ls('q', add(lg('tb'), lg('j')))}
      ${ls('a0', vload(pairAt('a')))} ${ls('a1', `(v128.load offset=16 ${pairAt('a')})`)}
      ${ls('c0', vload(pairAt('aT')))} ${ls('c1', `(v128.load offset=16 ${pairAt('aT')})`)}
      ${ls('d0', tload(lg('q')))} ${ls('d1', tload(lg('q'), 4))}
      ${ls('u0', tload(lg('q'), 8))} ${ls('u1', tload(lg('q'), 12))}`;

/**
 * The first state loop: the next messages and tangents with their sums. (transferVjpForward.h's loops,
 * three so that each keeps its sums and constants in the 16 vector registers of x64.)
 */
function firstLoop() {
  return `${pairLoads}
      ${ls('lo', vmul(lg('fm'), vadd(vmul(lg('a0'), lg('d0')), vmul(lg('a1'), lg('d1')))))}
      ${ls('hi', vmul(lg('fp'), vadd(vmul(lg('a0'), lg('u0')), vmul(lg('a1'), lg('u1')))))}
      ${ls('loT', vsub(vmul(lg('fm'), vadd(vmul(lg('c0'), lg('d0')), vmul(lg('c1'), lg('d1')))), vmul(lg('gl'), lg('lo'))))}
      ${ls('hiT', vadd(vmul(lg('fp'), vadd(vmul(lg('c0'), lg('u0')), vmul(lg('c1'), lg('u1')))), vmul(lg('gh'), lg('hi'))))}
      ${flush('lo')} ${flush('hi')} ${flush('loT', true)} ${flush('hiT', true)}
      ${vstore(lo('nx'), lg('lo'))} ${vstore(hi('nx'), lg('hi'))}
      ${vstore(lo('nxT'), lg('loT'))} ${vstore(hi('nxT'), lg('hiT'))}
      ${acc('psumA', vadd(lg('lo'), lg('hi')))}
      ${acc('psumAT', vadd(lg('loT'), lg('hiT')))}
      ${blockFlush('j', FIRST_SUMS)}`;
}

/** The third: the six sums of the pair (t − W, t). */
function thirdLoop() {
  return `${pairLoads}
      ${ls('dpp', vsub(vmul(lg('a1'), lg('u1')), vmul(lg('a0'), lg('u0'))))}
      ${ls('dpm', vsub(vmul(lg('a1'), lg('d1')), vmul(lg('a0'), lg('d0'))))}
      ${ls('pl', vload(lo('bk')))} ${ls('ph', vload(hi('bk')))}
      ${acc('pr1', vmul(lg('dpp'), lg('ph')))}
      ${acc('pr2', vmul(lg('dpm'), lg('pl')))}
      ${acc('pr3', vmul(vsub(vmul(lg('c1'), lg('u1')), vmul(lg('c0'), lg('u0'))), lg('ph')))}
      ${acc('pr4', vmul(vsub(vmul(lg('c1'), lg('d1')), vmul(lg('c0'), lg('d0'))), lg('pl')))}
      ${acc('pr5', vmul(lg('dpp'), vload(hi('bkT'))))}
      ${acc('pr6', vmul(lg('dpm'), vload(lo('bkT'))))}
      ${blockFlush('j', THIRD_SUMS)}`;
}

/** The second: the window weights' sums and the signed-marginal tangents into row. */
function secondLoop() {
  return `${ls('lo', vload(lo('nx')))} ${ls('hi', vload(hi('nx')))}
      ${ls('loT', vload(lo('nxT')))} ${ls('hiT', vload(hi('nxT')))}
      ${ls('pl', vload(lo('bk')))} ${ls('ph', vload(hi('bk')))}
      ${ls('el', vmul(lg('lo'), lg('pl')))} ${ls('eh', vmul(lg('hi'), lg('ph')))}
      ${ls('elT', vadd(vmul(lg('loT'), lg('pl')), vmul(lg('lo'), vload(lo('bkT')))))}
      ${ls('ehT', vadd(vmul(lg('hiT'), lg('ph')), vmul(lg('hi'), vload(hi('bkT')))))}
      ${acc('psl', lg('el'))} ${acc('psh', lg('eh'))} ${acc('pslT', lg('elT'))} ${acc('pshT', lg('ehT'))}
      (v128.store ${add(gg('row'), lg('j'))} ${vsub(vmul(lg('kz'), lg('el')), vmul(lg('iz'), lg('elT')))})
      (v128.store ${add(gg('row'), gg('Hb'), lg('j'))} ${vsub(vmul(lg('iz'), lg('ehT')), vmul(lg('kz'), lg('eh')))})
      ${blockFlush('j', SECOND_SUMS)}`;
}

/** vjp_states: one step's state loops; the sums into the globals of SUMS. */
function vjpStates() {
  return `(func $vjpStates (param $fm v128) (param $fp v128) (param $gl v128) (param $gh v128)
    (param $kz v128) (param $iz v128) (param $t i32) (param $bk i32)
    (local $j i32) (local $q i32) (local $tb i32) (local $a i32) (local $aT i32) (local $nx i32) (local $nxT i32) (local $bkT i32)
    ${vlocals([...SUMS, ...SUMS.map((n) => `p${n}`), 'a0', 'a1', 'c0', 'c1', 'd0', 'd1', 'u0', 'u1'])}
    ${vlocals(['lo', 'hi', 'loT', 'hiT', 'pl', 'ph', 'dpp', 'dpm', 'el', 'eh', 'elT', 'ehT'])}
    ${ls('tb', tableRow(lg('t')))}
    ${['a', 'aT', 'nx', 'nxT'].map((n) => ls(n, gg(`f${n}`))).join(' ')}
    ${ls('bkT', add(lg('bk'), gg('Sb')))}
    ${forUp('j', c32(0), gg('Hb'), c32(16), firstLoop())}
    ${blockRest(FIRST_SUMS)}
    ${forUp('j', c32(0), gg('Hb'), c32(16), secondLoop())}
    ${blockRest(SECOND_SUMS)}
    ${forUp('j', c32(0), gg('Hb'), c32(16), thirdLoop())}
    ${blockRest(THIRD_SUMS)}
    ${SUMS.map((n) => gs(n, lg(n))).join(' ')})`;
}

/** The band gradient of position t: gacc[tW] and gacc[tW + b] (b ≥ 1) += what the lanes `lv` give. */
function bandGradient() {
  const cell = (b) => add(gg('gacc'), shl(add(mul(lg('t'), gg('W')), b), 4));
  return `(call $foldBits)
      ${vstore(cell(c32(0)), vadd(vload(cell(c32(0))), `(v128.and ${vmul(vsub(lg('du'), vmul(lg('kappa'), lg('dv'))), lg('invZ'))} ${lg('lv')})`))}
      ${forUp(
        'b',
        c32(1),
        gg('W'),
        c32(1),
        `${ls('x', vsub(vmul(vsplat(2), vload(add(gg('upper'), shl(sub(lg('b'), c32(1)), 4)))), vload(gg('row'))))}
        ${vstore(cell(lg('b')), vadd(vload(cell(lg('b'))), `(v128.and ${lg('x')} ${lg('lv')})`))}`,
      )}`;
}

/** One position of vjp_segment. */
function position() {
  const f = (n) => gg(n);
  return `${ls('gp', vload(add(gg('gp'), shl(lg('t'), 4))))}
      ${ls('gm', vload(add(gg('gm'), shl(lg('t'), 4))))}
      ${ls('zHat', vmul(vdiv(vload(add(gg('bsum'), shl(lg('t'), 4))), f('fSig')), f('zPrev')))}
      ${ls('kh', vsub(vadd(vdiv(f('zTPrev'), f('zPrev')), vload(add(gg('bshift'), shl(lg('t'), 4)))), f('fShift')))}
      ${ls('fm', vdiv(vload(add(gg('em'), shl(lg('t'), 4))), f('fSig')))}
      ${ls('fp', vdiv(vload(add(gg('ep'), shl(lg('t'), 4))), f('fSig')))}
      ${ls('iz', vdiv(vsplat(1), lg('zHat')))}
      (call $vjpStates ${lg('fm')} ${lg('fp')} ${vadd(lg('gm'), f('fShift'))} ${vsub(lg('gp'), f('fShift'))}
        ${vmul(lg('kh'), lg('iz'))} ${lg('iz')} ${lg('t')}
        ${add(gg('seg'), mul(sub(lg('t'), lg('start')), shl(gg('Sb'), 1)))})
      ${ls('z', vadd(f('sl'), f('sh')))} ${ls('zT', vadd(f('slT'), f('shT')))}
      ${ls('dv', vsub(vmul(lg('fp'), f('r1')), vmul(lg('fm'), f('r2'))))}
      ${ls('du', vsub(vadd(vsub(vmul(lg('fp'), vsub(f('r3'), vmul(f('fShift'), f('r1')))), vmul(lg('fm'), vsub(f('r4'), vmul(f('fShift'), f('r2'))))), vmul(lg('fp'), f('r5'))), vmul(lg('fm'), f('r6'))))}
      ${ls('du', vadd(lg('du'), vadd(vmul(lg('gp'), vmul(lg('fp'), f('r1'))), vmul(lg('gm'), vmul(lg('fm'), f('r2'))))))}
      ${ls('invZ', vdiv(vsplat(1), lg('z')))}
      ${ls('kappa', vmul(lg('zT'), lg('invZ')))}
      ${vstore(add(gg('fg'), shl(lg('t'), 4)), vmul(vsub(vsub(f('shT'), f('slT')), vmul(lg('kappa'), vsub(f('sh'), f('sl')))), lg('invZ')))}
      ${ls('lv', `(v128.and ${lg('live')} (i32x4.gt_s (v128.load ${gg('lgp')}) (i32x4.splat ${lg('t')})))`)}
      ${bandGradient()}
      ${gs('zPrev', lg('z'))} ${gs('zTPrev', lg('zT'))}
      ${gs('fSig', f('sumA'))} ${gs('fShift', vdiv(f('sumAT'), f('sumA')))}
      ${ls('s', f('fa'))} ${gs('fa', f('fnx'))} ${gs('fnx', lg('s'))}
      ${ls('s', f('faT'))} ${gs('faT', f('fnxT'))} ${gs('fnxT', lg('s'))}`;
}

/** vjp_segment: positions [start, end) with β_t at seg block t − start. */
function vjpSegment() {
  return `(func $vjpSegment (param $start i32) (param $end i32) (local $t i32) (local $b i32) (local $s i32)
    ${vlocals(['gp', 'gm', 'zHat', 'kh', 'fm', 'fp', 'iz', 'z', 'zT', 'dv', 'du', 'invZ', 'kappa', 'lv', 'live', 'x'])}
    ${ls('live', `(f32x4.ne (v128.load offset=48 ${gg('lgp')}) ${VZERO})`)}
    ${forUp('t', lg('start'), lg('end'), c32(1), position())})`;
}

/** The VJP's forward sweep. */
export function vjpForwardFuncs() {
  return [vjpStates(), vjpSegment()].join('\n  ');
}
