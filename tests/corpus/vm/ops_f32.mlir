// Ember VM op conformance: f32 arithmetic (ExtF32 ops). Operands sit behind
// vm.optimization_barrier. Semantics checked: IEEE remainder for rem, round-half-
// away for round, round-half-even for round.even, float->int casts that round
// to nearest, min/max as plain < comparisons (NaN handling follows), ordered vs
// unordered comparisons with NaN, signed zeros (compared by bit pattern) and
// transcendental functions (check.nearly_eq, a ULP-based comparison).
vm.module @ops_f32 {
  vm.export @test_add_f32
  vm.func @test_add_f32() {
    %k1 = vm.const.f32 0x3FC00000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40100000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.add.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0x40700000
    vm.check.eq %v5, %k6, "add.f32(1.5, 2.25)" : f32
    %k7 = vm.const.f32 0xBF000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x3E000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.add.f32 %x8, %x10 : f32
    %k12 = vm.const.f32 0xBEC00000
    vm.check.eq %v11, %k12, "add.f32(-0.5, 0.125)" : f32
    %k13 = vm.const.f32 0x7149F2CA
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xF149F2CA
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.add.f32 %x14, %x16 : f32
    %k18 = vm.const.f32 0x00000000
    vm.check.eq %v17, %k18, "add.f32(1e+30, -1e+30)" : f32
    %k19 = vm.const.f32 0x7F800000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.add.f32 %x20, %x22 : f32
    %k24 = vm.const.f32 0x7F800000
    vm.check.eq %v23, %k24, "add.f32(inf, 1.0)" : f32
    vm.return
  }

  vm.export @test_sub_f32
  vm.func @test_sub_f32() {
    %k1 = vm.const.f32 0x3FC00000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40100000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.sub.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0xBF400000
    vm.check.eq %v5, %k6, "sub.f32(1.5, 2.25)" : f32
    %k7 = vm.const.f32 0xBF000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x3E000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.sub.f32 %x8, %x10 : f32
    %k12 = vm.const.f32 0xBF200000
    vm.check.eq %v11, %k12, "sub.f32(-0.5, 0.125)" : f32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0x40400000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.sub.f32 %x14, %x16 : f32
    %k18 = vm.const.f32 0x00000000
    vm.check.eq %v17, %k18, "sub.f32(3.0, 3.0)" : f32
    vm.return
  }

  vm.export @test_mul_f32
  vm.func @test_mul_f32() {
    %k1 = vm.const.f32 0x3FC00000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40100000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.mul.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0x40580000
    vm.check.eq %v5, %k6, "mul.f32(1.5, 2.25)" : f32
    %k7 = vm.const.f32 0xBF000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x3E000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.mul.f32 %x8, %x10 : f32
    %k12 = vm.const.f32 0xBD800000
    vm.check.eq %v11, %k12, "mul.f32(-0.5, 0.125)" : f32
    %k13 = vm.const.f32 0xC0400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0x00000000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.mul.f32 %x14, %x16 : f32
    %k18 = vm.const.f32 0x80000000
    vm.check.eq %v17, %k18, "mul.f32(-3.0, 0.0)" : f32
    vm.return
  }

  vm.export @test_div_f32
  vm.func @test_div_f32() {
    %k1 = vm.const.f32 0x41100000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.div.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0x40900000
    vm.check.eq %v5, %k6, "div.f32(9.0, 2.0)" : f32
    %k7 = vm.const.f32 0x3F800000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40800000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.div.f32 %x8, %x10 : f32
    %k12 = vm.const.f32 0x3E800000
    vm.check.eq %v11, %k12, "div.f32(1.0, 4.0)" : f32
    %k13 = vm.const.f32 0xC0400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0x3F000000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.div.f32 %x14, %x16 : f32
    %k18 = vm.const.f32 0xC0C00000
    vm.check.eq %v17, %k18, "div.f32(-3.0, 0.5)" : f32
    %k19 = vm.const.f32 0x3F800000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x00000000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.div.f32 %x20, %x22 : f32
    %k24 = vm.const.f32 0x7F800000
    vm.check.eq %v23, %k24, "div.f32(1.0, 0.0)" : f32
    vm.return
  }

  // 1/3 must be the correctly rounded quotient
  vm.export @test_div_f32_inexact
  vm.func @test_div_f32_inexact() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40400000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.div.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0x3EAAAAAB
    vm.check.eq %v5, %k6, "div(1, 3)" : f32
    vm.return
  }

  // IEEE remainder: the quotient is rounded to nearest (ties to even), not truncated as in fmod
  vm.export @test_rem_f32
  vm.func @test_rem_f32() {
    %k1 = vm.const.f32 0x40A00000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40400000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.rem.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0xBF800000
    vm.check.eq %v5, %k6, "rem.f32(5.0, 3.0)" : f32
    %k7 = vm.const.f32 0x40F00000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.rem.f32 %x8, %x10 : f32
    %k12 = vm.const.f32 0xBF000000
    vm.check.eq %v11, %k12, "rem.f32(7.5, 2.0)" : f32
    %k13 = vm.const.f32 0xC0E00000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0x40000000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.rem.f32 %x14, %x16 : f32
    %k18 = vm.const.f32 0x3F800000
    vm.check.eq %v17, %k18, "rem.f32(-7.0, 2.0)" : f32
    %k19 = vm.const.f32 0x40D00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x40000000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.rem.f32 %x20, %x22 : f32
    %k24 = vm.const.f32 0x3F000000
    vm.check.eq %v23, %k24, "rem.f32(6.5, 2.0)" : f32
    %k25 = vm.const.f32 0x41200000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x40800000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.rem.f32 %x26, %x28 : f32
    %k30 = vm.const.f32 0x40000000
    vm.check.eq %v29, %k30, "rem.f32(10.0, 4.0)" : f32
    %k31 = vm.const.f32 0xC0A00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x40400000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.rem.f32 %x32, %x34 : f32
    %k36 = vm.const.f32 0x3F800000
    vm.check.eq %v35, %k36, "rem.f32(-5.0, 3.0)" : f32
    vm.return
  }

  vm.export @test_fma_f32
  vm.func @test_fma_f32() {
    %k1 = vm.const.f32 0x40000000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40400000
    %x4 = vm.optimization_barrier %k3 : f32
    %k5 = vm.const.f32 0x3F000000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.fma.f32 %x2, %x4, %x6 : f32
    %k8 = vm.const.f32 0x40D00000
    vm.check.eq %v7, %k8, "fma(2.0, 3.0, 0.5)" : f32
    %k9 = vm.const.f32 0xBFC00000
    %x10 = vm.optimization_barrier %k9 : f32
    %k11 = vm.const.f32 0x40800000
    %x12 = vm.optimization_barrier %k11 : f32
    %k13 = vm.const.f32 0x41200000
    %x14 = vm.optimization_barrier %k13 : f32
    %v15 = vm.fma.f32 %x10, %x12, %x14 : f32
    %k16 = vm.const.f32 0x40800000
    vm.check.eq %v15, %k16, "fma(-1.5, 4.0, 10.0)" : f32
    %k17 = vm.const.f32 0x3E800000
    %x18 = vm.optimization_barrier %k17 : f32
    %k19 = vm.const.f32 0x3E800000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0xBD800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.fma.f32 %x18, %x20, %x22 : f32
    %v24 = vm.bitcast.f32.i32 %v23 : f32 -> i32
    %k25 = vm.const.i32 0
    vm.check.eq %v24, %k25, "fma(0.25, 0.25, -0.0625) (bits)" : i32
    vm.return
  }

  vm.export @test_abs_f32
  vm.func @test_abs_f32() {
    %k1 = vm.const.f32 0xC0200000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.abs.f32 %x2 : f32
    %k4 = vm.const.f32 0x40200000
    vm.check.eq %v3, %k4, "abs.f32(-2.5)" : f32
    %k5 = vm.const.f32 0x40200000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.abs.f32 %x6 : f32
    %k8 = vm.const.f32 0x40200000
    vm.check.eq %v7, %k8, "abs.f32(2.5)" : f32
    %k9 = vm.const.i32 -2147483648
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.bitcast.i32.f32 %x10 : i32 -> f32
    %v12 = vm.abs.f32 %v11 : f32
    %v13 = vm.bitcast.f32.i32 %v12 : f32 -> i32
    %k14 = vm.const.i32 0
    vm.check.eq %v13, %k14, "abs.f32(-0.0) (bits)" : i32
    %k15 = vm.const.f32 0xFF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.abs.f32 %x16 : f32
    %k18 = vm.const.f32 0x7F800000
    vm.check.eq %v17, %k18, "abs.f32(-inf)" : f32
    vm.return
  }

  vm.export @test_neg_f32
  vm.func @test_neg_f32() {
    %k1 = vm.const.f32 0xC0200000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.neg.f32 %x2 : f32
    %k4 = vm.const.f32 0x40200000
    vm.check.eq %v3, %k4, "neg.f32(-2.5)" : f32
    %k5 = vm.const.f32 0x40200000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.neg.f32 %x6 : f32
    %k8 = vm.const.f32 0xC0200000
    vm.check.eq %v7, %k8, "neg.f32(2.5)" : f32
    %k9 = vm.const.f32 0x00000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.neg.f32 %x10 : f32
    %v12 = vm.bitcast.f32.i32 %v11 : f32 -> i32
    %k13 = vm.const.i32 -2147483648
    vm.check.eq %v12, %k13, "neg.f32(0.0) (bits)" : i32
    %k14 = vm.const.i32 -2147483648
    %x15 = vm.optimization_barrier %k14 : i32
    %v16 = vm.bitcast.i32.f32 %x15 : i32 -> f32
    %v17 = vm.neg.f32 %v16 : f32
    %v18 = vm.bitcast.f32.i32 %v17 : f32 -> i32
    %k19 = vm.const.i32 0
    vm.check.eq %v18, %k19, "neg.f32(-0.0) (bits)" : i32
    vm.return
  }

  vm.export @test_ceil_f32
  vm.func @test_ceil_f32() {
    %k1 = vm.const.f32 0x3F99999A
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.ceil.f32 %x2 : f32
    %k4 = vm.const.f32 0x40000000
    vm.check.eq %v3, %k4, "ceil.f32(1.2)" : f32
    %k5 = vm.const.f32 0xBF99999A
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.ceil.f32 %x6 : f32
    %k8 = vm.const.f32 0xBF800000
    vm.check.eq %v7, %k8, "ceil.f32(-1.2)" : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.ceil.f32 %x10 : f32
    %k12 = vm.const.f32 0x40000000
    vm.check.eq %v11, %k12, "ceil.f32(2.0)" : f32
    %k13 = vm.const.f32 0xBF000000
    %x14 = vm.optimization_barrier %k13 : f32
    %v15 = vm.ceil.f32 %x14 : f32
    %v16 = vm.bitcast.f32.i32 %v15 : f32 -> i32
    %k17 = vm.const.i32 -2147483648
    vm.check.eq %v16, %k17, "ceil.f32(-0.5) (bits)" : i32
    %k18 = vm.const.f32 0x60AD78EC
    %x19 = vm.optimization_barrier %k18 : f32
    %v20 = vm.ceil.f32 %x19 : f32
    %k21 = vm.const.f32 0x60AD78EC
    vm.check.eq %v20, %k21, "ceil.f32(1e+20)" : f32
    vm.return
  }

  vm.export @test_floor_f32
  vm.func @test_floor_f32() {
    %k1 = vm.const.f32 0x3FE66666
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.floor.f32 %x2 : f32
    %k4 = vm.const.f32 0x3F800000
    vm.check.eq %v3, %k4, "floor.f32(1.8)" : f32
    %k5 = vm.const.f32 0xBF99999A
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.floor.f32 %x6 : f32
    %k8 = vm.const.f32 0xC0000000
    vm.check.eq %v7, %k8, "floor.f32(-1.2)" : f32
    %k9 = vm.const.f32 0xC0000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.floor.f32 %x10 : f32
    %k12 = vm.const.f32 0xC0000000
    vm.check.eq %v11, %k12, "floor.f32(-2.0)" : f32
    %k13 = vm.const.f32 0x3F000000
    %x14 = vm.optimization_barrier %k13 : f32
    %v15 = vm.floor.f32 %x14 : f32
    %v16 = vm.bitcast.f32.i32 %v15 : f32 -> i32
    %k17 = vm.const.i32 0
    vm.check.eq %v16, %k17, "floor.f32(0.5) (bits)" : i32
    %k18 = vm.const.f32 0xE0AD78EC
    %x19 = vm.optimization_barrier %k18 : f32
    %v20 = vm.floor.f32 %x19 : f32
    %k21 = vm.const.f32 0xE0AD78EC
    vm.check.eq %v20, %k21, "floor.f32(-1e+20)" : f32
    vm.return
  }

  // round: halfway cases away from zero
  vm.export @test_round_f32
  vm.func @test_round_f32() {
    %k1 = vm.const.f32 0x40200000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.round.f32 %x2 : f32
    %k4 = vm.const.f32 0x40400000
    vm.check.eq %v3, %k4, "round.f32(2.5)" : f32
    %k5 = vm.const.f32 0xC0200000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.round.f32 %x6 : f32
    %k8 = vm.const.f32 0xC0400000
    vm.check.eq %v7, %k8, "round.f32(-2.5)" : f32
    %k9 = vm.const.f32 0x3ECCCCCD
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.round.f32 %x10 : f32
    %v12 = vm.bitcast.f32.i32 %v11 : f32 -> i32
    %k13 = vm.const.i32 0
    vm.check.eq %v12, %k13, "round.f32(0.4) (bits)" : i32
    %k14 = vm.const.f32 0x3FC00000
    %x15 = vm.optimization_barrier %k14 : f32
    %v16 = vm.round.f32 %x15 : f32
    %k17 = vm.const.f32 0x40000000
    vm.check.eq %v16, %k17, "round.f32(1.5)" : f32
    %k18 = vm.const.f32 0xBF19999A
    %x19 = vm.optimization_barrier %k18 : f32
    %v20 = vm.round.f32 %x19 : f32
    %k21 = vm.const.f32 0xBF800000
    vm.check.eq %v20, %k21, "round.f32(-0.6)" : f32
    %k22 = vm.const.f32 0x405F5C29
    %x23 = vm.optimization_barrier %k22 : f32
    %v24 = vm.round.f32 %x23 : f32
    %k25 = vm.const.f32 0x40400000
    vm.check.eq %v24, %k25, "round.f32(3.49)" : f32
    vm.return
  }

  // round.even: halfway cases to the even neighbour
  vm.export @test_round_even_f32
  vm.func @test_round_even_f32() {
    %k1 = vm.const.f32 0x40200000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.round.f32.even %x2 : f32
    %k4 = vm.const.f32 0x40000000
    vm.check.eq %v3, %k4, "round.f32.even(2.5)" : f32
    %k5 = vm.const.f32 0x40600000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.round.f32.even %x6 : f32
    %k8 = vm.const.f32 0x40800000
    vm.check.eq %v7, %k8, "round.f32.even(3.5)" : f32
    %k9 = vm.const.f32 0xC0200000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.round.f32.even %x10 : f32
    %k12 = vm.const.f32 0xC0000000
    vm.check.eq %v11, %k12, "round.f32.even(-2.5)" : f32
    %k13 = vm.const.f32 0x3F000000
    %x14 = vm.optimization_barrier %k13 : f32
    %v15 = vm.round.f32.even %x14 : f32
    %v16 = vm.bitcast.f32.i32 %v15 : f32 -> i32
    %k17 = vm.const.i32 0
    vm.check.eq %v16, %k17, "round.f32.even(0.5) (bits)" : i32
    %k18 = vm.const.f32 0x3FCCCCCD
    %x19 = vm.optimization_barrier %k18 : f32
    %v20 = vm.round.f32.even %x19 : f32
    %k21 = vm.const.f32 0x40000000
    vm.check.eq %v20, %k21, "round.f32.even(1.6)" : f32
    %k22 = vm.const.f32 0xBFC00000
    %x23 = vm.optimization_barrier %k22 : f32
    %v24 = vm.round.f32.even %x23 : f32
    %k25 = vm.const.f32 0xC0000000
    vm.check.eq %v24, %k25, "round.f32.even(-1.5)" : f32
    vm.return
  }

  vm.export @test_min_f32
  vm.func @test_min_f32() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.min.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0x3F800000
    vm.check.eq %v5, %k6, "min.f32(1.0, 2.0)" : f32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x3F800000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.min.f32 %x8, %x10 : f32
    %k12 = vm.const.f32 0x3F800000
    vm.check.eq %v11, %k12, "min.f32(2.0, 1.0)" : f32
    %k13 = vm.const.f32 0xBF000000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xC0400000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.min.f32 %x14, %x16 : f32
    %k18 = vm.const.f32 0xC0400000
    vm.check.eq %v17, %k18, "min.f32(-0.5, -3.0)" : f32
    %k19 = vm.const.f32 0x40800000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x40800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.min.f32 %x20, %x22 : f32
    %k24 = vm.const.f32 0x40800000
    vm.check.eq %v23, %k24, "min.f32(4.0, 4.0)" : f32
    vm.return
  }

  vm.export @test_max_f32
  vm.func @test_max_f32() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.max.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0x40000000
    vm.check.eq %v5, %k6, "max.f32(1.0, 2.0)" : f32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x3F800000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.max.f32 %x8, %x10 : f32
    %k12 = vm.const.f32 0x40000000
    vm.check.eq %v11, %k12, "max.f32(2.0, 1.0)" : f32
    %k13 = vm.const.f32 0xBF000000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xC0400000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.max.f32 %x14, %x16 : f32
    %k18 = vm.const.f32 0xBF000000
    vm.check.eq %v17, %k18, "max.f32(-0.5, -3.0)" : f32
    %k19 = vm.const.f32 0x40800000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x40800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.max.f32 %x20, %x22 : f32
    %k24 = vm.const.f32 0x40800000
    vm.check.eq %v23, %k24, "max.f32(4.0, 4.0)" : f32
    vm.return
  }

  // min/max are plain < comparisons: min(a,b) = b < a ? b : a, max(a,b) = a < b ? b : a
  vm.export @test_min_max_f32_nan
  vm.func @test_min_max_f32_nan() {
    %k1 = vm.const.f32 0x7FC00000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x3F800000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.min.f32 %x2, %x4 : f32
    %v6 = vm.cmp.nan.f32 %v5 : f32
    %k7 = vm.const.i32 1
    vm.check.eq %v6, %k7, "min(nan, 1.0) is NaN" : i32
    %k8 = vm.const.f32 0x3F800000
    %x9 = vm.optimization_barrier %k8 : f32
    %k10 = vm.const.f32 0x7FC00000
    %x11 = vm.optimization_barrier %k10 : f32
    %v12 = vm.min.f32 %x9, %x11 : f32
    %k13 = vm.const.f32 0x3F800000
    vm.check.eq %v12, %k13, "min(1.0, nan)" : f32
    %k14 = vm.const.f32 0x7FC00000
    %x15 = vm.optimization_barrier %k14 : f32
    %k16 = vm.const.f32 0x3F800000
    %x17 = vm.optimization_barrier %k16 : f32
    %v18 = vm.max.f32 %x15, %x17 : f32
    %v19 = vm.cmp.nan.f32 %v18 : f32
    %k20 = vm.const.i32 1
    vm.check.eq %v19, %k20, "max(nan, 1.0) is NaN" : i32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %k23 = vm.const.f32 0x7FC00000
    %x24 = vm.optimization_barrier %k23 : f32
    %v25 = vm.max.f32 %x22, %x24 : f32
    %k26 = vm.const.f32 0x3F800000
    vm.check.eq %v25, %k26, "max(1.0, nan)" : f32
    vm.return
  }

  // float -> int casts round to nearest (halfway away from zero), they do not truncate
  vm.export @test_cast_f32_to_int
  vm.func @test_cast_f32_to_int() {
    %k1 = vm.const.f32 0x40200000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.cast.f32.si32 %x2 : f32 -> i32
    %k4 = vm.const.i32 3
    vm.check.eq %v3, %k4, "cast.f32.si32(2.5)" : i32
    %k5 = vm.const.f32 0xC0200000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.cast.f32.si32 %x6 : f32 -> i32
    %k8 = vm.const.i32 -3
    vm.check.eq %v7, %k8, "cast.f32.si32(-2.5)" : i32
    %k9 = vm.const.f32 0x3FB33333
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cast.f32.si32 %x10 : f32 -> i32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cast.f32.si32(1.4)" : i32
    %k13 = vm.const.f32 0xBFCCCCCD
    %x14 = vm.optimization_barrier %k13 : f32
    %v15 = vm.cast.f32.si32 %x14 : f32 -> i32
    %k16 = vm.const.i32 -2
    vm.check.eq %v15, %k16, "cast.f32.si32(-1.6)" : i32
    %k17 = vm.const.f32 0x4E6E6B28
    %x18 = vm.optimization_barrier %k17 : f32
    %v19 = vm.cast.f32.si32 %x18 : f32 -> i32
    %k20 = vm.const.i32 1000000000
    vm.check.eq %v19, %k20, "cast.f32.si32(1000000000.0)" : i32
    %k21 = vm.const.f32 0x3EFAE148
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cast.f32.si32 %x22 : f32 -> i32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cast.f32.si32(0.49)" : i32
    %k25 = vm.const.f32 0x406CCCCD
    %x26 = vm.optimization_barrier %k25 : f32
    %v27 = vm.cast.f32.ui32 %x26 : f32 -> i32
    %k28 = vm.const.i32 4
    vm.check.eq %v27, %k28, "cast.f32.ui32(3.7)" : i32
    %k29 = vm.const.f32 0x4F32D05E
    %x30 = vm.optimization_barrier %k29 : f32
    %v31 = vm.cast.f32.ui32 %x30 : f32 -> i32
    %k32 = vm.const.i32 -1294967296
    vm.check.eq %v31, %k32, "cast.f32.ui32(3000000000.0)" : i32
    %k33 = vm.const.f32 0x3F000000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cast.f32.ui32 %x34 : f32 -> i32
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cast.f32.ui32(0.5)" : i32
    %k37 = vm.const.f32 0xC0200000
    %x38 = vm.optimization_barrier %k37 : f32
    %v39 = vm.cast.f32.si64 %x38 : f32 -> i64
    %k40 = vm.const.i64 -3
    vm.check.eq %v39, %k40, "cast.f32.si64(-2.5)" : i64
    %k41 = vm.const.f32 0x5368D4A5
    %x42 = vm.optimization_barrier %k41 : f32
    %v43 = vm.cast.f32.si64 %x42 : f32 -> i64
    %k44 = vm.const.i64 999999995904
    vm.check.eq %v43, %k44, "cast.f32.si64(1000000000000.0)" : i64
    %k45 = vm.const.f32 0x40F00000
    %x46 = vm.optimization_barrier %k45 : f32
    %v47 = vm.cast.f32.si64 %x46 : f32 -> i64
    %k48 = vm.const.i64 8
    vm.check.eq %v47, %k48, "cast.f32.si64(7.5)" : i64
    %k49 = vm.const.f32 0x5F0AC723
    %x50 = vm.optimization_barrier %k49 : f32
    %v51 = vm.cast.f32.ui64 %x50 : f32 -> i64
    %k52 = vm.const.i64 -8446744093203103744
    vm.check.eq %v51, %k52, "cast.f32.ui64(1e+19)" : i64
    %k53 = vm.const.f32 0x40200000
    %x54 = vm.optimization_barrier %k53 : f32
    %v55 = vm.cast.f32.ui64 %x54 : f32 -> i64
    %k56 = vm.const.i64 3
    vm.check.eq %v55, %k56, "cast.f32.ui64(2.5)" : i64
    vm.return
  }

  vm.export @test_cast_int_to_f32
  vm.func @test_cast_int_to_f32() {
    %k1 = vm.const.i32 -7
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.cast.si32.f32 %x2 : i32 -> f32
    %k4 = vm.const.f32 0xC0E00000
    vm.check.eq %v3, %k4, "cast.si32.f32(-7)" : f32
    %k5 = vm.const.i32 16777217
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.cast.si32.f32 %x6 : i32 -> f32
    %k8 = vm.const.f32 0x4B800000
    vm.check.eq %v7, %k8, "cast.si32.f32(16777217)" : f32
    %k9 = vm.const.i32 -1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cast.ui32.f32 %x10 : i32 -> f32
    %k12 = vm.const.f32 0x4F800000
    vm.check.eq %v11, %k12, "cast.ui32.f32(-1)" : f32
    %k13 = vm.const.i32 -2147483648
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.cast.ui32.f32 %x14 : i32 -> f32
    %k16 = vm.const.f32 0x4F000000
    vm.check.eq %v15, %k16, "cast.ui32.f32(-2147483648)" : f32
    %k17 = vm.const.i64 -1099511627776
    %x18 = vm.optimization_barrier %k17 : i64
    %v19 = vm.cast.si64.f32 %x18 : i64 -> f32
    %k20 = vm.const.f32 0xD3800000
    vm.check.eq %v19, %k20, "cast.si64.f32(-1099511627776)" : f32
    %k21 = vm.const.i64 -1
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cast.ui64.f32 %x22 : i64 -> f32
    %k24 = vm.const.f32 0x5F800000
    vm.check.eq %v23, %k24, "cast.ui64.f32(-1)" : f32
    %k25 = vm.const.i64 3
    %x26 = vm.optimization_barrier %k25 : i64
    %v27 = vm.cast.si64.f32 %x26 : i64 -> f32
    %k28 = vm.const.f32 0x40400000
    vm.check.eq %v27, %k28, "cast.si64.f32(3)" : f32
    vm.return
  }

  vm.export @test_bitcast_f32
  vm.func @test_bitcast_f32() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.bitcast.f32.i32 %x2 : f32 -> i32
    %k4 = vm.const.i32 1065353216
    vm.check.eq %v3, %k4, "bitcast.f32.i32(1.0)" : i32
    %k5 = vm.const.i32 -2147483648
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.bitcast.i32.f32 %x6 : i32 -> f32
    %v8 = vm.bitcast.f32.i32 %v7 : f32 -> i32
    %k9 = vm.const.i32 -2147483648
    vm.check.eq %v8, %k9, "bitcast.f32.i32(-0.0)" : i32
    %k10 = vm.const.f32 0x40490FDB
    %x11 = vm.optimization_barrier %k10 : f32
    %v12 = vm.bitcast.f32.i32 %x11 : f32 -> i32
    %k13 = vm.const.i32 1078530011
    vm.check.eq %v12, %k13, "bitcast.f32.i32(3.14159265)" : i32
    %k14 = vm.const.f32 0xFF800000
    %x15 = vm.optimization_barrier %k14 : f32
    %v16 = vm.bitcast.f32.i32 %x15 : f32 -> i32
    %k17 = vm.const.i32 -8388608
    vm.check.eq %v16, %k17, "bitcast.f32.i32(-inf)" : i32
    %k18 = vm.const.i32 1076887552
    %x19 = vm.optimization_barrier %k18 : i32
    %v20 = vm.bitcast.i32.f32 %x19 : i32 -> f32
    %k21 = vm.const.f32 0x40300000
    vm.check.eq %v20, %k21, "bitcast.i32.f32(2.75)" : f32
    %k22 = vm.const.i32 -1165815185
    %x23 = vm.optimization_barrier %k22 : i32
    %v24 = vm.bitcast.i32.f32 %x23 : i32 -> f32
    %k25 = vm.const.f32 0xBA83126F
    vm.check.eq %v24, %k25, "bitcast.i32.f32(-0.001)" : f32
    %k26 = vm.const.i32 2143289344
    %x27 = vm.optimization_barrier %k26 : i32
    %v28 = vm.bitcast.i32.f32 %x27 : i32 -> f32
    %v29 = vm.cmp.nan.f32 %v28 : f32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "bitcast of the quiet NaN pattern is NaN" : i32
    vm.return
  }

  vm.export @test_atan_f32
  vm.func @test_atan_f32() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.atan.f32 %x2 : f32
    %k4 = vm.const.f32 0x3F490FDB
    vm.check.nearly_eq %v3, %k4, "atan.f32(1.0)" : f32
    %k5 = vm.const.f32 0xBF000000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.atan.f32 %x6 : f32
    %k8 = vm.const.f32 0xBEED6338
    vm.check.nearly_eq %v7, %k8, "atan.f32(-0.5)" : f32
    vm.return
  }

  vm.export @test_cos_f32
  vm.func @test_cos_f32() {
    %k1 = vm.const.f32 0x3F000000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.cos.f32 %x2 : f32
    %k4 = vm.const.f32 0x3F60A940
    vm.check.nearly_eq %v3, %k4, "cos.f32(0.5)" : f32
    %k5 = vm.const.f32 0x40400000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.cos.f32 %x6 : f32
    %k8 = vm.const.f32 0xBF7D7026
    vm.check.nearly_eq %v7, %k8, "cos.f32(3.0)" : f32
    vm.return
  }

  vm.export @test_sin_f32
  vm.func @test_sin_f32() {
    %k1 = vm.const.f32 0x3F000000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.sin.f32 %x2 : f32
    %k4 = vm.const.f32 0x3EF57744
    vm.check.nearly_eq %v3, %k4, "sin.f32(0.5)" : f32
    %k5 = vm.const.f32 0xC0000000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.sin.f32 %x6 : f32
    %k8 = vm.const.f32 0xBF68C7B7
    vm.check.nearly_eq %v7, %k8, "sin.f32(-2.0)" : f32
    vm.return
  }

  vm.export @test_exp_f32
  vm.func @test_exp_f32() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.exp.f32 %x2 : f32
    %k4 = vm.const.f32 0x402DF854
    vm.check.nearly_eq %v3, %k4, "exp.f32(1.0)" : f32
    %k5 = vm.const.f32 0xC0200000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.exp.f32 %x6 : f32
    %k8 = vm.const.f32 0x3DA81C2E
    vm.check.nearly_eq %v7, %k8, "exp.f32(-2.5)" : f32
    vm.return
  }

  vm.export @test_exp2_f32
  vm.func @test_exp2_f32() {
    %k1 = vm.const.f32 0x41200000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.exp2.f32 %x2 : f32
    %k4 = vm.const.f32 0x44800000
    vm.check.nearly_eq %v3, %k4, "exp2.f32(10.0)" : f32
    %k5 = vm.const.f32 0x3F000000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.exp2.f32 %x6 : f32
    %k8 = vm.const.f32 0x3FB504F3
    vm.check.nearly_eq %v7, %k8, "exp2.f32(0.5)" : f32
    vm.return
  }

  vm.export @test_expm1_f32
  vm.func @test_expm1_f32() {
    %k1 = vm.const.f32 0x3727C5AC
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.expm1.f32 %x2 : f32
    %k4 = vm.const.f32 0x3727C5E3
    vm.check.nearly_eq %v3, %k4, "expm1.f32(1e-05)" : f32
    %k5 = vm.const.f32 0x3F800000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.expm1.f32 %x6 : f32
    %k8 = vm.const.f32 0x3FDBF0A9
    vm.check.nearly_eq %v7, %k8, "expm1.f32(1.0)" : f32
    vm.return
  }

  vm.export @test_log_f32
  vm.func @test_log_f32() {
    %k1 = vm.const.f32 0x41200000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.log.f32 %x2 : f32
    %k4 = vm.const.f32 0x40135D8E
    vm.check.nearly_eq %v3, %k4, "log.f32(10.0)" : f32
    %k5 = vm.const.f32 0x3E800000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.log.f32 %x6 : f32
    %k8 = vm.const.f32 0xBFB17218
    vm.check.nearly_eq %v7, %k8, "log.f32(0.25)" : f32
    vm.return
  }

  vm.export @test_log10_f32
  vm.func @test_log10_f32() {
    %k1 = vm.const.f32 0x447A0000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.log10.f32 %x2 : f32
    %k4 = vm.const.f32 0x40400000
    vm.check.nearly_eq %v3, %k4, "log10.f32(1000.0)" : f32
    %k5 = vm.const.f32 0x40000000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.log10.f32 %x6 : f32
    %k8 = vm.const.f32 0x3E9A209B
    vm.check.nearly_eq %v7, %k8, "log10.f32(2.0)" : f32
    vm.return
  }

  vm.export @test_log1p_f32
  vm.func @test_log1p_f32() {
    %k1 = vm.const.f32 0x3727C5AC
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.log1p.f32 %x2 : f32
    %k4 = vm.const.f32 0x3727C575
    vm.check.nearly_eq %v3, %k4, "log1p.f32(1e-05)" : f32
    %k5 = vm.const.f32 0x40400000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.log1p.f32 %x6 : f32
    %k8 = vm.const.f32 0x3FB17218
    vm.check.nearly_eq %v7, %k8, "log1p.f32(3.0)" : f32
    vm.return
  }

  vm.export @test_log2_f32
  vm.func @test_log2_f32() {
    %k1 = vm.const.f32 0x44800000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.log2.f32 %x2 : f32
    %k4 = vm.const.f32 0x41200000
    vm.check.nearly_eq %v3, %k4, "log2.f32(1024.0)" : f32
    %k5 = vm.const.f32 0x40400000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.log2.f32 %x6 : f32
    %k8 = vm.const.f32 0x3FCAE00D
    vm.check.nearly_eq %v7, %k8, "log2.f32(3.0)" : f32
    vm.return
  }

  vm.export @test_rsqrt_f32
  vm.func @test_rsqrt_f32() {
    %k1 = vm.const.f32 0x40800000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.rsqrt.f32 %x2 : f32
    %k4 = vm.const.f32 0x3F000000
    vm.check.nearly_eq %v3, %k4, "rsqrt.f32(4.0)" : f32
    %k5 = vm.const.f32 0x40000000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.rsqrt.f32 %x6 : f32
    %k8 = vm.const.f32 0x3F3504F3
    vm.check.nearly_eq %v7, %k8, "rsqrt.f32(2.0)" : f32
    vm.return
  }

  vm.export @test_sqrt_f32
  vm.func @test_sqrt_f32() {
    %k1 = vm.const.f32 0x40000000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.sqrt.f32 %x2 : f32
    %k4 = vm.const.f32 0x3FB504F3
    vm.check.nearly_eq %v3, %k4, "sqrt.f32(2.0)" : f32
    %k5 = vm.const.f32 0x3D800000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.sqrt.f32 %x6 : f32
    %k8 = vm.const.f32 0x3E800000
    vm.check.nearly_eq %v7, %k8, "sqrt.f32(0.0625)" : f32
    vm.return
  }

  vm.export @test_tanh_f32
  vm.func @test_tanh_f32() {
    %k1 = vm.const.f32 0x3F000000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.tanh.f32 %x2 : f32
    %k4 = vm.const.f32 0x3EEC9A9F
    vm.check.nearly_eq %v3, %k4, "tanh.f32(0.5)" : f32
    %k5 = vm.const.f32 0xC0400000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.tanh.f32 %x6 : f32
    %k8 = vm.const.f32 0xBF7EBBE9
    vm.check.nearly_eq %v7, %k8, "tanh.f32(-3.0)" : f32
    vm.return
  }

  vm.export @test_erf_f32
  vm.func @test_erf_f32() {
    %k1 = vm.const.f32 0x3F000000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.erf.f32 %x2 : f32
    %k4 = vm.const.f32 0x3F053F7B
    vm.check.nearly_eq %v3, %k4, "erf.f32(0.5)" : f32
    %k5 = vm.const.f32 0xBFA00000
    %x6 = vm.optimization_barrier %k5 : f32
    %v7 = vm.erf.f32 %x6 : f32
    %k8 = vm.const.f32 0xBF6C432F
    vm.check.nearly_eq %v7, %k8, "erf.f32(-1.25)" : f32
    vm.return
  }

  vm.export @test_atan2_f32
  vm.func @test_atan2_f32() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0xBF800000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.atan2.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0x4016CBE4
    vm.check.nearly_eq %v5, %k6, "atan2.f32(1.0, -1.0)" : f32
    %k7 = vm.const.f32 0xC0000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x3F000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.atan2.f32 %x8, %x10 : f32
    %k12 = vm.const.f32 0xBFA9B465
    vm.check.nearly_eq %v11, %k12, "atan2.f32(-2.0, 0.5)" : f32
    vm.return
  }

  vm.export @test_pow_f32
  vm.func @test_pow_f32() {
    %k1 = vm.const.f32 0x40000000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x3F000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.pow.f32 %x2, %x4 : f32
    %k6 = vm.const.f32 0x3FB504F3
    vm.check.nearly_eq %v5, %k6, "pow.f32(2.0, 0.5)" : f32
    %k7 = vm.const.f32 0x40400000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40800000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.pow.f32 %x8, %x10 : f32
    %k12 = vm.const.f32 0x42A20000
    vm.check.nearly_eq %v11, %k12, "pow.f32(3.0, 4.0)" : f32
    %k13 = vm.const.f32 0x41200000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xC0000000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.pow.f32 %x14, %x16 : f32
    %k18 = vm.const.f32 0x3C23D70A
    vm.check.nearly_eq %v17, %k18, "pow.f32(10.0, -2.0)" : f32
    vm.return
  }

  // exact special values
  vm.export @test_transcendental_special_f32
  vm.func @test_transcendental_special_f32() {
    %k1 = vm.const.f32 0xBF800000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.sqrt.f32 %x2 : f32
    %v4 = vm.cmp.nan.f32 %v3 : f32
    %k5 = vm.const.i32 1
    vm.check.eq %v4, %k5, "sqrt(-1.0) is NaN" : i32
    %k6 = vm.const.f32 0x00000000
    %x7 = vm.optimization_barrier %k6 : f32
    %v8 = vm.log.f32 %x7 : f32
    %k9 = vm.const.f32 0xFF800000
    vm.check.eq %v8, %k9, "log(0.0)" : f32
    %k10 = vm.const.f32 0xFF800000
    %x11 = vm.optimization_barrier %k10 : f32
    %v12 = vm.exp.f32 %x11 : f32
    %k13 = vm.const.f32 0x00000000
    vm.check.eq %v12, %k13, "exp(-inf)" : f32
    %k14 = vm.const.f32 0x41800000
    %x15 = vm.optimization_barrier %k14 : f32
    %v16 = vm.sqrt.f32 %x15 : f32
    %k17 = vm.const.f32 0x40800000
    vm.check.eq %v16, %k17, "sqrt(16.0)" : f32
    %k18 = vm.const.f32 0x41000000
    %x19 = vm.optimization_barrier %k18 : f32
    %v20 = vm.log2.f32 %x19 : f32
    %k21 = vm.const.f32 0x40400000
    vm.check.eq %v20, %k21, "log2(8.0)" : f32
    vm.return
  }

  // ordered: false when either side is NaN; unordered: true when either side is NaN
  vm.export @test_cmp_eq_f32_o
  vm.func @test_cmp_eq_f32_o() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.eq.f32.o %x2, %x4 : f32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.eq.f32.o(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.eq.f32.o %x8, %x10 : f32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.eq.f32.o(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.eq.f32.o %x14, %x16 : f32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.eq.f32.o(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.eq.f32.o %x20, %x22 : f32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.eq.f32.o(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.eq.f32.o %x26, %x28 : f32
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.eq.f32.o(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.eq.f32.o %x32, %x34 : f32
    %k36 = vm.const.i32 0
    vm.check.eq %v35, %k36, "cmp.eq.f32.o(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.eq.f32.o %v39, %x41 : f32
    %k43 = vm.const.i32 1
    vm.check.eq %v42, %k43, "cmp.eq.f32.o(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.eq.f32.o %x45, %x47 : f32
    %k49 = vm.const.i32 0
    vm.check.eq %v48, %k49, "cmp.eq.f32.o(-inf, inf)" : i32
    vm.return
  }

  vm.export @test_cmp_eq_f32_u
  vm.func @test_cmp_eq_f32_u() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.eq.f32.u %x2, %x4 : f32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.eq.f32.u(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.eq.f32.u %x8, %x10 : f32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.eq.f32.u(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.eq.f32.u %x14, %x16 : f32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.eq.f32.u(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.eq.f32.u %x20, %x22 : f32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.eq.f32.u(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.eq.f32.u %x26, %x28 : f32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.eq.f32.u(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.eq.f32.u %x32, %x34 : f32
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.eq.f32.u(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.eq.f32.u %v39, %x41 : f32
    %k43 = vm.const.i32 1
    vm.check.eq %v42, %k43, "cmp.eq.f32.u(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.eq.f32.u %x45, %x47 : f32
    %k49 = vm.const.i32 0
    vm.check.eq %v48, %k49, "cmp.eq.f32.u(-inf, inf)" : i32
    vm.return
  }

  // cmp.ne.*.o is C's != in the runtime (IREE ops.h), so it is TRUE when either side is NaN
  vm.export @test_cmp_ne_f32_o
  vm.func @test_cmp_ne_f32_o() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.ne.f32.o %x2, %x4 : f32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.ne.f32.o(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.ne.f32.o %x8, %x10 : f32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.ne.f32.o(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.ne.f32.o %x14, %x16 : f32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.ne.f32.o(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.ne.f32.o %x20, %x22 : f32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.ne.f32.o(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.ne.f32.o %x26, %x28 : f32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.ne.f32.o(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.ne.f32.o %x32, %x34 : f32
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.ne.f32.o(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.ne.f32.o %v39, %x41 : f32
    %k43 = vm.const.i32 0
    vm.check.eq %v42, %k43, "cmp.ne.f32.o(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.ne.f32.o %x45, %x47 : f32
    %k49 = vm.const.i32 1
    vm.check.eq %v48, %k49, "cmp.ne.f32.o(-inf, inf)" : i32
    vm.return
  }

  vm.export @test_cmp_ne_f32_u
  vm.func @test_cmp_ne_f32_u() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.ne.f32.u %x2, %x4 : f32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.ne.f32.u(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.ne.f32.u %x8, %x10 : f32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.ne.f32.u(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.ne.f32.u %x14, %x16 : f32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.ne.f32.u(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.ne.f32.u %x20, %x22 : f32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.ne.f32.u(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.ne.f32.u %x26, %x28 : f32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.ne.f32.u(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.ne.f32.u %x32, %x34 : f32
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.ne.f32.u(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.ne.f32.u %v39, %x41 : f32
    %k43 = vm.const.i32 0
    vm.check.eq %v42, %k43, "cmp.ne.f32.u(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.ne.f32.u %x45, %x47 : f32
    %k49 = vm.const.i32 1
    vm.check.eq %v48, %k49, "cmp.ne.f32.u(-inf, inf)" : i32
    vm.return
  }

  vm.export @test_cmp_lt_f32_o
  vm.func @test_cmp_lt_f32_o() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.lt.f32.o %x2, %x4 : f32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.lt.f32.o(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.lt.f32.o %x8, %x10 : f32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.lt.f32.o(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.lt.f32.o %x14, %x16 : f32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lt.f32.o(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.lt.f32.o %x20, %x22 : f32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.lt.f32.o(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.lt.f32.o %x26, %x28 : f32
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.lt.f32.o(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.lt.f32.o %x32, %x34 : f32
    %k36 = vm.const.i32 0
    vm.check.eq %v35, %k36, "cmp.lt.f32.o(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.lt.f32.o %v39, %x41 : f32
    %k43 = vm.const.i32 0
    vm.check.eq %v42, %k43, "cmp.lt.f32.o(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.lt.f32.o %x45, %x47 : f32
    %k49 = vm.const.i32 1
    vm.check.eq %v48, %k49, "cmp.lt.f32.o(-inf, inf)" : i32
    vm.return
  }

  vm.export @test_cmp_lt_f32_u
  vm.func @test_cmp_lt_f32_u() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.lt.f32.u %x2, %x4 : f32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.lt.f32.u(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.lt.f32.u %x8, %x10 : f32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.lt.f32.u(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.lt.f32.u %x14, %x16 : f32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lt.f32.u(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.lt.f32.u %x20, %x22 : f32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.lt.f32.u(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.lt.f32.u %x26, %x28 : f32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.lt.f32.u(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.lt.f32.u %x32, %x34 : f32
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.lt.f32.u(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.lt.f32.u %v39, %x41 : f32
    %k43 = vm.const.i32 0
    vm.check.eq %v42, %k43, "cmp.lt.f32.u(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.lt.f32.u %x45, %x47 : f32
    %k49 = vm.const.i32 1
    vm.check.eq %v48, %k49, "cmp.lt.f32.u(-inf, inf)" : i32
    vm.return
  }

  vm.export @test_cmp_lte_f32_o
  vm.func @test_cmp_lte_f32_o() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.lte.f32.o %x2, %x4 : f32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.lte.f32.o(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.lte.f32.o %x8, %x10 : f32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.lte.f32.o(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.lte.f32.o %x14, %x16 : f32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lte.f32.o(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.lte.f32.o %x20, %x22 : f32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.lte.f32.o(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.lte.f32.o %x26, %x28 : f32
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.lte.f32.o(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.lte.f32.o %x32, %x34 : f32
    %k36 = vm.const.i32 0
    vm.check.eq %v35, %k36, "cmp.lte.f32.o(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.lte.f32.o %v39, %x41 : f32
    %k43 = vm.const.i32 1
    vm.check.eq %v42, %k43, "cmp.lte.f32.o(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.lte.f32.o %x45, %x47 : f32
    %k49 = vm.const.i32 1
    vm.check.eq %v48, %k49, "cmp.lte.f32.o(-inf, inf)" : i32
    vm.return
  }

  vm.export @test_cmp_lte_f32_u
  vm.func @test_cmp_lte_f32_u() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.lte.f32.u %x2, %x4 : f32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.lte.f32.u(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.lte.f32.u %x8, %x10 : f32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.lte.f32.u(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.lte.f32.u %x14, %x16 : f32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lte.f32.u(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.lte.f32.u %x20, %x22 : f32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.lte.f32.u(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.lte.f32.u %x26, %x28 : f32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.lte.f32.u(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.lte.f32.u %x32, %x34 : f32
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.lte.f32.u(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.lte.f32.u %v39, %x41 : f32
    %k43 = vm.const.i32 1
    vm.check.eq %v42, %k43, "cmp.lte.f32.u(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.lte.f32.u %x45, %x47 : f32
    %k49 = vm.const.i32 1
    vm.check.eq %v48, %k49, "cmp.lte.f32.u(-inf, inf)" : i32
    vm.return
  }

  vm.export @test_cmp_gt_f32_o
  vm.func @test_cmp_gt_f32_o() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.gt.f32.o %x2, %x4 : f32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.gt.f32.o(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.gt.f32.o %x8, %x10 : f32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.gt.f32.o(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.gt.f32.o %x14, %x16 : f32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gt.f32.o(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.gt.f32.o %x20, %x22 : f32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.gt.f32.o(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.gt.f32.o %x26, %x28 : f32
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.gt.f32.o(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.gt.f32.o %x32, %x34 : f32
    %k36 = vm.const.i32 0
    vm.check.eq %v35, %k36, "cmp.gt.f32.o(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.gt.f32.o %v39, %x41 : f32
    %k43 = vm.const.i32 0
    vm.check.eq %v42, %k43, "cmp.gt.f32.o(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.gt.f32.o %x45, %x47 : f32
    %k49 = vm.const.i32 0
    vm.check.eq %v48, %k49, "cmp.gt.f32.o(-inf, inf)" : i32
    vm.return
  }

  vm.export @test_cmp_gt_f32_u
  vm.func @test_cmp_gt_f32_u() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.gt.f32.u %x2, %x4 : f32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.gt.f32.u(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.gt.f32.u %x8, %x10 : f32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.gt.f32.u(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.gt.f32.u %x14, %x16 : f32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gt.f32.u(3.0, -1.0)" : i32
    %k19 = vm.const.f32 0x7FC00000
    %x20 = vm.optimization_barrier %k19 : f32
    %k21 = vm.const.f32 0x3F800000
    %x22 = vm.optimization_barrier %k21 : f32
    %v23 = vm.cmp.gt.f32.u %x20, %x22 : f32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.gt.f32.u(nan, 1.0)" : i32
    %k25 = vm.const.f32 0x3F800000
    %x26 = vm.optimization_barrier %k25 : f32
    %k27 = vm.const.f32 0x7FC00000
    %x28 = vm.optimization_barrier %k27 : f32
    %v29 = vm.cmp.gt.f32.u %x26, %x28 : f32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.gt.f32.u(1.0, nan)" : i32
    %k31 = vm.const.f32 0x7FC00000
    %x32 = vm.optimization_barrier %k31 : f32
    %k33 = vm.const.f32 0x7FC00000
    %x34 = vm.optimization_barrier %k33 : f32
    %v35 = vm.cmp.gt.f32.u %x32, %x34 : f32
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.gt.f32.u(nan, nan)" : i32
    %k37 = vm.const.i32 -2147483648
    %x38 = vm.optimization_barrier %k37 : i32
    %v39 = vm.bitcast.i32.f32 %x38 : i32 -> f32
    %k40 = vm.const.f32 0x00000000
    %x41 = vm.optimization_barrier %k40 : f32
    %v42 = vm.cmp.gt.f32.u %v39, %x41 : f32
    %k43 = vm.const.i32 0
    vm.check.eq %v42, %k43, "cmp.gt.f32.u(-0.0, 0.0)" : i32
    %k44 = vm.const.f32 0xFF800000
    %x45 = vm.optimization_barrier %k44 : f32
    %k46 = vm.const.f32 0x7F800000
    %x47 = vm.optimization_barrier %k46 : f32
    %v48 = vm.cmp.gt.f32.u %x45, %x47 : f32
    %k49 = vm.const.i32 0
    vm.check.eq %v48, %k49, "cmp.gt.f32.u(-inf, inf)" : i32
    vm.return
  }

  // iree-compile 3.11 lowers the pseudo-op cmp.gte.*.o/u to NOT cmp.lt.*.o/u, which inverts the NaN answer; that is a compiler matter, so NaN operands are left out here
  vm.export @test_cmp_gte_f32_o
  vm.func @test_cmp_gte_f32_o() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.gte.f32.o %x2, %x4 : f32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.gte.f32.o(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.gte.f32.o %x8, %x10 : f32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.gte.f32.o(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.gte.f32.o %x14, %x16 : f32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gte.f32.o(3.0, -1.0)" : i32
    %k19 = vm.const.i32 -2147483648
    %x20 = vm.optimization_barrier %k19 : i32
    %v21 = vm.bitcast.i32.f32 %x20 : i32 -> f32
    %k22 = vm.const.f32 0x00000000
    %x23 = vm.optimization_barrier %k22 : f32
    %v24 = vm.cmp.gte.f32.o %v21, %x23 : f32
    %k25 = vm.const.i32 1
    vm.check.eq %v24, %k25, "cmp.gte.f32.o(-0.0, 0.0)" : i32
    %k26 = vm.const.f32 0xFF800000
    %x27 = vm.optimization_barrier %k26 : f32
    %k28 = vm.const.f32 0x7F800000
    %x29 = vm.optimization_barrier %k28 : f32
    %v30 = vm.cmp.gte.f32.o %x27, %x29 : f32
    %k31 = vm.const.i32 0
    vm.check.eq %v30, %k31, "cmp.gte.f32.o(-inf, inf)" : i32
    vm.return
  }

  vm.export @test_cmp_gte_f32_u
  vm.func @test_cmp_gte_f32_u() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x40000000
    %x4 = vm.optimization_barrier %k3 : f32
    %v5 = vm.cmp.gte.f32.u %x2, %x4 : f32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.gte.f32.u(1.0, 2.0)" : i32
    %k7 = vm.const.f32 0x40000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.f32 0x40000000
    %x10 = vm.optimization_barrier %k9 : f32
    %v11 = vm.cmp.gte.f32.u %x8, %x10 : f32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.gte.f32.u(2.0, 2.0)" : i32
    %k13 = vm.const.f32 0x40400000
    %x14 = vm.optimization_barrier %k13 : f32
    %k15 = vm.const.f32 0xBF800000
    %x16 = vm.optimization_barrier %k15 : f32
    %v17 = vm.cmp.gte.f32.u %x14, %x16 : f32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gte.f32.u(3.0, -1.0)" : i32
    %k19 = vm.const.i32 -2147483648
    %x20 = vm.optimization_barrier %k19 : i32
    %v21 = vm.bitcast.i32.f32 %x20 : i32 -> f32
    %k22 = vm.const.f32 0x00000000
    %x23 = vm.optimization_barrier %k22 : f32
    %v24 = vm.cmp.gte.f32.u %v21, %x23 : f32
    %k25 = vm.const.i32 1
    vm.check.eq %v24, %k25, "cmp.gte.f32.u(-0.0, 0.0)" : i32
    %k26 = vm.const.f32 0xFF800000
    %x27 = vm.optimization_barrier %k26 : f32
    %k28 = vm.const.f32 0x7F800000
    %x29 = vm.optimization_barrier %k28 : f32
    %v30 = vm.cmp.gte.f32.u %x27, %x29 : f32
    %k31 = vm.const.i32 0
    vm.check.eq %v30, %k31, "cmp.gte.f32.u(-inf, inf)" : i32
    vm.return
  }

  // cmp.nz.*.o is != 0 in the runtime, so NaN counts as non-zero for both forms
  vm.export @test_cmp_nz_nan_f32
  vm.func @test_cmp_nz_nan_f32() {
    %k1 = vm.const.f32 0x00000000
    %x2 = vm.optimization_barrier %k1 : f32
    %v3 = vm.cmp.nz.f32.o %x2 : f32
    %k4 = vm.const.i32 0
    vm.check.eq %v3, %k4, "cmp.nz.f32.o(0.0)" : i32
    %v5 = vm.cmp.nz.f32.u %x2 : f32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.nz.f32.u(0.0)" : i32
    %v7 = vm.cmp.nan.f32 %x2 : f32
    %k8 = vm.const.i32 0
    vm.check.eq %v7, %k8, "cmp.nan.f32(0.0)" : i32
    %k9 = vm.const.i32 -2147483648
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.bitcast.i32.f32 %x10 : i32 -> f32
    %v12 = vm.cmp.nz.f32.o %v11 : f32
    %k13 = vm.const.i32 0
    vm.check.eq %v12, %k13, "cmp.nz.f32.o(-0.0)" : i32
    %v14 = vm.cmp.nz.f32.u %v11 : f32
    %k15 = vm.const.i32 0
    vm.check.eq %v14, %k15, "cmp.nz.f32.u(-0.0)" : i32
    %v16 = vm.cmp.nan.f32 %v11 : f32
    %k17 = vm.const.i32 0
    vm.check.eq %v16, %k17, "cmp.nan.f32(-0.0)" : i32
    %k18 = vm.const.f32 0x3F800000
    %x19 = vm.optimization_barrier %k18 : f32
    %v20 = vm.cmp.nz.f32.o %x19 : f32
    %k21 = vm.const.i32 1
    vm.check.eq %v20, %k21, "cmp.nz.f32.o(1.0)" : i32
    %v22 = vm.cmp.nz.f32.u %x19 : f32
    %k23 = vm.const.i32 1
    vm.check.eq %v22, %k23, "cmp.nz.f32.u(1.0)" : i32
    %v24 = vm.cmp.nan.f32 %x19 : f32
    %k25 = vm.const.i32 0
    vm.check.eq %v24, %k25, "cmp.nan.f32(1.0)" : i32
    %k26 = vm.const.f32 0x7FC00000
    %x27 = vm.optimization_barrier %k26 : f32
    %v28 = vm.cmp.nz.f32.o %x27 : f32
    %k29 = vm.const.i32 1
    vm.check.eq %v28, %k29, "cmp.nz.f32.o(nan)" : i32
    %v30 = vm.cmp.nz.f32.u %x27 : f32
    %k31 = vm.const.i32 1
    vm.check.eq %v30, %k31, "cmp.nz.f32.u(nan)" : i32
    %v32 = vm.cmp.nan.f32 %x27 : f32
    %k33 = vm.const.i32 1
    vm.check.eq %v32, %k33, "cmp.nan.f32(nan)" : i32
    %k34 = vm.const.f32 0xFF800000
    %x35 = vm.optimization_barrier %k34 : f32
    %v36 = vm.cmp.nz.f32.o %x35 : f32
    %k37 = vm.const.i32 1
    vm.check.eq %v36, %k37, "cmp.nz.f32.o(-inf)" : i32
    %v38 = vm.cmp.nz.f32.u %x35 : f32
    %k39 = vm.const.i32 1
    vm.check.eq %v38, %k39, "cmp.nz.f32.u(-inf)" : i32
    %v40 = vm.cmp.nan.f32 %x35 : f32
    %k41 = vm.const.i32 0
    vm.check.eq %v40, %k41, "cmp.nan.f32(-inf)" : i32
    vm.return
  }

  // NaN is not equal to itself, so check.eq must fail
  vm.export @fail_check_eq_f32_nan
  vm.func @fail_check_eq_f32_nan() {
    %k1 = vm.const.f32 0x7FC00000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x7FC00000
    %x4 = vm.optimization_barrier %k3 : f32
    vm.check.eq %x2, %x4, "NaN == NaN" : f32
    vm.return
  }

  // values far apart are not nearly equal
  vm.export @fail_check_nearly_eq_f32
  vm.func @fail_check_nearly_eq_f32() {
    %k1 = vm.const.f32 0x3F800000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0x3FC00000
    %x4 = vm.optimization_barrier %k3 : f32
    vm.check.nearly_eq %x2, %x4, "1.0 ~ 1.5" : f32
    vm.return
  }
}
