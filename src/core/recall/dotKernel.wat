(module
  (import "env" "memory" (memory 1))
  ;; out[r] = dot(int8 row r, int16 query) as i32 for r in [0, rows); dims a multiple of 16
  (func (export "dots8q") (param $m i32) (param $q i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $r i32) (local $p i32) (local $qp i32) (local $end i32)
    (local $a0 v128) (local $a1 v128) (local $v v128)
    (local.set $p (local.get $m))
    (block $done
      (loop $rowloop
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $qp (local.get $q))
        (local.set $end (i32.add (local.get $p) (local.get $dims)))
        (loop $inner
          (local.set $v (v128.load (local.get $p)))
          (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $qp)))))
          (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $qp)))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
          (br_if $inner (i32.lt_u (local.get $p) (local.get $end))))
        (local.set $a0 (i32x4.add (local.get $a0) (local.get $a1)))
        (i32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (i32.add (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
                   (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rowloop))))
)
