;; Batched float32 matrix products C[p] = A[p] B[p] (A m×k, B k×n, C m×n, row-major, the `batch`
;; matrices of each operand contiguous) in WebAssembly with 128-bit SIMD, for the small
;; per-head products of attention (T×d by d×T and T×T by T×d), where tfjs-backend-wasm's
;; batched matmul runs a scalar loop. Four rows of C are computed together, one f32x4 column
;; block at a time: the four accumulators are independent chains (no add-latency stall) and
;; share each load of B. Each entry sums its k products in order, so results differ from
;; another order of summation by rounding only. Pointers are byte offsets into the exported memory.
;; Regenerate gemmWasm.generated.ts after editing: `pnpm --filter @boltzmann/ising-core build:wasm`.
(module
  (memory (export "memory") 1)

  (func (export "gemm") (param $a i32) (param $b i32) (param $c i32) (param $batch i32) (param $m i32) (param $k i32) (param $n i32)
    (local $p i32) (local $i i32) (local $j i32) (local $kk i32) (local $n4 i32)
    (local $aRow i32) (local $aRowBytes i32) (local $bRowBytes i32) (local $cRowBytes i32)
    (local $ap i32) (local $bp i32) (local $cp i32)
    (local $acc0 v128) (local $acc1 v128) (local $acc2 v128) (local $acc3 v128) (local $bv v128)
    (local $s f32)
    (local.set $n4 (i32.and (local.get $n) (i32.const -4)))
    (local.set $aRowBytes (i32.shl (local.get $k) (i32.const 2)))
    (local.set $bRowBytes (i32.shl (local.get $n) (i32.const 2)))
    (local.set $cRowBytes (i32.shl (local.get $n) (i32.const 2)))
    (local.set $p (i32.const 0))
    (block $batchDone
      (loop $batchLoop
        (br_if $batchDone (i32.ge_u (local.get $p) (local.get $batch)))
        (local.set $i (i32.const 0))
        ;; Blocks of four rows.
        (block $rows4Done
          (loop $rows4
            (br_if $rows4Done (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $m)))
            (local.set $aRow (i32.add (local.get $a) (i32.mul (local.get $i) (local.get $aRowBytes))))
            (local.set $j (i32.const 0))
            (block $colsDone
              (loop $cols
                (br_if $colsDone (i32.ge_u (local.get $j) (local.get $n4)))
                (local.set $acc0 (v128.const f32x4 0 0 0 0))
                (local.set $acc1 (v128.const f32x4 0 0 0 0))
                (local.set $acc2 (v128.const f32x4 0 0 0 0))
                (local.set $acc3 (v128.const f32x4 0 0 0 0))
                (local.set $ap (local.get $aRow))
                (local.set $bp (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 2))))
                (local.set $kk (local.get $k))
                (block $kDone
                  (loop $kLoop
                    (br_if $kDone (i32.eqz (local.get $kk)))
                    (local.set $bv (v128.load align=4 (local.get $bp)))
                    (local.set $acc0 (f32x4.add (local.get $acc0) (f32x4.mul (v128.load32_splat (local.get $ap)) (local.get $bv))))
                    (local.set $acc1 (f32x4.add (local.get $acc1)
                      (f32x4.mul (v128.load32_splat (i32.add (local.get $ap) (local.get $aRowBytes))) (local.get $bv))))
                    (local.set $acc2 (f32x4.add (local.get $acc2)
                      (f32x4.mul (v128.load32_splat (i32.add (local.get $ap) (i32.shl (local.get $aRowBytes) (i32.const 1)))) (local.get $bv))))
                    (local.set $acc3 (f32x4.add (local.get $acc3)
                      (f32x4.mul (v128.load32_splat (i32.add (local.get $ap) (i32.mul (local.get $aRowBytes) (i32.const 3)))) (local.get $bv))))
                    (local.set $ap (i32.add (local.get $ap) (i32.const 4)))
                    (local.set $bp (i32.add (local.get $bp) (local.get $bRowBytes)))
                    (local.set $kk (i32.sub (local.get $kk) (i32.const 1)))
                    (br $kLoop)))
                (local.set $cp (i32.add (i32.add (local.get $c) (i32.mul (local.get $i) (local.get $cRowBytes))) (i32.shl (local.get $j) (i32.const 2))))
                (v128.store align=4 (local.get $cp) (local.get $acc0))
                (v128.store align=4 (i32.add (local.get $cp) (local.get $cRowBytes)) (local.get $acc1))
                (v128.store align=4 (i32.add (local.get $cp) (i32.shl (local.get $cRowBytes) (i32.const 1))) (local.get $acc2))
                (v128.store align=4 (i32.add (local.get $cp) (i32.mul (local.get $cRowBytes) (i32.const 3))) (local.get $acc3))
                (local.set $j (i32.add (local.get $j) (i32.const 4)))
                (br $cols)))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $rows4)))
        ;; The rows left over (m mod 4), one f32x4 column block at a time.
        (block $rows1Done
          (loop $rows1
            (br_if $rows1Done (i32.ge_u (local.get $i) (local.get $m)))
            (local.set $aRow (i32.add (local.get $a) (i32.mul (local.get $i) (local.get $aRowBytes))))
            (local.set $j (i32.const 0))
            (block $cols1Done
              (loop $cols1
                (br_if $cols1Done (i32.ge_u (local.get $j) (local.get $n4)))
                (local.set $acc0 (v128.const f32x4 0 0 0 0))
                (local.set $ap (local.get $aRow))
                (local.set $bp (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 2))))
                (local.set $kk (local.get $k))
                (block $k1Done
                  (loop $k1Loop
                    (br_if $k1Done (i32.eqz (local.get $kk)))
                    (local.set $acc0 (f32x4.add (local.get $acc0) (f32x4.mul (v128.load32_splat (local.get $ap)) (v128.load align=4 (local.get $bp)))))
                    (local.set $ap (i32.add (local.get $ap) (i32.const 4)))
                    (local.set $bp (i32.add (local.get $bp) (local.get $bRowBytes)))
                    (local.set $kk (i32.sub (local.get $kk) (i32.const 1)))
                    (br $k1Loop)))
                (v128.store align=4
                  (i32.add (i32.add (local.get $c) (i32.mul (local.get $i) (local.get $cRowBytes))) (i32.shl (local.get $j) (i32.const 2)))
                  (local.get $acc0))
                (local.set $j (i32.add (local.get $j) (i32.const 4)))
                (br $cols1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $rows1)))
        ;; The columns left over (n mod 4) of every row, scalar.
        (local.set $i (i32.const 0))
        (block $tailRowsDone
          (loop $tailRows
            (br_if $tailRowsDone (i32.ge_u (local.get $i) (local.get $m)))
            (local.set $j (local.get $n4))
            (block $tailColsDone
              (loop $tailCols
                (br_if $tailColsDone (i32.ge_u (local.get $j) (local.get $n)))
                (local.set $s (f32.const 0))
                (local.set $ap (i32.add (local.get $a) (i32.mul (local.get $i) (local.get $aRowBytes))))
                (local.set $bp (i32.add (local.get $b) (i32.shl (local.get $j) (i32.const 2))))
                (local.set $kk (local.get $k))
                (block $k2Done
                  (loop $k2Loop
                    (br_if $k2Done (i32.eqz (local.get $kk)))
                    (local.set $s (f32.add (local.get $s) (f32.mul (f32.load (local.get $ap)) (f32.load (local.get $bp)))))
                    (local.set $ap (i32.add (local.get $ap) (i32.const 4)))
                    (local.set $bp (i32.add (local.get $bp) (local.get $bRowBytes)))
                    (local.set $kk (i32.sub (local.get $kk) (i32.const 1)))
                    (br $k2Loop)))
                (f32.store
                  (i32.add (i32.add (local.get $c) (i32.mul (local.get $i) (local.get $cRowBytes))) (i32.shl (local.get $j) (i32.const 2)))
                  (local.get $s))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $tailCols)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $tailRows)))
        ;; The next matrix of each operand.
        (local.set $a (i32.add (local.get $a) (i32.mul (local.get $m) (local.get $aRowBytes))))
        (local.set $b (i32.add (local.get $b) (i32.mul (local.get $k) (local.get $bRowBytes))))
        (local.set $c (i32.add (local.get $c) (i32.mul (local.get $m) (local.get $cRowBytes))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $batchLoop)))
  )
)
