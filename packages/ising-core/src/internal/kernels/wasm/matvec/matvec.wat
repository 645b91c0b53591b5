;; Dense matrix–vector kernels of the fixed-point samplers (denseMatvec.ts) in WebAssembly with
;; 128-bit SIMD: `J x`, and `J x` with `(J ∘ J) y` in one pass, over the top-left n × n block of a
;; row-major matrix with `stride` columns. Lane 0 sums the even columns, lane 1 the odd ones, and
;; the two are added at the end, so results differ from the JavaScript loops by rounding only.
;; Columns are taken in pairs: when n is odd the caller sets x[n] = y[n] = 0 and leaves 8 bytes
;; of readable memory after the matrix (column n of the last row then reads one double past it).
;; Pointers are byte offsets into the exported memory.
;; Regenerate matvecWasm.generated.ts after editing: `pnpm --filter @boltzmann/ising-core build:wasm`.
(module
  (memory (export "memory") 1)

  ;; out[j] = Σ_k J[j,k] x[k], four rows per pass.
  (func (export "matvec") (param $J i32) (param $stride i32) (param $n i32) (param $x i32) (param $out i32)
    (local $rowBytes i32) (local $kEnd i32) (local $j i32) (local $k i32)
    (local $r0 i32) (local $r1 i32) (local $r2 i32) (local $r3 i32)
    (local $xv v128) (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 3)))
    ;; Column pairs: k runs over byte offsets 0, 16, … < 8·n rounded up to a pair.
    (local.set $kEnd (i32.shl (i32.and (i32.add (local.get $n) (i32.const 1)) (i32.const -2)) (i32.const 3)))
    (local.set $j (i32.const 0))
    (block $done4
      (loop $rows4
        (br_if $done4 (i32.gt_s (i32.add (local.get $j) (i32.const 4)) (local.get $n)))
        (local.set $r0 (i32.add (local.get $J) (i32.mul (local.get $j) (local.get $rowBytes))))
        (local.set $r1 (i32.add (local.get $r0) (local.get $rowBytes)))
        (local.set $r2 (i32.add (local.get $r1) (local.get $rowBytes)))
        (local.set $r3 (i32.add (local.get $r2) (local.get $rowBytes)))
        (local.set $a (v128.const f64x2 0 0))
        (local.set $b (v128.const f64x2 0 0))
        (local.set $c (v128.const f64x2 0 0))
        (local.set $d (v128.const f64x2 0 0))
        (local.set $k (i32.const 0))
        (loop $cols
          (local.set $xv (v128.load (i32.add (local.get $x) (local.get $k))))
          (local.set $a (f64x2.add (local.get $a) (f64x2.mul (v128.load (i32.add (local.get $r0) (local.get $k))) (local.get $xv))))
          (local.set $b (f64x2.add (local.get $b) (f64x2.mul (v128.load (i32.add (local.get $r1) (local.get $k))) (local.get $xv))))
          (local.set $c (f64x2.add (local.get $c) (f64x2.mul (v128.load (i32.add (local.get $r2) (local.get $k))) (local.get $xv))))
          (local.set $d (f64x2.add (local.get $d) (f64x2.mul (v128.load (i32.add (local.get $r3) (local.get $k))) (local.get $xv))))
          (br_if $cols (i32.lt_u (local.tee $k (i32.add (local.get $k) (i32.const 16))) (local.get $kEnd))))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3)))
          (f64.add (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 1 (local.get $a))))
        (f64.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3)))
          (f64.add (f64x2.extract_lane 0 (local.get $b)) (f64x2.extract_lane 1 (local.get $b))))
        (f64.store offset=16 (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3)))
          (f64.add (f64x2.extract_lane 0 (local.get $c)) (f64x2.extract_lane 1 (local.get $c))))
        (f64.store offset=24 (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3)))
          (f64.add (f64x2.extract_lane 0 (local.get $d)) (f64x2.extract_lane 1 (local.get $d))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $rows4)))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_s (local.get $j) (local.get $n)))
        (local.set $r0 (i32.add (local.get $J) (i32.mul (local.get $j) (local.get $rowBytes))))
        (local.set $a (v128.const f64x2 0 0))
        (local.set $k (i32.const 0))
        (loop $cols1
          (local.set $a (f64x2.add (local.get $a)
            (f64x2.mul (v128.load (i32.add (local.get $r0) (local.get $k))) (v128.load (i32.add (local.get $x) (local.get $k))))))
          (br_if $cols1 (i32.lt_u (local.tee $k (i32.add (local.get $k) (i32.const 16))) (local.get $kEnd))))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3)))
          (f64.add (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 1 (local.get $a))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $rows))))

  ;; jx[j] = Σ_k J[j,k] x[k] and wy[j] = Σ_k J[j,k]² y[k], two rows per pass.
  (func (export "matvecAndSquares")
    (param $J i32) (param $stride i32) (param $n i32) (param $x i32) (param $y i32) (param $jx i32) (param $wy i32)
    (local $rowBytes i32) (local $kEnd i32) (local $j i32) (local $k i32) (local $r0 i32) (local $r1 i32)
    (local $xv v128) (local $yv v128) (local $v0 v128) (local $v1 v128)
    (local $a v128) (local $b v128) (local $a2 v128) (local $b2 v128)
    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 3)))
    (local.set $kEnd (i32.shl (i32.and (i32.add (local.get $n) (i32.const 1)) (i32.const -2)) (i32.const 3)))
    (local.set $j (i32.const 0))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_s (local.get $j) (local.get $n)))
        (local.set $r0 (i32.add (local.get $J) (i32.mul (local.get $j) (local.get $rowBytes))))
        ;; A lone last row pairs with itself (computed twice, stored once).
        (local.set $r1 (select (i32.add (local.get $r0) (local.get $rowBytes)) (local.get $r0)
          (i32.lt_s (i32.add (local.get $j) (i32.const 1)) (local.get $n))))
        (local.set $a (v128.const f64x2 0 0))
        (local.set $b (v128.const f64x2 0 0))
        (local.set $a2 (v128.const f64x2 0 0))
        (local.set $b2 (v128.const f64x2 0 0))
        (local.set $k (i32.const 0))
        (loop $cols
          (local.set $xv (v128.load (i32.add (local.get $x) (local.get $k))))
          (local.set $yv (v128.load (i32.add (local.get $y) (local.get $k))))
          (local.set $v0 (v128.load (i32.add (local.get $r0) (local.get $k))))
          (local.set $v1 (v128.load (i32.add (local.get $r1) (local.get $k))))
          (local.set $a (f64x2.add (local.get $a) (f64x2.mul (local.get $v0) (local.get $xv))))
          (local.set $b (f64x2.add (local.get $b) (f64x2.mul (local.get $v1) (local.get $xv))))
          (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (f64x2.mul (local.get $v0) (local.get $v0)) (local.get $yv))))
          (local.set $b2 (f64x2.add (local.get $b2) (f64x2.mul (f64x2.mul (local.get $v1) (local.get $v1)) (local.get $yv))))
          (br_if $cols (i32.lt_u (local.tee $k (i32.add (local.get $k) (i32.const 16))) (local.get $kEnd))))
        (f64.store (i32.add (local.get $jx) (i32.shl (local.get $j) (i32.const 3)))
          (f64.add (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 1 (local.get $a))))
        (f64.store (i32.add (local.get $wy) (i32.shl (local.get $j) (i32.const 3)))
          (f64.add (f64x2.extract_lane 0 (local.get $a2)) (f64x2.extract_lane 1 (local.get $a2))))
        (if (i32.lt_s (i32.add (local.get $j) (i32.const 1)) (local.get $n))
          (then
            (f64.store offset=8 (i32.add (local.get $jx) (i32.shl (local.get $j) (i32.const 3)))
              (f64.add (f64x2.extract_lane 0 (local.get $b)) (f64x2.extract_lane 1 (local.get $b))))
            (f64.store offset=8 (i32.add (local.get $wy) (i32.shl (local.get $j) (i32.const 3)))
              (f64.add (f64x2.extract_lane 0 (local.get $b2)) (f64x2.extract_lane 1 (local.get $b2))))))
        (local.set $j (i32.add (local.get $j) (i32.const 2)))
        (br $rows))))
)
