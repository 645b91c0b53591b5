;; The split kernels of splitKernels.ts in WebAssembly with 128-bit SIMD (two float64 lanes).
;; Same arithmetic, same order: lane 0 carries the even low-bit columns and lane 1 the odd ones,
;; which is exactly how the unrolled JavaScript loops pair their accumulators, so both versions
;; give bit-identical results (tested).
;;
;; Every pointer is a byte offset into the exported memory; the caller (wasmKernels.ts) lays its
;; scratch tables out in that memory. Both kernels need at least two low-bit columns and two
;; high-bit rows (m ≥ 1, highBits ≥ 1); the caller runs the scalar JavaScript loops otherwise.
;; Regenerate splitWasm.generated.ts after editing: `pnpm --filter @boltzmann/ising-core build:wasm`.
(module
  (memory (export "memory") 1)

  ;; Forward: for p̃(s) = E[s]·L[l]·H[r] (s = r·2^m + l) writes col[l] = Σ_r p̃ and row[r] = Σ_l p̃.
  (func (export "forward")
    (param $E i32) (param $L i32) (param $H i32) (param $m i32) (param $highBits i32)
    (param $col i32) (param $row i32)
    (local $lowBytes i32) (local $rowBytes i32) (local $r i32) (local $l i32)
    (local $e0row i32) (local $e1row i32)
    (local $h0 f64) (local $h1 f64) (local $h0v v128) (local $h1v v128)
    (local $a0 v128) (local $a1 v128) (local $lv v128) (local $e0 v128) (local $e1 v128)
    (local.set $lowBytes (i32.shl (i32.const 8) (local.get $m)))
    (local.set $rowBytes (i32.shl (i32.const 8) (local.get $highBits)))
    (memory.fill (local.get $col) (i32.const 0) (local.get $lowBytes))
    (local.set $e0row (local.get $E))
    (local.set $r (i32.const 0))
    (loop $rows
      (local.set $e1row (i32.add (local.get $e0row) (local.get $lowBytes)))
      (local.set $h0 (f64.load (i32.add (local.get $H) (local.get $r))))
      (local.set $h1 (f64.load offset=8 (i32.add (local.get $H) (local.get $r))))
      (local.set $h0v (f64x2.splat (local.get $h0)))
      (local.set $h1v (f64x2.splat (local.get $h1)))
      (local.set $a0 (v128.const f64x2 0 0))
      (local.set $a1 (v128.const f64x2 0 0))
      (local.set $l (i32.const 0))
      (loop $cols
        (local.set $lv (v128.load (i32.add (local.get $L) (local.get $l))))
        (local.set $e0 (v128.load (i32.add (local.get $e0row) (local.get $l))))
        (local.set $e1 (v128.load (i32.add (local.get $e1row) (local.get $l))))
        (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $e0) (local.get $lv))))
        (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $e1) (local.get $lv))))
        (v128.store (i32.add (local.get $col) (local.get $l))
          (f64x2.add
            (v128.load (i32.add (local.get $col) (local.get $l)))
            (f64x2.add (f64x2.mul (local.get $h0v) (local.get $e0)) (f64x2.mul (local.get $h1v) (local.get $e1)))))
        (br_if $cols (i32.lt_u (local.tee $l (i32.add (local.get $l) (i32.const 16))) (local.get $lowBytes))))
      (f64.store (i32.add (local.get $row) (local.get $r))
        (f64.mul (local.get $h0) (f64.add (f64x2.extract_lane 0 (local.get $a0)) (f64x2.extract_lane 1 (local.get $a0)))))
      (f64.store offset=8 (i32.add (local.get $row) (local.get $r))
        (f64.mul (local.get $h1) (f64.add (f64x2.extract_lane 0 (local.get $a1)) (f64x2.extract_lane 1 (local.get $a1)))))
      (local.set $e0row (i32.add (local.get $e1row) (local.get $lowBytes)))
      (br_if $rows (i32.lt_u (local.tee $r (i32.add (local.get $r) (i32.const 16))) (local.get $rowBytes))))
    ;; col[l] *= L[l]
    (local.set $l (i32.const 0))
    (loop $scale
      (v128.store (i32.add (local.get $col) (local.get $l))
        (f64x2.mul
          (v128.load (i32.add (local.get $col) (local.get $l)))
          (v128.load (i32.add (local.get $L) (local.get $l)))))
      (br_if $scale (i32.lt_u (local.tee $l (i32.add (local.get $l) (i32.const 16))) (local.get $lowBytes)))))

  ;; Backward: x(s) = E[s]·(A[l]·a[r] + B[l]·b[r]); acc[s] += x, col[l] = Σ_r x, row[r] = Σ_l x.
  (func (export "backward")
    (param $E i32) (param $A i32) (param $B i32) (param $a i32) (param $b i32)
    (param $m i32) (param $highBits i32) (param $acc i32) (param $col i32) (param $row i32)
    (local $lowBytes i32) (local $rowBytes i32) (local $r i32) (local $l i32)
    (local $off0 i32) (local $off1 i32)
    (local $a0 v128) (local $b0 v128) (local $a1 v128) (local $b1 v128)
    (local $s0 v128) (local $s1 v128) (local $av v128) (local $bv v128) (local $x0 v128) (local $x1 v128)
    (local $p i32)
    (local.set $lowBytes (i32.shl (i32.const 8) (local.get $m)))
    (local.set $rowBytes (i32.shl (i32.const 8) (local.get $highBits)))
    (memory.fill (local.get $col) (i32.const 0) (local.get $lowBytes))
    (local.set $off0 (i32.const 0))
    (local.set $r (i32.const 0))
    (loop $rows
      (local.set $off1 (i32.add (local.get $off0) (local.get $lowBytes)))
      (local.set $a0 (v128.load64_splat (i32.add (local.get $a) (local.get $r))))
      (local.set $b0 (v128.load64_splat (i32.add (local.get $b) (local.get $r))))
      (local.set $a1 (v128.load64_splat offset=8 (i32.add (local.get $a) (local.get $r))))
      (local.set $b1 (v128.load64_splat offset=8 (i32.add (local.get $b) (local.get $r))))
      (local.set $s0 (v128.const f64x2 0 0))
      (local.set $s1 (v128.const f64x2 0 0))
      (local.set $l (i32.const 0))
      (loop $cols
        (local.set $av (v128.load (i32.add (local.get $A) (local.get $l))))
        (local.set $bv (v128.load (i32.add (local.get $B) (local.get $l))))
        (local.set $p (i32.add (local.get $off0) (local.get $l)))
        (local.set $x0
          (f64x2.mul
            (v128.load (i32.add (local.get $E) (local.get $p)))
            (f64x2.add (f64x2.mul (local.get $av) (local.get $a0)) (f64x2.mul (local.get $bv) (local.get $b0)))))
        (v128.store (i32.add (local.get $acc) (local.get $p))
          (f64x2.add (v128.load (i32.add (local.get $acc) (local.get $p))) (local.get $x0)))
        (local.set $p (i32.add (local.get $off1) (local.get $l)))
        (local.set $x1
          (f64x2.mul
            (v128.load (i32.add (local.get $E) (local.get $p)))
            (f64x2.add (f64x2.mul (local.get $av) (local.get $a1)) (f64x2.mul (local.get $bv) (local.get $b1)))))
        (v128.store (i32.add (local.get $acc) (local.get $p))
          (f64x2.add (v128.load (i32.add (local.get $acc) (local.get $p))) (local.get $x1)))
        (v128.store (i32.add (local.get $col) (local.get $l))
          (f64x2.add (v128.load (i32.add (local.get $col) (local.get $l))) (f64x2.add (local.get $x0) (local.get $x1))))
        (local.set $s0 (f64x2.add (local.get $s0) (local.get $x0)))
        (local.set $s1 (f64x2.add (local.get $s1) (local.get $x1)))
        (br_if $cols (i32.lt_u (local.tee $l (i32.add (local.get $l) (i32.const 16))) (local.get $lowBytes))))
      (f64.store (i32.add (local.get $row) (local.get $r))
        (f64.add (f64x2.extract_lane 0 (local.get $s0)) (f64x2.extract_lane 1 (local.get $s0))))
      (f64.store offset=8 (i32.add (local.get $row) (local.get $r))
        (f64.add (f64x2.extract_lane 0 (local.get $s1)) (f64x2.extract_lane 1 (local.get $s1))))
      (local.set $off0 (i32.add (local.get $off1) (local.get $lowBytes)))
      (br_if $rows (i32.lt_u (local.tee $r (i32.add (local.get $r) (i32.const 16))) (local.get $rowBytes)))))
)
