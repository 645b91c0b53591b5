// The scalar parts of the transfer-matrix WAT kernels (transferWat.mjs), transfer.c's: the
// head's coupling table and bounds (head_table, couplings_in_range: transferTableWat.mjs), the
// fields' finiteness (fields_finite) of a problem, a lane group's
// problems (group_lanes: 64 bytes at $lgp, per lane its length n at +0, its row's byte offset at
// +16, its sums entry's at +32 and 1.0 or 0.0 for live at +48), field factors (group_fields),
// VJP direction (group_direction), and what the kernels write per lane and per head.
import { couplingBounds, f32at, headTable } from './transferTableWat.mjs';
import { c32, forUp, gg as g, lg, ls } from './transferWatText.mjs';

const MIN_TOTAL = '0x1.c8464f7616468p-47'; // e^-32, transfer.c's MIN_TOTAL

/** Lane $l's field at byte `offset` of the group record. */
const laneAt = (offset) =>
  `(i32.add ${g('lgp')} (i32.add (i32.const ${offset}) (i32.shl ${lg('l')} (i32.const 2))))`;
const N = `(i32.load ${laneAt(0)})`;
const ROW = `(i32.load ${laneAt(16)})`;
const PROB = `(i32.load ${laneAt(32)})`;
const DEAD = `(f32.eq (f32.load ${laneAt(48)}) (f32.const 0))`;
const KILL = `(f32.store ${laneAt(48)} (f32.const 0))`;
/** Byte address of vector t's lane $l in the array at global `base`. */
const cell = (base, t) =>
  `(i32.add ${g(base)} (i32.add (i32.shl ${t} (i32.const 4)) (i32.shl ${lg('l')} (i32.const 2))))`;
const lanes = (body) => forUp('l', c32(0), c32(4), c32(1), `(block $skip ${body})`);

/** fields_finite: whether a problem's n fields at byte hrow are all finite. */
function fieldsFinite() {
  const h = `(f32.load (i32.add ${lg('hrow')} (i32.shl ${lg('t')} (i32.const 2))))`;
  return `(func $fieldsFinite (param $hrow i32) (param $n i32) (result i32) (local $t i32)
    ${forUp('t', c32(0), lg('n'), c32(1), `(if (i32.eqz (f32.le (f32.abs ${h}) (f32.const 0x1.fffffep127))) (then (return (i32.const 0))))`)}
    (i32.const 1))`;
}

/** group_lanes: problems k0 … k0 + 3 of head hd in (i descending, b) order; padding lanes repeat k0, dead. */
function groupLanes() {
  return `(func $groupLanes (param $hd i32) (param $k0 i32) (local $l i32) (local $k i32) (local $i i32) (local $prob i32) (local $count i32)
    ${ls('count', `(i32.mul ${g('B')} ${g('T')})`)}
    (global.set $nmax (i32.const 0)) (global.set $nmin ${g('T')})
    ${lanes(`${ls('k', `(select (i32.add ${lg('k0')} ${lg('l')}) ${lg('k0')} (i32.lt_s (i32.add ${lg('k0')} ${lg('l')}) ${lg('count')}))`)}
      ${ls('i', `(i32.sub (i32.sub ${g('T')} (i32.const 1)) (i32.div_s ${lg('k')} ${g('B')}))`)}
      ${ls('prob', `(i32.add (i32.mul (i32.add (i32.mul (i32.rem_s ${lg('k')} ${g('B')}) ${g('heads')}) ${lg('hd')}) ${g('T')}) ${lg('i')})`)}
      (i32.store ${laneAt(0)} (i32.add ${lg('i')} (i32.const 1)))
      (i32.store ${laneAt(16)} (i32.shl (i32.mul ${lg('prob')} ${g('T')}) (i32.const 2)))
      (i32.store ${laneAt(32)} (i32.shl ${lg('prob')} (i32.const 2)))
      (f32.store ${laneAt(48)} (select (f32.const 1) (f32.const 0) (i32.lt_s (i32.add ${lg('k0')} ${lg('l')}) ${lg('count')})))
      (if (i32.gt_s (i32.add ${lg('i')} (i32.const 1)) ${g('nmax')}) (then (global.set $nmax (i32.add ${lg('i')} (i32.const 1)))))
      (if (i32.lt_s (i32.add ${lg('i')} (i32.const 1)) ${g('nmin')}) (then (global.set $nmin (i32.add ${lg('i')} (i32.const 1)))))`)})`;
}

/**
 * group_fields: exp(±β h_t − |β h_t|) per live lane (1 elsewhere; one exp, the larger is 1); lanes
 * whose couplings pass the bounds or with a non-finite field are marked dead. killLeft: lanes the forward left.
 */
function groupFields() {
  const ones = (base) =>
    forUp(
      'x',
      c32(0),
      `(i32.shl ${g('nmax')} (i32.const 4))`,
      c32(16),
      `(v128.store (i32.add ${g(base)} ${lg('x')}) (v128.const f32x4 1 1 1 1))`,
    );
  const pick = (base, sign) =>
    `(f32.store ${cell(base, lg('t'))} (select (f32.const 1) ${lg('small')} (f64.${sign} ${lg('x2')} (f64.const 0))))`;
  return `(func $groupFields (local $l i32) (local $t i32) (local $x i32) (local $x2 f64) (local $small f32)
    ${ones('ep')} ${ones('em')}
    ${lanes(`(br_if $skip ${DEAD})
      (if (i32.or (i32.eqz (call $couplingsInRange ${N})) (i32.eqz (call $fieldsFinite (i32.add ${g('hp')} ${ROW}) ${N}))) (then ${KILL} (br $skip)))
      ${forUp(
        't',
        c32(0),
        N,
        c32(1),
        `${ls('x2', `(f64.mul ${g('beta')} ${f32at(`(i32.add (i32.add ${g('hp')} ${ROW}) (i32.shl ${lg('t')} (i32.const 2)))`)})`)}
        ${ls('small', `(f32.demote_f64 (call $exp (f64.mul (f64.const -2) (f64.abs ${lg('x2')}))))`)}
        ${pick('ep', 'ge')} ${pick('em', 'lt')}`,
      )}`)})
  (func $killLeft (local $l i32)
    ${lanes(`(if (i32.eqz (f32.ge (f32.load (i32.add ${g('sumsp')} ${PROB})) (f32.const 0))) (then ${KILL}))`)})`;
}

/** group_direction: gp, gm (transfer.c group_direction: the direction centered on the forward's magnetizations) per live lane, 0 elsewhere. */
function groupDirection() {
  const at = (base, t) => `(i32.add (i32.add ${g(base)} ${ROW}) (i32.shl ${t} (i32.const 2)))`;
  return `(func $groupDirection (local $l i32) (local $t i32) (local $x i32) (local $total f64) (local $dot f64) (local $d f64) (local $wt f64)
    (memory.fill ${g('gp')} (i32.const 0) (i32.shl ${g('nmax')} (i32.const 4)))
    (memory.fill ${g('gm')} (i32.const 0) (i32.shl ${g('nmax')} (i32.const 4)))
    ${lanes(`(br_if $skip ${DEAD})
      ${ls('total', f32at(`(i32.add ${g('sumsp')} ${PROB})`))}
      (br_if $skip (i32.eqz (f64.gt ${lg('total')} (f64.const 0))))
      ${ls('dot', '(f64.const 0)')}
      ${forUp('t', c32(0), N, c32(1), ls('dot', `(f64.add ${lg('dot')} (f64.mul ${f32at(at('wp', lg('t')))} ${f32at(at('gwp', lg('t')))}))`))}
      ${forUp(
        't',
        c32(0),
        N,
        c32(1),
        `${ls('d', `(f64.mul ${g('beta')} (f64.sub ${f32at(at('gwp', lg('t')))} ${lg('dot')}))`)}
        ${ls('wt', f32at(at('wp', lg('t'))))}
        (f32.store ${cell('gp', lg('t'))} (f32.demote_f64 (f64.div (f64.mul ${lg('d')} (f64.sub (f64.const 1) (f64.mul ${lg('wt')} ${lg('total')}))) ${lg('total')})))
        (f32.store ${cell('gm', lg('t'))} (f32.demote_f64 (f64.mul ${lg('d')} ${lg('wt')})))`,
      )}`)})`;
}

/** The forward's rows: w and Σα of each live lane, sums = −1 for the others; returns their count. */
function forwardRows() {
  const wAt = (t) => `(i32.add (i32.add ${g('wp')} ${ROW}) (i32.shl ${t} (i32.const 2)))`;
  return `(func $forwardRows (param $k0 i32) (result i32) (local $l i32) (local $t i32) (local $left i32) (local $total f64) (local $inv f32)
    ${lanes(`(br_if $skip (i32.ge_s (i32.add ${lg('k0')} ${lg('l')}) (i32.mul ${g('B')} ${g('T')})))
      ${ls('total', '(f64.const 0)')}
      ${forUp('t', c32(0), N, c32(1), ls('total', `(f64.add ${lg('total')} ${f32at(cell('up', lg('t')))})`))}
      (if (i32.or ${DEAD} (i32.eqz (f64.ge ${lg('total')} (f64.const ${MIN_TOTAL})))) (then
        (f32.store (i32.add ${g('sumsp')} ${PROB}) (f32.const -1))
        ${ls('left', `(i32.add ${lg('left')} (i32.const 1))`)}
        (br $skip)))
      ${ls('inv', `(f32.demote_f64 (f64.div (f64.const 1) ${lg('total')}))`)}
      ${forUp('t', c32(0), N, c32(1), `(f32.store ${wAt(lg('t'))} (f32.mul (f32.load ${cell('up', lg('t'))}) ${lg('inv')}))`)}
      (memory.fill ${wAt(N)} (i32.const 0) (i32.shl (i32.sub ${g('T')} ${N}) (i32.const 2)))
      (f32.store (i32.add ${g('sumsp')} ${PROB}) (f32.demote_f64 ${lg('total')}))`)}
    ${lg('left')})`;
}

/** The backward's rows (gh of each live lane) and a head's gJ from the lanes' band sums. */
function backwardRows() {
  const ghAt = (t) => `(i32.add (i32.add ${g('ghp')} ${ROW}) (i32.shl ${t} (i32.const 2)))`;
  const lane = (k) => `(f32x4.extract_lane ${k} ${lg('v')})`;
  return `(func $backwardRows (local $l i32) (local $t i32)
    ${lanes(`(br_if $skip ${DEAD})
      ${forUp('t', c32(0), N, c32(1), `(f32.store ${ghAt(lg('t'))} (f32.load ${cell('fg', lg('t'))}))`)}
      (memory.fill ${ghAt(N)} (i32.const 0) (i32.shl (i32.sub ${g('T')} ${N}) (i32.const 2)))`)})
  (func $writeGJ (param $hd i32) (local $t i32) (local $b i32) (local $r i32) (local $v v128)
    ${forUp(
      't',
      c32(0),
      g('T'),
      c32(1),
      forUp(
        'b',
        c32(0),
        g('W'),
        c32(1),
        `${ls('r', `(i32.add (i32.sub ${lg('t')} ${g('W')}) ${lg('b')})`)}
      (if (i32.ge_s ${lg('r')} (i32.const 0)) (then
        ${ls('v', `(v128.load (i32.add ${g('gacc')} (i32.shl (i32.add (i32.mul ${lg('t')} ${g('W')}) ${lg('b')}) (i32.const 4))))`)}
        (f32.store (i32.add ${g('gJp')} (i32.shl (i32.add (i32.mul (i32.add (i32.mul ${lg('hd')} ${g('T')}) ${lg('r')}) ${g('T')}) ${lg('t')}) (i32.const 2)))
          (f32.add (f32.add ${lane(0)} ${lane(1)}) (f32.add ${lane(2)} ${lane(3)})))))`,
      ),
    )})`;
}

/** The scalar functions. */
export function lanesFuncs() {
  return [
    headTable(),
    couplingBounds(),
    fieldsFinite(),
    groupLanes(),
    groupFields(),
    groupDirection(),
    forwardRows(),
    backwardRows(),
  ].join('\n  ');
}
