// Writes the WebAssembly text of `gemm_dot`, the engine's A·Bᵀ for narrow products (the per-head
// Q·Kᵀ and dO·Vᵀ at small T): C(i, j) (+)= Σ_p A(i, p) · B(j, p) with the rows of A and of B both
// contiguous in p, so no transpose is needed. A ROWS × 4 block of C is ROWS·4 dot products, each
// an f32x4 accumulator over p four at a time (k must be a multiple of 4); the four accumulators of
// a row are reduced by shuffles into one vector of four sums and stored at once. Edges: a one-row
// band and one-column blocks. Read by gemmWat.mjs, which puts it in both GEMM modules.
import { f32x4, get, i32 } from '../../../../../../tools/wasm/wat.mjs';

/**
 * Rows of the main block: ROWS · 4 accumulators, ROWS vectors of A and one of B live. 2 keeps them
 * in x64's 16 SIMD registers: 97–98 % of the peak at 12 × 12 × 64, against 73 % for 3 and 57–67 %
 * for 4 (scripts/benchEngineGemm.ts, side by side).
 */
const ROWS = 2;

/** [Σ x0, Σ x1, Σ x2, Σ x3]: the lane sums of four vectors in one (six shuffles, three adds). */
function laneSums(x0, x1, x2, x3) {
  const { shuffle } = f32x4;
  const pair = (x, y) => f32x4.add(shuffle(x, y, [0, 4, 1, 5]), shuffle(x, y, [2, 6, 3, 7]));
  const [s01, s23] = [get('s01'), get('s23')];
  return `(local.set $s01 ${pair(x0, x1)}) (local.set $s23 ${pair(x2, x3)})
    ${f32x4.add(shuffle(s01, s23, [0, 1, 4, 5]), shuffle(s01, s23, [2, 3, 6, 7]))}`;
}

/** Row r of A, row c of B and row r of C at the block's pointers (strides precomputed). */
const aRow = (r) => (r === 0 ? get('ap') : i32.add(get('ap'), get(`ar${r}`)));
const bRow = (c) => (c === 0 ? get('bp') : i32.add(get('bp'), get(`br${c}`)));
const cRow = (r) => (r === 0 ? get('cp') : i32.add(get('cp'), get(`cr${r}`)));

/** One rows × cols block of C at ($i, $j) (cols 4 or 1), with `madd(x, y, acc)` the step. */
function block(rows, cols, madd) {
  const acc = (r, c) => `d${r}_${c}`;
  const lines = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++)
      lines.push(`(local.set $${acc(r, c)} (v128.const i32x4 0 0 0 0))`);
  lines.push(`(local.set $ap ${i32.add(get('a'), `(i32.mul ${get('i')} ${get('ars')})`)})`);
  lines.push(`(local.set $bp ${i32.add(get('b'), `(i32.mul ${get('j')} ${get('brs')})`)})`);
  lines.push(`(local.set $kk (i32.shr_u ${get('k')} (i32.const 2)))`);
  const body = [];
  for (let r = 0; r < rows; r++) body.push(`(local.set $x${r} (v128.load align=4 ${aRow(r)}))`);
  for (let c = 0; c < cols; c++) {
    body.push(`(local.set $y (v128.load align=4 ${bRow(c)}))`);
    for (let r = 0; r < rows; r++)
      body.push(`(local.set $${acc(r, c)} ${madd(get(`x${r}`), get('y'), get(acc(r, c)))})`);
  }
  body.push(`(local.set $ap ${i32.add(get('ap'), '(i32.const 16)')})`);
  body.push(`(local.set $bp ${i32.add(get('bp'), '(i32.const 16)')})`);
  lines.push(
    `(if ${get('kk')} (then (loop $k ${body.join(' ')}`,
    `(br_if $k (local.tee $kk (i32.sub ${get('kk')} (i32.const 1)))))))`,
  );
  lines.push(
    `(local.set $cp ${i32.add(i32.add(get('c'), `(i32.mul ${get('i')} ${get('crs')})`), `(i32.shl ${get('j')} (i32.const 2))`)})`,
  );
  for (let r = 0; r < rows; r++) {
    const at = cRow(r);
    if (cols === 4) {
      const sums = [0, 1, 2, 3].map((c) => get(acc(r, c)));
      lines.push(`(local.set $y ${laneSums(...sums)})`);
      lines.push(
        `(if ${get('accum')} (then (local.set $y ${f32x4.add(get('y'), `(v128.load align=4 ${at})`)})))`,
      );
      lines.push(`(v128.store align=4 ${at} ${get('y')})`);
    } else {
      const sum = f32x4.reduce('f32.add', get(acc(r, 0)));
      lines.push(`(local.set $z ${sum})`);
      lines.push(
        `(if ${get('accum')} (then (local.set $z (f32.add ${get('z')} (f32.load ${at})))))`,
      );
      lines.push(`(f32.store ${at} ${get('z')})`);
    }
  }
  return lines.join('\n');
}

/** A band of `rows` rows at $i: blocks of four columns while they fit, then single columns. */
function band(rows, madd) {
  const columns = (cols) => `(block $jd${cols} (loop $jl${cols}
      (br_if $jd${cols} (i32.gt_u ${i32.add(get('j'), `(i32.const ${cols})`)} ${get('n')}))
      ${block(rows, cols, madd)}
      (local.set $j ${i32.add(get('j'), `(i32.const ${cols})`)})
      (br $jl${cols})))`;
  return `(local.set $j (i32.const 0))
    ${columns(4)}
    ${columns(1)}`;
}

/** Row bands of `rows` at $i while they fit (`label` names the loop). */
function rowBands(rows, madd, label) {
  return `(block $${label}d (loop $${label}l
      (br_if $${label}d (i32.gt_u ${i32.add(get('i'), `(i32.const ${rows})`)} ${get('m')}))
      ${band(rows, madd)}
      (local.set $i ${i32.add(get('i'), `(i32.const ${rows})`)})
      (br $${label}l)))`;
}

/**
 * `gemm_dot(a, ars, sa, b, brs, sb, c, crs, sc, m, n, k, batch, accum)`: `batch` products
 * C (+)= A·Bᵀ, A m × k and B n × k with contiguous rows (byte row strides ars, brs), C m × n (crs),
 * each operand advanced by its byte stride between products; k a multiple of 4. `madd(x, y, acc)`
 * is acc + x·y in the module's arithmetic; `batchLoop(body)` is gemmWat.mjs's loop over products.
 */
export function gemmDot(madd, batchLoop) {
  const names = ['i', 'j', 'kk', 'ap', 'bp', 'cp', 'p'];
  for (let r = 1; r < ROWS; r++) names.push(`ar${r}`, `cr${r}`);
  for (let c = 1; c < 4; c++) names.push(`br${c}`);
  const v128 = ['y', 's01', 's23'];
  for (let r = 0; r < ROWS; r++) {
    v128.push(`x${r}`);
    for (let c = 0; c < 4; c++) v128.push(`d${r}_${c}`);
  }
  const strides = [];
  for (let r = 1; r < ROWS; r++)
    strides.push(
      `(local.set $ar${r} (i32.mul ${get('ars')} (i32.const ${r})))`,
      `(local.set $cr${r} (i32.mul ${get('crs')} (i32.const ${r})))`,
    );
  for (let c = 1; c < 4; c++)
    strides.push(`(local.set $br${c} (i32.mul ${get('brs')} (i32.const ${c})))`);
  return `(func (export "gemm_dot")
    (param $a i32) (param $ars i32) (param $sa i32)
    (param $b i32) (param $brs i32) (param $sb i32)
    (param $c i32) (param $crs i32) (param $sc i32)
    (param $m i32) (param $n i32) (param $k i32) (param $batch i32) (param $accum i32)
    ${names.map((n) => `(local $${n} i32)`).join(' ')}
    ${v128.map((n) => `(local $${n} v128)`).join(' ')} (local $z f32)
    ${strides.join('\n')}
    ${batchLoop(`${rowBands(ROWS, madd, 'ib')}
      ${rowBands(1, madd, 'i1')}`)}
  )`;
}
