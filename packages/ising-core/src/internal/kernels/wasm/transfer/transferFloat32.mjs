// The float32 transfer kernel is derived from the float64 one, so the algorithm has one home
// (transfer.wat beside this file): `pnpm --filter @boltzmann/ising-core build:wasm`
// (tools/wasm/buildWasm.mjs, through ../registry.mjs) writes the text this returns to
// transfer32.wat and compiles it into transfer32Wasm.generated.ts. Each rewrite must match; a
// changed transfer.wat that no longer fits one fails the build with the rewrite's name instead of
// producing a wrong kernel.
import { get } from '../../../../../../../tools/wasm/wat.mjs';

const HEADER = `;; transfer.wat's float32 variant: the same forward pass and VJP in single precision, four
;; window-state pairs (j … j + 3) per 128-bit vector instead of two. Messages, tangents, the coupling table and the band-gradient sums are float32; the per-step
;; scalars (field factors, rescaling sums, Z, κ, the readout) stay float64, and every vector sum
;; is reduced in float64. Every stored message and tangent entry below 2^-60 in magnitude is set
;; to 0 (flush to zero), so that no product of two entries is subnormal: float32 subnormals cost a
;; microcode assist per operation on x86. transferFastPath.ts sends a problem here only with
;; precision 'float32' and every step factor within e^±16 (FLOAT32_STEP_RANGE), where a flushed
;; entry is below 1e-9 of its message's largest. The coupling table is in the four-lane SIMD
;; layout (transferWasm.ts), and the window must be at least 3.
`;

/** Replaces every `from` in `text` (a string or a global RegExp); throws when none matched. */
function rewrite(text, name, from, to) {
  const count =
    typeof from === 'string' ? text.split(from).length - 1 : (text.match(from) ?? []).length;
  if (count === 0)
    throw new Error(`transferFloat32: rewrite "${name}" matched nothing in transfer.wat`);
  return typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
}

const deinterleave = [
  '0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27',
  '4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31',
];
const interleave = [
  '0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23',
  '8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31',
];
const LO = '0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23';
const HI = '8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31';

/** Sets a local's lanes below 2^-60 in magnitude to 0 (`signed`: tangents; else messages, ≥ 0). */
const flush = (name, signed, indent) =>
  `${indent}(local.set $${name} (v128.and ${get(name)} (f32x4.ge ${signed ? `(f32x4.abs ${get(name)})` : get(name)} ${get('tiny')})))\n`;

/** The two-lane shuffles of transfer.wat as their four-lane (de)interleaving counterparts. */
function fourLaneShuffles(wat) {
  let s = wat;
  for (const v of ['X0) (local.get $X1)']) {
    s = rewrite(
      s,
      'even lanes',
      `i8x16.shuffle ${LO} (local.get $${v}`,
      `i8x16.shuffle ${deinterleave[0]} (local.get $${v}`,
    );
    s = rewrite(
      s,
      'odd lanes',
      `i8x16.shuffle ${HI} (local.get $${v}`,
      `i8x16.shuffle ${deinterleave[1]} (local.get $${v}`,
    );
  }
  for (const [a, b] of [
    ['V0', 'V1'],
    ['W0', 'W1'],
  ]) {
    const pair = `(local.get $${a}) (local.get $${b})`;
    s = rewrite(
      s,
      `${a} low`,
      `i8x16.shuffle ${LO} ${pair}`,
      `i8x16.shuffle ${interleave[0]} ${pair}`,
    );
    s = rewrite(
      s,
      `${a} high`,
      `i8x16.shuffle ${HI} ${pair}`,
      `i8x16.shuffle ${interleave[1]} ${pair}`,
    );
  }
  if (s.includes(`shuffle ${LO}`) || s.includes(`shuffle ${HI}`))
    throw new Error('transferFloat32: a two-lane shuffle is left');
  return s;
}

/**
 * The float32 helpers: the flush threshold `$tiny`, four-byte lanes in the state stride, a
 * horizontal sum of four lanes reduced in float64, and a splat that demotes its float64 argument.
 */
function float32Helpers(wat) {
  let s = rewrite(
    wat,
    'state bytes',
    '(local.set $Sb (i32.shl (i32.const 8) (local.get $W)))',
    '(local.set $tiny (v128.const f32x4 0x1p-60 0x1p-60 0x1p-60 0x1p-60))\n    (local.set $Sb (i32.shl (i32.const 4) (local.get $W)))',
  );
  s = rewrite(s, 'tiny local', '(local $Sb i32)', '(local $tiny v128) (local $Sb i32)');
  s = rewrite(
    s,
    'hsum',
    '(f64.add (f32x4.extract_lane 0 (local.get $v)) (f32x4.extract_lane 1 (local.get $v))))',
    `(f64.add
      (f64.add (f64.promote_f32 (f32x4.extract_lane 0 (local.get $v))) (f64.promote_f32 (f32x4.extract_lane 1 (local.get $v))))
      (f64.add (f64.promote_f32 (f32x4.extract_lane 2 (local.get $v))) (f64.promote_f32 (f32x4.extract_lane 3 (local.get $v))))))`,
  );
  return rewrite(
    s,
    'splat helper',
    '  (func $hsum',
    '  (func $splat (param $x f64) (result v128)\n    (f32x4.splat (f32.demote_f64 (local.get $x))))\n\n  (func $hsum',
  );
}

/** Flushes the messages (and, in the VJP, the tangents) before they are stored. */
function flushedStores(wat) {
  const vjpAt = wat.indexOf('(func (export "vjp")');
  let forward = wat.slice(0, vjpAt);
  let vjp = wat.slice(vjpAt);
  const storeLo =
    '        (v128.store (i32.add (local.get $nx) (local.get $jb)) (local.get $lo))\n';
  const outAt = (indent) =>
    `${indent}(local.set $p (i32.add (local.get $outP) (i32.shl (local.get $jb) (i32.const 1))))\n`;
  forward = rewrite(
    forward,
    'forward: back',
    outAt('          '),
    flush('V0', false, '          ') + flush('V1', false, '          ') + outAt('          '),
  );
  forward = rewrite(
    forward,
    'forward: messages',
    storeLo,
    flush('lo', false, '        ') + flush('hi', false, '        ') + storeLo,
  );
  vjp = rewrite(
    vjp,
    'vjp: back',
    outAt('        '),
    ['V0', 'V1'].map((v) => flush(v, false, '        ')).join('') +
      ['W0', 'W1'].map((v) => flush(v, true, '        ')).join('') +
      outAt('        '),
  );
  vjp = rewrite(
    vjp,
    'vjp: messages',
    storeLo,
    ['lo', 'hi'].map((v) => flush(v, false, '        ')).join('') +
      ['loT', 'hiT'].map((v) => flush(v, true, '        ')).join('') +
      storeLo,
  );
  return forward + vjp;
}

/**
 * transfer.wat (float64, two lanes) → its float32 variant (four lanes, flush to zero).
 *
 * @param {string} wat the text of transfer.wat.
 * @returns {string} the text of the float32 module.
 */
export function transferFloat32(wat) {
  let s = wat.slice(wat.indexOf('(module'));
  s = rewrite(s, 'ones', '(v128.const f64x2 1 1)', '(v128.const f32x4 1 1 1 1)');
  s = rewrite(s, 'zeros', '(v128.const f64x2 0 0)', '(v128.const f32x4 0 0 0 0)');
  s = fourLaneShuffles(s);
  s = rewrite(s, 'splats', /\(f64x2\.splat /g, '(call $splat ');
  s = rewrite(s, 'lanes', /f64x2\./g, 'f32x4.');
  return HEADER + flushedStores(float32Helpers(s));
}
