// Writes the WebAssembly text of the engine's GEMM kernels: gemm.wat beside it, and gemmFma.wat
// with `{ fma: true }`. `pnpm --filter @boltzmann/attention build:wasm` (tools/wasm/buildWasm.mjs,
// through ../registry.mjs) writes both and compiles them into gemm{,Fma}{,Shared}Wasm.generated.ts
// here. One register-blocked micro-kernel, generated for
// every edge: C(i, j) (+)= Σ_p A(i, p) · B(p, j), where A is read through two byte strides (so
// A and Aᵀ are the same kernel), B's rows are contiguous in j, and C is row-major with a row
// stride. A ROWS × (4·VECS) tile of C lives in ROWS·VECS f32x4 accumulators; each step of p
// loads VECS vectors of B and ROWS splats of A, then mul and add, or, in the `fma` variant,
// one relaxed-SIMD `f32x4.relaxed_madd` (a fused multiply-add where the CPU has one; Node 22+ and
// browsers since 2023 run it, Node 20 behind --experimental-wasm-relaxed-simd).
// A·Bᵀ is served by `transpose` into the caller's scratch, then the same kernel; narrow A·Bᵀ
// products by `gemm_dot` (gemmDotWat.mjs), which needs no transpose.
import { arenaModule, f32x4, get, i32 } from '../../../../../../tools/wasm/wat.mjs';
import { gemmDot } from './gemmDotWat.mjs';

/** Rows and f32x4 vectors per row of the main micro-tile (4 × 8 floats). */
let ROWS = 4;
let VECS = 2;

/** The address of row `r` of A: the row pointer plus r times A's row stride (precomputed). */
const aRow = (r) => (r === 0 ? get('ap') : i32.add(get('ap'), get(`ar${r}`)));

/** Whether the module being written uses relaxed-SIMD multiply-adds (set by `gemmWat`). */
let fused = false;

/** acc + x·y in the module's arithmetic: f32 (scalar columns), f32x4 mul + add, or relaxed_madd. */
function multiplyAdd(scalar, acc, x, y) {
  const [a, xs, ys] = [`(local.get ${acc})`, `(local.get ${x})`, `(local.get ${y})`];
  if (scalar) return `(f32.add ${a} (f32.mul ${xs} ${ys}))`;
  return fused
    ? `(f32x4.relaxed_madd ${xs} ${ys} ${a})`
    : `(f32x4.add ${a} (f32x4.mul ${xs} ${ys}))`;
}

/** acc + x·y on f32x4 expressions, in the module's arithmetic (for `gemm_dot`). */
const dotMultiplyAdd = (x, y, acc) =>
  fused ? `(f32x4.relaxed_madd ${x} ${y} ${acc})` : `(f32x4.add ${acc} (f32x4.mul ${x} ${y}))`;

/** The inner product loop and store of one rows × vecs tile (`vecs` 0: one scalar column). */
function tile(rows, vecs) {
  const scalar = vecs === 0;
  const width = scalar ? 1 : vecs;
  const acc = (r, v) => (scalar ? `$c${r}_${v}f` : `$c${r}_${v}`);
  const zero = scalar ? '(f32.const 0)' : '(v128.const i32x4 0 0 0 0)';
  const lines = [];
  for (let r = 0; r < rows; r++)
    for (let v = 0; v < width; v++) lines.push(`(local.set ${acc(r, v)} ${zero})`);
  lines.push(`(local.set $ap ${i32.add(get('a'), `(i32.mul ${get('i')} ${get('ars')})`)})`);
  lines.push(`(local.set $bp ${i32.add(get('b'), `(i32.shl ${get('j')} (i32.const 2))`)})`);
  lines.push(`(local.set $kk ${get('k')})`);
  const body = [];
  for (let v = 0; v < width; v++)
    body.push(
      scalar
        ? `(local.set $s0 (f32.load ${get('bp')}))`
        : `(local.set $b${v} (v128.load offset=${16 * v} align=4 ${get('bp')}))`,
    );
  for (let r = 0; r < rows; r++) {
    body.push(
      scalar
        ? `(local.set $s1 (f32.load ${aRow(r)}))`
        : `(local.set $sp (v128.load32_splat align=4 ${aRow(r)}))`,
    );
    for (let v = 0; v < width; v++) {
      const [x, y] = scalar ? ['$s1', '$s0'] : ['$sp', `$b${v}`];
      body.push(`(local.set ${acc(r, v)} ${multiplyAdd(scalar, acc(r, v), x, y)})`);
    }
  }
  body.push(`(local.set $ap ${i32.add(get('ap'), get('acs'))})`);
  body.push(`(local.set $bp ${i32.add(get('bp'), get('brs'))})`);
  lines.push(
    `(if ${get('kk')} (then (loop $k ${body.join(' ')}`,
    `(br_if $k (local.tee $kk (i32.sub ${get('kk')} (i32.const 1)))))))`,
  );
  lines.push(...store(rows, width, scalar, acc));
  return lines.join('\n');
}

/** Writes (or, with $accum, adds) a tile's accumulators into C. */
function store(rows, width, scalar, acc) {
  const lines = [
    `(local.set $cp ${i32.add(i32.add(get('c'), `(i32.mul ${get('i')} ${get('crs')})`), `(i32.shl ${get('j')} (i32.const 2))`)})`,
  ];
  const adds = [];
  const stores = [];
  for (let r = 0; r < rows; r++) {
    const row = r === 0 ? get('cp') : i32.add(get('cp'), get(`cr${r}`));
    for (let v = 0; v < width; v++) {
      const load = scalar ? `(f32.load ${row})` : `(v128.load offset=${16 * v} align=4 ${row})`;
      const type = scalar ? 'f32' : 'f32x4';
      adds.push(`(local.set ${acc(r, v)} (${type}.add (local.get ${acc(r, v)}) ${load}))`);
      stores.push(
        scalar
          ? `(f32.store ${row} (local.get ${acc(r, v)}))`
          : `(v128.store offset=${16 * v} align=4 ${row} (local.get ${acc(r, v)}))`,
      );
    }
  }
  lines.push(`(if ${get('accum')} (then ${adds.join(' ')}))`, ...stores);
  return lines;
}

/** Loops j over column blocks of `cols` floats from $j while they fit, each a tile. */
function columns(rows, cols, vecs) {
  return `(block $jd (loop $jl
    (br_if $jd (i32.gt_u ${i32.add(get('j'), `(i32.const ${cols})`)} ${get('n')}))
    ${tile(rows, vecs)}
    (local.set $j ${i32.add(get('j'), `(i32.const ${cols})`)})
    (br $jl)))`;
}

/** One band of `rows` rows of C at $i: wide tiles, then one-vector tiles, then scalar columns. */
function band(rows) {
  return `(local.set $j (i32.const 0))
    ${columns(rows, 4 * VECS, VECS)}
    ${VECS > 1 ? columns(rows, 4, 1) : ''}
    ${columns(rows, 1, 0)}`;
}

/** The declarations of every local the tiles use. */
function locals() {
  const names = ['i', 'j', 'kk', 'ap', 'bp', 'cp', 'p'];
  for (let r = 1; r < ROWS; r++) names.push(`ar${r}`, `cr${r}`);
  const v128 = ['sp'];
  const f32 = ['s0', 's1'];
  for (let r = 0; r < ROWS; r++)
    for (let v = 0; v < VECS; v++) {
      v128.push(`c${r}_${v}`);
      if (v === 0) f32.push(`c${r}_${v}f`);
    }
  for (let v = 0; v < VECS; v++) v128.push(`b${v}`);
  return [
    ...names.map((n) => `(local $${n} i32)`),
    ...v128.map((n) => `(local $${n} v128)`),
    ...f32.map((n) => `(local $${n} f32)`),
  ].join(' ');
}

/**
 * The batched GEMM `name` on ROWS × (4·VECS) tiles: `batch` products, each operand advanced by its
 * byte stride between them.
 */
function gemm(name) {
  const strides = [];
  for (let r = 1; r < ROWS; r++)
    strides.push(
      `(local.set $ar${r} (i32.mul ${get('ars')} (i32.const ${r})))`,
      `(local.set $cr${r} (i32.mul ${get('crs')} (i32.const ${r})))`,
    );
  return `(func (export "${name}")
    (param $a i32) (param $ars i32) (param $acs i32) (param $sa i32)
    (param $b i32) (param $brs i32) (param $sb i32)
    (param $c i32) (param $crs i32) (param $sc i32)
    (param $m i32) (param $n i32) (param $k i32) (param $batch i32) (param $accum i32)
    ${locals()}
    ${strides.join('\n')}
    ${batchLoop(`(block $id (loop $il
        (br_if $id (i32.gt_u ${i32.add(get('i'), `(i32.const ${ROWS})`)} ${get('m')}))
        ${band(ROWS)}
        (local.set $i ${i32.add(get('i'), `(i32.const ${ROWS})`)})
        (br $il)))
      (block $id1 (loop $il1
        (br_if $id1 (i32.ge_u ${get('i')} ${get('m')}))
        ${band(1)}
        (local.set $i ${i32.add(get('i'), '(i32.const 1)')})
        (br $il1)))`)}
  )`;
}

/**
 * The loop over a call's `batch` products: `body` runs each product from row $i = 0, then A, B
 * and C advance by their byte strides ($sa, $sb, $sc). Shared by every GEMM kernel.
 */
function batchLoop(body) {
  return `(block $pd (loop $pl
      (br_if $pd (i32.ge_u ${get('p')} ${get('batch')}))
      (local.set $i (i32.const 0))
      ${body}
      (local.set $a ${i32.add(get('a'), get('sa'))})
      (local.set $b ${i32.add(get('b'), get('sb'))})
      (local.set $c ${i32.add(get('c'), get('sc'))})
      (local.set $p ${i32.add(get('p'), '(i32.const 1)')})
      (br $pl)))`;
}

/**
 * dst[q] (cols × rows, contiguous, q < batch, one after another) = src[q]ᵀ, each src rows × cols
 * with a row stride of `srs` bytes, `ss` bytes apart.
 */
function transpose() {
  return `(func (export "transpose")
    (param $src i32) (param $srs i32) (param $ss i32) (param $dst i32)
    (param $rows i32) (param $cols i32) (param $batch i32)
    (local $i i32) (local $j i32) (local $q i32) (local $sp i32) (local $dp i32) (local $base i32)
    (local $drs i32) (local $rows4 i32) (local $cols4 i32)
    (local $r0 v128) (local $r1 v128) (local $r2 v128) (local $r3 v128) (local $t0 v128)
    (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (local.set $drs (i32.shl ${get('rows')} (i32.const 2)))
    (local.set $rows4 (i32.and ${get('rows')} (i32.const -4)))
    (local.set $cols4 (i32.and ${get('cols')} (i32.const -4)))
    (block $qd (loop $ql
      (br_if $qd (i32.ge_u ${get('q')} ${get('batch')}))
      (local.set $base ${i32.add(get('dst'), `(i32.mul (i32.mul ${get('q')} ${get('drs')}) ${get('cols')})`)})
      ${blocks4()}
      ${scalarRest()}
      (local.set $q ${i32.add(get('q'), '(i32.const 1)')})
      (br $ql))))`;
}

/** The source row of $i of product $q. */
const srcRow = () =>
  i32.add(
    i32.add(get('src'), `(i32.mul ${get('q')} ${get('ss')})`),
    `(i32.mul ${get('i')} ${get('srs')})`,
  );

/** 4 × 4 blocks: four rows loaded as vectors, transposed by shuffles, stored as four columns. */
function blocks4() {
  const row = (r) =>
    r === 0 ? get('sp') : i32.add(get('sp'), `(i32.mul ${get('srs')} (i32.const ${r}))`);
  const out = (r) =>
    r === 0 ? get('dp') : i32.add(get('dp'), `(i32.mul ${get('drs')} (i32.const ${r}))`);
  const shuf = (x, y, order) => f32x4.shuffle(get(x), get(y), order);
  return `(local.set $i (i32.const 0))
    (block $id (loop $il
      (br_if $id (i32.ge_u ${get('i')} ${get('rows4')}))
      (local.set $sp ${srcRow()})
      (local.set $dp ${i32.add(get('base'), `(i32.shl ${get('i')} (i32.const 2))`)})
      (local.set $j (i32.const 0))
      (block $jd (loop $jl
        (br_if $jd (i32.ge_u ${get('j')} ${get('cols4')}))
        ${[0, 1, 2, 3].map((r) => `(local.set $r${r} (v128.load align=4 ${row(r)}))`).join(' ')}
        (local.set $t0 ${shuf('r0', 'r1', [0, 4, 1, 5])}) (local.set $t1 ${shuf('r0', 'r1', [2, 6, 3, 7])})
        (local.set $t2 ${shuf('r2', 'r3', [0, 4, 1, 5])}) (local.set $t3 ${shuf('r2', 'r3', [2, 6, 3, 7])})
        (v128.store align=4 ${out(0)} ${shuf('t0', 't2', [0, 1, 4, 5])})
        (v128.store align=4 ${out(1)} ${shuf('t0', 't2', [2, 3, 6, 7])})
        (v128.store align=4 ${out(2)} ${shuf('t1', 't3', [0, 1, 4, 5])})
        (v128.store align=4 ${out(3)} ${shuf('t1', 't3', [2, 3, 6, 7])})
        (local.set $sp ${i32.add(get('sp'), '(i32.const 16)')})
        (local.set $dp ${i32.add(get('dp'), `(i32.shl ${get('drs')} (i32.const 2))`)})
        (local.set $j ${i32.add(get('j'), '(i32.const 4)')})
        (br $jl)))
      (local.set $i ${i32.add(get('i'), '(i32.const 4)')})
      (br $il)))`;
}

/** Every entry the blocks left (columns past cols4 of the blocked rows, all of the rest), scalar. */
function scalarRest() {
  return `(local.set $i (i32.const 0))
    (block $sd (loop $sl
      (br_if $sd (i32.ge_u ${get('i')} ${get('rows')}))
      (local.set $j (select ${get('cols4')} (i32.const 0) (i32.lt_u ${get('i')} ${get('rows4')})))
      (local.set $sp ${i32.add(srcRow(), `(i32.shl ${get('j')} (i32.const 2))`)})
      (local.set $dp ${i32.add(i32.add(get('base'), `(i32.shl ${get('i')} (i32.const 2))`), `(i32.mul ${get('j')} ${get('drs')})`)})
      (block $td (loop $tl
        (br_if $td (i32.ge_u ${get('j')} ${get('cols')}))
        (f32.store ${get('dp')} (f32.load ${get('sp')}))
        (local.set $sp ${i32.add(get('sp'), '(i32.const 4)')})
        (local.set $dp ${i32.add(get('dp'), get('drs'))})
        (local.set $j ${i32.add(get('j'), '(i32.const 1)')})
        (br $tl)))
      (local.set $i ${i32.add(get('i'), '(i32.const 1)')})
      (br $sl)))`;
}

/** The tile shapes (rows × f32x4 vectors) of `gemm` and of `gemm_narrow` (n < 16), measured best. */
export const TILES = {
  // mul + add: 4 × 8 beats 2 × 16 and 6 × 8 on the models' shapes; with FMA 2 × 16 does (fewer
  // splats of A per multiply-add): 35–44 against 26–30 GFLOP/s at 768 × 256 × 64 (scripts/benchEngineGemm.ts).
  plain: { wide: [4, 2], narrow: [4, 2] },
  fma: { wide: [2, 4], narrow: [4, 2] },
};

/** `gemm` for n ≥ 16 and `gemm_narrow` for narrower products, in one tile shape each. */
function gemms() {
  const tiles = fused ? TILES.fma : TILES.plain;
  return [
    ['gemm', tiles.wide],
    ['gemm_narrow', tiles.narrow],
  ]
    .map(([name, [rows, vecs]]) => {
      ROWS = rows;
      VECS = vecs;
      return gemm(name);
    })
    .join('\n');
}

/**
 * The module's text: it imports the caller's memory (the engine's one arena). `fma`: the
 * relaxed-SIMD variant (compile with wabt's `relaxed_simd` feature).
 */
export function gemmWat({ fma = false } = {}) {
  fused = fma;
  return arenaModule(gemms(), gemmDot(dotMultiplyAdd, batchLoop), transpose());
}
