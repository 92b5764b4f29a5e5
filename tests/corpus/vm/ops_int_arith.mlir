// Ember VM op conformance: integer arithmetic, bitwise ops and shifts on i32
// and i64. Every operand is hidden behind vm.optimization_barrier so that the
// interpreter, not the compiler's folder, computes each result. Shift amounts
// at or above the bit width are masked (5 bits for i32, 6 bits for i64).
// Division by zero is undefined in the VM and is not exercised.
vm.module @ops_int_arith {
  vm.export @test_add_i32
  vm.func @test_add_i32() {
    %k1 = vm.const.i32 2147483647
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.add.i32 %x2, %x4 : i32
    %k6 = vm.const.i32 -2147483648
    vm.check.eq %v5, %k6, "add.i32(2147483647, 1)" : i32
    %k7 = vm.const.i32 -5
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 3
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.add.i32 %x8, %x10 : i32
    %k12 = vm.const.i32 -2
    vm.check.eq %v11, %k12, "add.i32(-5, 3)" : i32
    %k13 = vm.const.i32 123456
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 654321
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.add.i32 %x14, %x16 : i32
    %k18 = vm.const.i32 777777
    vm.check.eq %v17, %k18, "add.i32(123456, 654321)" : i32
    %k19 = vm.const.i32 77
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 1
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.add.i32 %x20, %x22 : i32
    %k24 = vm.const.i32 78
    vm.check.eq %v23, %k24, "add.i32(77, 1)" : i32
    vm.return
  }

  vm.export @test_sub_i32
  vm.func @test_sub_i32() {
    %k1 = vm.const.i32 5
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 12
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.sub.i32 %x2, %x4 : i32
    %k6 = vm.const.i32 -7
    vm.check.eq %v5, %k6, "sub.i32(5, 12)" : i32
    %k7 = vm.const.i32 -2147483648
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.sub.i32 %x8, %x10 : i32
    %k12 = vm.const.i32 2147483647
    vm.check.eq %v11, %k12, "sub.i32(-2147483648, 1)" : i32
    %k13 = vm.const.i32 1000
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.sub.i32 %x14, %x16 : i32
    %k18 = vm.const.i32 999
    vm.check.eq %v17, %k18, "sub.i32(1000, 1)" : i32
    vm.return
  }

  vm.export @test_mul_i32
  vm.func @test_mul_i32() {
    %k1 = vm.const.i32 65536
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 65536
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.mul.i32 %x2, %x4 : i32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "mul.i32(65536, 65536)" : i32
    %k7 = vm.const.i32 -7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 6
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.mul.i32 %x8, %x10 : i32
    %k12 = vm.const.i32 -42
    vm.check.eq %v11, %k12, "mul.i32(-7, 6)" : i32
    %k13 = vm.const.i32 74565
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 4096
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.mul.i32 %x14, %x16 : i32
    %k18 = vm.const.i32 305418240
    vm.check.eq %v17, %k18, "mul.i32(74565, 4096)" : i32
    %k19 = vm.const.i32 123456789
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 1000000007
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.mul.i32 %x20, %x22 : i32
    %k24 = vm.const.i32 -654889581
    vm.check.eq %v23, %k24, "mul.i32(123456789, 1000000007)" : i32
    vm.return
  }

  vm.export @test_div_i32_s
  vm.func @test_div_i32_s() {
    %k1 = vm.const.i32 -17
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 5
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.div.i32.s %x2, %x4 : i32
    %k6 = vm.const.i32 -3
    vm.check.eq %v5, %k6, "div.i32.s(-17, 5)" : i32
    %k7 = vm.const.i32 17
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 -5
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.div.i32.s %x8, %x10 : i32
    %k12 = vm.const.i32 -3
    vm.check.eq %v11, %k12, "div.i32.s(17, -5)" : i32
    %k13 = vm.const.i32 100
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 7
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.div.i32.s %x14, %x16 : i32
    %k18 = vm.const.i32 14
    vm.check.eq %v17, %k18, "div.i32.s(100, 7)" : i32
    %k19 = vm.const.i32 -2000000000
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 7
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.div.i32.s %x20, %x22 : i32
    %k24 = vm.const.i32 -285714285
    vm.check.eq %v23, %k24, "div.i32.s(-2000000000, 7)" : i32
    vm.return
  }

  vm.export @test_div_i32_u
  vm.func @test_div_i32_u() {
    %k1 = vm.const.i32 -17
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 5
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.div.i32.u %x2, %x4 : i32
    %k6 = vm.const.i32 858993455
    vm.check.eq %v5, %k6, "div.i32.u(-17, 5)" : i32
    %k7 = vm.const.i32 -1
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 -2
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.div.i32.u %x8, %x10 : i32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "div.i32.u(-1, -2)" : i32
    %k13 = vm.const.i32 100
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 7
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.div.i32.u %x14, %x16 : i32
    %k18 = vm.const.i32 14
    vm.check.eq %v17, %k18, "div.i32.u(100, 7)" : i32
    %k19 = vm.const.i32 -1
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 2
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.div.i32.u %x20, %x22 : i32
    %k24 = vm.const.i32 2147483647
    vm.check.eq %v23, %k24, "div.i32.u(-1, 2)" : i32
    vm.return
  }

  vm.export @test_rem_i32_s
  vm.func @test_rem_i32_s() {
    %k1 = vm.const.i32 -17
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 5
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.rem.i32.s %x2, %x4 : i32
    %k6 = vm.const.i32 -2
    vm.check.eq %v5, %k6, "rem.i32.s(-17, 5)" : i32
    %k7 = vm.const.i32 17
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 -5
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.rem.i32.s %x8, %x10 : i32
    %k12 = vm.const.i32 2
    vm.check.eq %v11, %k12, "rem.i32.s(17, -5)" : i32
    %k13 = vm.const.i32 100
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 7
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.rem.i32.s %x14, %x16 : i32
    %k18 = vm.const.i32 2
    vm.check.eq %v17, %k18, "rem.i32.s(100, 7)" : i32
    %k19 = vm.const.i32 -2000000001
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 7
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.rem.i32.s %x20, %x22 : i32
    %k24 = vm.const.i32 -6
    vm.check.eq %v23, %k24, "rem.i32.s(-2000000001, 7)" : i32
    vm.return
  }

  vm.export @test_rem_i32_u
  vm.func @test_rem_i32_u() {
    %k1 = vm.const.i32 -17
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 5
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.rem.i32.u %x2, %x4 : i32
    %k6 = vm.const.i32 4
    vm.check.eq %v5, %k6, "rem.i32.u(-17, 5)" : i32
    %k7 = vm.const.i32 100
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.rem.i32.u %x8, %x10 : i32
    %k12 = vm.const.i32 2
    vm.check.eq %v11, %k12, "rem.i32.u(100, 7)" : i32
    %k13 = vm.const.i32 -1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 1000
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.rem.i32.u %x14, %x16 : i32
    %k18 = vm.const.i32 295
    vm.check.eq %v17, %k18, "rem.i32.u(-1, 1000)" : i32
    vm.return
  }

  vm.export @test_abs_i32
  vm.func @test_abs_i32() {
    %k1 = vm.const.i32 -42
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.abs.i32 %x2 : i32
    %k4 = vm.const.i32 42
    vm.check.eq %v3, %k4, "abs.i32(-42)" : i32
    %k5 = vm.const.i32 42
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.abs.i32 %x6 : i32
    %k8 = vm.const.i32 42
    vm.check.eq %v7, %k8, "abs.i32(42)" : i32
    %k9 = vm.const.i32 0
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.abs.i32 %x10 : i32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "abs.i32(0)" : i32
    %k13 = vm.const.i32 -2147483648
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.abs.i32 %x14 : i32
    %k16 = vm.const.i32 -2147483648
    vm.check.eq %v15, %k16, "abs.i32(-2147483648)" : i32
    %k17 = vm.const.i32 -65536
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.abs.i32 %x18 : i32
    %k20 = vm.const.i32 65536
    vm.check.eq %v19, %k20, "abs.i32(-65536)" : i32
    vm.return
  }

  vm.export @test_min_i32_s
  vm.func @test_min_i32_s() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 3
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.min.i32.s %x2, %x4 : i32
    %k6 = vm.const.i32 -1
    vm.check.eq %v5, %k6, "min.i32.s(-1, 3)" : i32
    %k7 = vm.const.i32 3
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 -1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.min.i32.s %x8, %x10 : i32
    %k12 = vm.const.i32 -1
    vm.check.eq %v11, %k12, "min.i32.s(3, -1)" : i32
    %k13 = vm.const.i32 7
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 7
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.min.i32.s %x14, %x16 : i32
    %k18 = vm.const.i32 7
    vm.check.eq %v17, %k18, "min.i32.s(7, 7)" : i32
    %k19 = vm.const.i32 -2147483648
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 2147483647
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.min.i32.s %x20, %x22 : i32
    %k24 = vm.const.i32 -2147483648
    vm.check.eq %v23, %k24, "min.i32.s(-2147483648, 2147483647)" : i32
    vm.return
  }

  vm.export @test_min_i32_u
  vm.func @test_min_i32_u() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 3
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.min.i32.u %x2, %x4 : i32
    %k6 = vm.const.i32 3
    vm.check.eq %v5, %k6, "min.i32.u(-1, 3)" : i32
    %k7 = vm.const.i32 3
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 -1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.min.i32.u %x8, %x10 : i32
    %k12 = vm.const.i32 3
    vm.check.eq %v11, %k12, "min.i32.u(3, -1)" : i32
    %k13 = vm.const.i32 7
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 7
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.min.i32.u %x14, %x16 : i32
    %k18 = vm.const.i32 7
    vm.check.eq %v17, %k18, "min.i32.u(7, 7)" : i32
    %k19 = vm.const.i32 -2147483648
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 2147483647
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.min.i32.u %x20, %x22 : i32
    %k24 = vm.const.i32 2147483647
    vm.check.eq %v23, %k24, "min.i32.u(-2147483648, 2147483647)" : i32
    vm.return
  }

  vm.export @test_max_i32_s
  vm.func @test_max_i32_s() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 3
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.max.i32.s %x2, %x4 : i32
    %k6 = vm.const.i32 3
    vm.check.eq %v5, %k6, "max.i32.s(-1, 3)" : i32
    %k7 = vm.const.i32 3
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 -1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.max.i32.s %x8, %x10 : i32
    %k12 = vm.const.i32 3
    vm.check.eq %v11, %k12, "max.i32.s(3, -1)" : i32
    %k13 = vm.const.i32 7
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 7
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.max.i32.s %x14, %x16 : i32
    %k18 = vm.const.i32 7
    vm.check.eq %v17, %k18, "max.i32.s(7, 7)" : i32
    %k19 = vm.const.i32 -2147483648
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 2147483647
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.max.i32.s %x20, %x22 : i32
    %k24 = vm.const.i32 2147483647
    vm.check.eq %v23, %k24, "max.i32.s(-2147483648, 2147483647)" : i32
    vm.return
  }

  vm.export @test_max_i32_u
  vm.func @test_max_i32_u() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 3
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.max.i32.u %x2, %x4 : i32
    %k6 = vm.const.i32 -1
    vm.check.eq %v5, %k6, "max.i32.u(-1, 3)" : i32
    %k7 = vm.const.i32 3
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 -1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.max.i32.u %x8, %x10 : i32
    %k12 = vm.const.i32 -1
    vm.check.eq %v11, %k12, "max.i32.u(3, -1)" : i32
    %k13 = vm.const.i32 7
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 7
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.max.i32.u %x14, %x16 : i32
    %k18 = vm.const.i32 7
    vm.check.eq %v17, %k18, "max.i32.u(7, 7)" : i32
    %k19 = vm.const.i32 -2147483648
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 2147483647
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.max.i32.u %x20, %x22 : i32
    %k24 = vm.const.i32 -2147483648
    vm.check.eq %v23, %k24, "max.i32.u(-2147483648, 2147483647)" : i32
    vm.return
  }

  // fma(a, b, c) = a * b + c, wrapping
  vm.export @test_fma_i32
  vm.func @test_fma_i32() {
    %k1 = vm.const.i32 6
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 7
    %x4 = vm.optimization_barrier %k3 : i32
    %k5 = vm.const.i32 -2
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.fma.i32 %x2, %x4, %x6 : i32
    %k8 = vm.const.i32 40
    vm.check.eq %v7, %k8, "fma.i32(6, 7, -2)" : i32
    %k9 = vm.const.i32 65536
    %x10 = vm.optimization_barrier %k9 : i32
    %k11 = vm.const.i32 65536
    %x12 = vm.optimization_barrier %k11 : i32
    %k13 = vm.const.i32 5
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.fma.i32 %x10, %x12, %x14 : i32
    %k16 = vm.const.i32 5
    vm.check.eq %v15, %k16, "fma.i32(65536, 65536, 5)" : i32
    %k17 = vm.const.i32 -3
    %x18 = vm.optimization_barrier %k17 : i32
    %k19 = vm.const.i32 11
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 100
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.fma.i32 %x18, %x20, %x22 : i32
    %k24 = vm.const.i32 67
    vm.check.eq %v23, %k24, "fma.i32(-3, 11, 100)" : i32
    vm.return
  }

  vm.export @test_not_i32
  vm.func @test_not_i32() {
    %k1 = vm.const.i32 3855
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.not.i32 %x2 : i32
    %k4 = vm.const.i32 -3856
    vm.check.eq %v3, %k4, "not.i32(3855)" : i32
    %k5 = vm.const.i32 0
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.not.i32 %x6 : i32
    %k8 = vm.const.i32 -1
    vm.check.eq %v7, %k8, "not.i32(0)" : i32
    %k9 = vm.const.i32 -1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.not.i32 %x10 : i32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "not.i32(-1)" : i32
    %k13 = vm.const.i32 305419896
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.not.i32 %x14 : i32
    %k16 = vm.const.i32 -305419897
    vm.check.eq %v15, %k16, "not.i32(305419896)" : i32
    vm.return
  }

  vm.export @test_and_i32
  vm.func @test_and_i32() {
    %k1 = vm.const.i32 4080
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 15420
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.and.i32 %x2, %x4 : i32
    %k6 = vm.const.i32 3120
    vm.check.eq %v5, %k6, "and.i32(4080, 15420)" : i32
    %k7 = vm.const.i32 -1
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 1515870810
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.and.i32 %x8, %x10 : i32
    %k12 = vm.const.i32 1515870810
    vm.check.eq %v11, %k12, "and.i32(-1, 1515870810)" : i32
    %k13 = vm.const.i32 16711935
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 252645135
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.and.i32 %x14, %x16 : i32
    %k18 = vm.const.i32 983055
    vm.check.eq %v17, %k18, "and.i32(16711935, 252645135)" : i32
    vm.return
  }

  vm.export @test_or_i32
  vm.func @test_or_i32() {
    %k1 = vm.const.i32 4080
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 15420
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.or.i32 %x2, %x4 : i32
    %k6 = vm.const.i32 16380
    vm.check.eq %v5, %k6, "or.i32(4080, 15420)" : i32
    %k7 = vm.const.i32 -1
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 1515870810
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.or.i32 %x8, %x10 : i32
    %k12 = vm.const.i32 -1
    vm.check.eq %v11, %k12, "or.i32(-1, 1515870810)" : i32
    %k13 = vm.const.i32 16711935
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 252645135
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.or.i32 %x14, %x16 : i32
    %k18 = vm.const.i32 268374015
    vm.check.eq %v17, %k18, "or.i32(16711935, 252645135)" : i32
    vm.return
  }

  vm.export @test_xor_i32
  vm.func @test_xor_i32() {
    %k1 = vm.const.i32 4080
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 15420
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.xor.i32 %x2, %x4 : i32
    %k6 = vm.const.i32 13260
    vm.check.eq %v5, %k6, "xor.i32(4080, 15420)" : i32
    %k7 = vm.const.i32 -1
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 1515870810
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.xor.i32 %x8, %x10 : i32
    %k12 = vm.const.i32 -1515870811
    vm.check.eq %v11, %k12, "xor.i32(-1, 1515870810)" : i32
    %k13 = vm.const.i32 16711935
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 252645135
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.xor.i32 %x14, %x16 : i32
    %k18 = vm.const.i32 267390960
    vm.check.eq %v17, %k18, "xor.i32(16711935, 252645135)" : i32
    vm.return
  }

  vm.export @test_ctlz_i32
  vm.func @test_ctlz_i32() {
    %k1 = vm.const.i32 1
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ctlz.i32 %x2 : i32
    %k4 = vm.const.i32 31
    vm.check.eq %v3, %k4, "ctlz.i32(1)" : i32
    %k5 = vm.const.i32 0
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ctlz.i32 %x6 : i32
    %k8 = vm.const.i32 32
    vm.check.eq %v7, %k8, "ctlz.i32(0)" : i32
    %k9 = vm.const.i32 -1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ctlz.i32 %x10 : i32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "ctlz.i32(-1)" : i32
    %k13 = vm.const.i32 65536
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ctlz.i32 %x14 : i32
    %k16 = vm.const.i32 15
    vm.check.eq %v15, %k16, "ctlz.i32(65536)" : i32
    %k17 = vm.const.i32 2147483647
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.ctlz.i32 %x18 : i32
    %k20 = vm.const.i32 1
    vm.check.eq %v19, %k20, "ctlz.i32(2147483647)" : i32
    vm.return
  }

  vm.export @test_shl_i32
  vm.func @test_shl_i32() {
    %k1 = vm.const.i32 1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 4
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.shl.i32 %x2, %x4 : i32
    %k6 = vm.const.i32 16
    vm.check.eq %v5, %k6, "shl.i32(1, 4)" : i32
    %k7 = vm.const.i32 1
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 33
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.shl.i32 %x8, %x10 : i32
    %k12 = vm.const.i32 2
    vm.check.eq %v11, %k12, "shl.i32(1, 33)" : i32
    %k13 = vm.const.i32 3
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 31
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.shl.i32 %x14, %x16 : i32
    %k18 = vm.const.i32 -2147483648
    vm.check.eq %v17, %k18, "shl.i32(3, 31)" : i32
    %k19 = vm.const.i32 -1
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 32
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.shl.i32 %x20, %x22 : i32
    %k24 = vm.const.i32 -1
    vm.check.eq %v23, %k24, "shl.i32(-1, 32)" : i32
    %k25 = vm.const.i32 5
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 67
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.shl.i32 %x26, %x28 : i32
    %k30 = vm.const.i32 40
    vm.check.eq %v29, %k30, "shl.i32(5, 67)" : i32
    vm.return
  }

  vm.export @test_shr_i32_s
  vm.func @test_shr_i32_s() {
    %k1 = vm.const.i32 -256
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 4
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.shr.i32.s %x2, %x4 : i32
    %k6 = vm.const.i32 -16
    vm.check.eq %v5, %k6, "shr.i32.s(-256, 4)" : i32
    %k7 = vm.const.i32 -256
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 36
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.shr.i32.s %x8, %x10 : i32
    %k12 = vm.const.i32 -16
    vm.check.eq %v11, %k12, "shr.i32.s(-256, 36)" : i32
    %k13 = vm.const.i32 1073741824
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 30
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.shr.i32.s %x14, %x16 : i32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "shr.i32.s(1073741824, 30)" : i32
    %k19 = vm.const.i32 -1
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 31
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.shr.i32.s %x20, %x22 : i32
    %k24 = vm.const.i32 -1
    vm.check.eq %v23, %k24, "shr.i32.s(-1, 31)" : i32
    %k25 = vm.const.i32 -2147483648
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 32
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.shr.i32.s %x26, %x28 : i32
    %k30 = vm.const.i32 -2147483648
    vm.check.eq %v29, %k30, "shr.i32.s(-2147483648, 32)" : i32
    vm.return
  }

  vm.export @test_shr_i32_u
  vm.func @test_shr_i32_u() {
    %k1 = vm.const.i32 -256
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 4
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.shr.i32.u %x2, %x4 : i32
    %k6 = vm.const.i32 268435440
    vm.check.eq %v5, %k6, "shr.i32.u(-256, 4)" : i32
    %k7 = vm.const.i32 -2147483648
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 31
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.shr.i32.u %x8, %x10 : i32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "shr.i32.u(-2147483648, 31)" : i32
    %k13 = vm.const.i32 -2147483648
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 63
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.shr.i32.u %x14, %x16 : i32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "shr.i32.u(-2147483648, 63)" : i32
    %k19 = vm.const.i32 16
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 32
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.shr.i32.u %x20, %x22 : i32
    %k24 = vm.const.i32 16
    vm.check.eq %v23, %k24, "shr.i32.u(16, 32)" : i32
    %k25 = vm.const.i32 -1
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 35
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.shr.i32.u %x26, %x28 : i32
    %k30 = vm.const.i32 536870911
    vm.check.eq %v29, %k30, "shr.i32.u(-1, 35)" : i32
    vm.return
  }

  vm.export @test_add_i64
  vm.func @test_add_i64() {
    %k1 = vm.const.i64 9223372036854775807
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.add.i64 %x2, %x4 : i64
    %k6 = vm.const.i64 -9223372036854775808
    vm.check.eq %v5, %k6, "add.i64(9223372036854775807, 1)" : i64
    %k7 = vm.const.i64 -5
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 3
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.add.i64 %x8, %x10 : i64
    %k12 = vm.const.i64 -2
    vm.check.eq %v11, %k12, "add.i64(-5, 3)" : i64
    %k13 = vm.const.i64 123456
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 654321
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.add.i64 %x14, %x16 : i64
    %k18 = vm.const.i64 777777
    vm.check.eq %v17, %k18, "add.i64(123456, 654321)" : i64
    %k19 = vm.const.i64 4294967295
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.add.i64 %x20, %x22 : i64
    %k24 = vm.const.i64 4294967296
    vm.check.eq %v23, %k24, "add.i64(4294967295, 1)" : i64
    vm.return
  }

  vm.export @test_sub_i64
  vm.func @test_sub_i64() {
    %k1 = vm.const.i64 5
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 12
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.sub.i64 %x2, %x4 : i64
    %k6 = vm.const.i64 -7
    vm.check.eq %v5, %k6, "sub.i64(5, 12)" : i64
    %k7 = vm.const.i64 -9223372036854775808
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 1
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.sub.i64 %x8, %x10 : i64
    %k12 = vm.const.i64 9223372036854775807
    vm.check.eq %v11, %k12, "sub.i64(-9223372036854775808, 1)" : i64
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 1
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.sub.i64 %x14, %x16 : i64
    %k18 = vm.const.i64 4294967295
    vm.check.eq %v17, %k18, "sub.i64(4294967296, 1)" : i64
    vm.return
  }

  vm.export @test_mul_i64
  vm.func @test_mul_i64() {
    %k1 = vm.const.i64 65536
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 65536
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.mul.i64 %x2, %x4 : i64
    %k6 = vm.const.i64 4294967296
    vm.check.eq %v5, %k6, "mul.i64(65536, 65536)" : i64
    %k7 = vm.const.i64 -7
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 6
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.mul.i64 %x8, %x10 : i64
    %k12 = vm.const.i64 -42
    vm.check.eq %v11, %k12, "mul.i64(-7, 6)" : i64
    %k13 = vm.const.i64 74565
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4096
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.mul.i64 %x14, %x16 : i64
    %k18 = vm.const.i64 305418240
    vm.check.eq %v17, %k18, "mul.i64(74565, 4096)" : i64
    %k19 = vm.const.i64 123456789
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1000000007
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.mul.i64 %x20, %x22 : i64
    %k24 = vm.const.i64 123456789864197523
    vm.check.eq %v23, %k24, "mul.i64(123456789, 1000000007)" : i64
    %k25 = vm.const.i64 4294967296
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 4294967296
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.mul.i64 %x26, %x28 : i64
    %k30 = vm.const.i64 0
    vm.check.eq %v29, %k30, "mul.i64(4294967296, 4294967296)" : i64
    %k31 = vm.const.i64 4294967296
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 3
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.mul.i64 %x32, %x34 : i64
    %k36 = vm.const.i64 12884901888
    vm.check.eq %v35, %k36, "mul.i64(4294967296, 3)" : i64
    vm.return
  }

  vm.export @test_div_i64_s
  vm.func @test_div_i64_s() {
    %k1 = vm.const.i64 -17
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 5
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.div.i64.s %x2, %x4 : i64
    %k6 = vm.const.i64 -3
    vm.check.eq %v5, %k6, "div.i64.s(-17, 5)" : i64
    %k7 = vm.const.i64 17
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 -5
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.div.i64.s %x8, %x10 : i64
    %k12 = vm.const.i64 -3
    vm.check.eq %v11, %k12, "div.i64.s(17, -5)" : i64
    %k13 = vm.const.i64 100
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 7
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.div.i64.s %x14, %x16 : i64
    %k18 = vm.const.i64 14
    vm.check.eq %v17, %k18, "div.i64.s(100, 7)" : i64
    %k19 = vm.const.i64 -1000000000000
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 7
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.div.i64.s %x20, %x22 : i64
    %k24 = vm.const.i64 -142857142857
    vm.check.eq %v23, %k24, "div.i64.s(-1000000000000, 7)" : i64
    vm.return
  }

  vm.export @test_div_i64_u
  vm.func @test_div_i64_u() {
    %k1 = vm.const.i64 -17
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 5
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.div.i64.u %x2, %x4 : i64
    %k6 = vm.const.i64 3689348814741910319
    vm.check.eq %v5, %k6, "div.i64.u(-17, 5)" : i64
    %k7 = vm.const.i64 -1
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 -2
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.div.i64.u %x8, %x10 : i64
    %k12 = vm.const.i64 1
    vm.check.eq %v11, %k12, "div.i64.u(-1, -2)" : i64
    %k13 = vm.const.i64 100
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 7
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.div.i64.u %x14, %x16 : i64
    %k18 = vm.const.i64 14
    vm.check.eq %v17, %k18, "div.i64.u(100, 7)" : i64
    %k19 = vm.const.i64 -1
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 2
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.div.i64.u %x20, %x22 : i64
    %k24 = vm.const.i64 9223372036854775807
    vm.check.eq %v23, %k24, "div.i64.u(-1, 2)" : i64
    vm.return
  }

  vm.export @test_rem_i64_s
  vm.func @test_rem_i64_s() {
    %k1 = vm.const.i64 -17
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 5
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.rem.i64.s %x2, %x4 : i64
    %k6 = vm.const.i64 -2
    vm.check.eq %v5, %k6, "rem.i64.s(-17, 5)" : i64
    %k7 = vm.const.i64 17
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 -5
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.rem.i64.s %x8, %x10 : i64
    %k12 = vm.const.i64 2
    vm.check.eq %v11, %k12, "rem.i64.s(17, -5)" : i64
    %k13 = vm.const.i64 100
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 7
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.rem.i64.s %x14, %x16 : i64
    %k18 = vm.const.i64 2
    vm.check.eq %v17, %k18, "rem.i64.s(100, 7)" : i64
    %k19 = vm.const.i64 -1000000000000
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 7
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.rem.i64.s %x20, %x22 : i64
    %k24 = vm.const.i64 -1
    vm.check.eq %v23, %k24, "rem.i64.s(-1000000000000, 7)" : i64
    vm.return
  }

  vm.export @test_rem_i64_u
  vm.func @test_rem_i64_u() {
    %k1 = vm.const.i64 -17
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 5
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.rem.i64.u %x2, %x4 : i64
    %k6 = vm.const.i64 4
    vm.check.eq %v5, %k6, "rem.i64.u(-17, 5)" : i64
    %k7 = vm.const.i64 100
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 7
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.rem.i64.u %x8, %x10 : i64
    %k12 = vm.const.i64 2
    vm.check.eq %v11, %k12, "rem.i64.u(100, 7)" : i64
    %k13 = vm.const.i64 -1
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 1000
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.rem.i64.u %x14, %x16 : i64
    %k18 = vm.const.i64 615
    vm.check.eq %v17, %k18, "rem.i64.u(-1, 1000)" : i64
    vm.return
  }

  vm.export @test_abs_i64
  vm.func @test_abs_i64() {
    %k1 = vm.const.i64 -42
    %x2 = vm.optimization_barrier %k1 : i64
    %v3 = vm.abs.i64 %x2 : i64
    %k4 = vm.const.i64 42
    vm.check.eq %v3, %k4, "abs.i64(-42)" : i64
    %k5 = vm.const.i64 42
    %x6 = vm.optimization_barrier %k5 : i64
    %v7 = vm.abs.i64 %x6 : i64
    %k8 = vm.const.i64 42
    vm.check.eq %v7, %k8, "abs.i64(42)" : i64
    %k9 = vm.const.i64 0
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.abs.i64 %x10 : i64
    %k12 = vm.const.i64 0
    vm.check.eq %v11, %k12, "abs.i64(0)" : i64
    %k13 = vm.const.i64 -9223372036854775808
    %x14 = vm.optimization_barrier %k13 : i64
    %v15 = vm.abs.i64 %x14 : i64
    %k16 = vm.const.i64 -9223372036854775808
    vm.check.eq %v15, %k16, "abs.i64(-9223372036854775808)" : i64
    %k17 = vm.const.i64 -1099511627776
    %x18 = vm.optimization_barrier %k17 : i64
    %v19 = vm.abs.i64 %x18 : i64
    %k20 = vm.const.i64 1099511627776
    vm.check.eq %v19, %k20, "abs.i64(-1099511627776)" : i64
    vm.return
  }

  vm.export @test_min_i64_s
  vm.func @test_min_i64_s() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 3
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.min.i64.s %x2, %x4 : i64
    %k6 = vm.const.i64 -1
    vm.check.eq %v5, %k6, "min.i64.s(-1, 3)" : i64
    %k7 = vm.const.i64 3
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 -1
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.min.i64.s %x8, %x10 : i64
    %k12 = vm.const.i64 -1
    vm.check.eq %v11, %k12, "min.i64.s(3, -1)" : i64
    %k13 = vm.const.i64 7
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 7
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.min.i64.s %x14, %x16 : i64
    %k18 = vm.const.i64 7
    vm.check.eq %v17, %k18, "min.i64.s(7, 7)" : i64
    %k19 = vm.const.i64 -9223372036854775808
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 9223372036854775807
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.min.i64.s %x20, %x22 : i64
    %k24 = vm.const.i64 -9223372036854775808
    vm.check.eq %v23, %k24, "min.i64.s(-9223372036854775808, 9223372036854775807)" : i64
    %k25 = vm.const.i64 -1
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 1099511627776
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.min.i64.s %x26, %x28 : i64
    %k30 = vm.const.i64 -1
    vm.check.eq %v29, %k30, "min.i64.s(-1, 1099511627776)" : i64
    vm.return
  }

  vm.export @test_min_i64_u
  vm.func @test_min_i64_u() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 3
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.min.i64.u %x2, %x4 : i64
    %k6 = vm.const.i64 3
    vm.check.eq %v5, %k6, "min.i64.u(-1, 3)" : i64
    %k7 = vm.const.i64 3
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 -1
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.min.i64.u %x8, %x10 : i64
    %k12 = vm.const.i64 3
    vm.check.eq %v11, %k12, "min.i64.u(3, -1)" : i64
    %k13 = vm.const.i64 7
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 7
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.min.i64.u %x14, %x16 : i64
    %k18 = vm.const.i64 7
    vm.check.eq %v17, %k18, "min.i64.u(7, 7)" : i64
    %k19 = vm.const.i64 -9223372036854775808
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 9223372036854775807
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.min.i64.u %x20, %x22 : i64
    %k24 = vm.const.i64 9223372036854775807
    vm.check.eq %v23, %k24, "min.i64.u(-9223372036854775808, 9223372036854775807)" : i64
    %k25 = vm.const.i64 -1
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 1099511627776
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.min.i64.u %x26, %x28 : i64
    %k30 = vm.const.i64 1099511627776
    vm.check.eq %v29, %k30, "min.i64.u(-1, 1099511627776)" : i64
    vm.return
  }

  vm.export @test_max_i64_s
  vm.func @test_max_i64_s() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 3
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.max.i64.s %x2, %x4 : i64
    %k6 = vm.const.i64 3
    vm.check.eq %v5, %k6, "max.i64.s(-1, 3)" : i64
    %k7 = vm.const.i64 3
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 -1
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.max.i64.s %x8, %x10 : i64
    %k12 = vm.const.i64 3
    vm.check.eq %v11, %k12, "max.i64.s(3, -1)" : i64
    %k13 = vm.const.i64 7
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 7
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.max.i64.s %x14, %x16 : i64
    %k18 = vm.const.i64 7
    vm.check.eq %v17, %k18, "max.i64.s(7, 7)" : i64
    %k19 = vm.const.i64 -9223372036854775808
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 9223372036854775807
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.max.i64.s %x20, %x22 : i64
    %k24 = vm.const.i64 9223372036854775807
    vm.check.eq %v23, %k24, "max.i64.s(-9223372036854775808, 9223372036854775807)" : i64
    %k25 = vm.const.i64 -1
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 1099511627776
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.max.i64.s %x26, %x28 : i64
    %k30 = vm.const.i64 1099511627776
    vm.check.eq %v29, %k30, "max.i64.s(-1, 1099511627776)" : i64
    vm.return
  }

  vm.export @test_max_i64_u
  vm.func @test_max_i64_u() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 3
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.max.i64.u %x2, %x4 : i64
    %k6 = vm.const.i64 -1
    vm.check.eq %v5, %k6, "max.i64.u(-1, 3)" : i64
    %k7 = vm.const.i64 3
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 -1
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.max.i64.u %x8, %x10 : i64
    %k12 = vm.const.i64 -1
    vm.check.eq %v11, %k12, "max.i64.u(3, -1)" : i64
    %k13 = vm.const.i64 7
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 7
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.max.i64.u %x14, %x16 : i64
    %k18 = vm.const.i64 7
    vm.check.eq %v17, %k18, "max.i64.u(7, 7)" : i64
    %k19 = vm.const.i64 -9223372036854775808
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 9223372036854775807
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.max.i64.u %x20, %x22 : i64
    %k24 = vm.const.i64 -9223372036854775808
    vm.check.eq %v23, %k24, "max.i64.u(-9223372036854775808, 9223372036854775807)" : i64
    %k25 = vm.const.i64 -1
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 1099511627776
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.max.i64.u %x26, %x28 : i64
    %k30 = vm.const.i64 -1
    vm.check.eq %v29, %k30, "max.i64.u(-1, 1099511627776)" : i64
    vm.return
  }

  // fma(a, b, c) = a * b + c, wrapping
  vm.export @test_fma_i64
  vm.func @test_fma_i64() {
    %k1 = vm.const.i64 6
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 7
    %x4 = vm.optimization_barrier %k3 : i64
    %k5 = vm.const.i64 -2
    %x6 = vm.optimization_barrier %k5 : i64
    %v7 = vm.fma.i64 %x2, %x4, %x6 : i64
    %k8 = vm.const.i64 40
    vm.check.eq %v7, %k8, "fma.i64(6, 7, -2)" : i64
    %k9 = vm.const.i64 65536
    %x10 = vm.optimization_barrier %k9 : i64
    %k11 = vm.const.i64 65536
    %x12 = vm.optimization_barrier %k11 : i64
    %k13 = vm.const.i64 5
    %x14 = vm.optimization_barrier %k13 : i64
    %v15 = vm.fma.i64 %x10, %x12, %x14 : i64
    %k16 = vm.const.i64 4294967301
    vm.check.eq %v15, %k16, "fma.i64(65536, 65536, 5)" : i64
    %k17 = vm.const.i64 -3
    %x18 = vm.optimization_barrier %k17 : i64
    %k19 = vm.const.i64 11
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 100
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.fma.i64 %x18, %x20, %x22 : i64
    %k24 = vm.const.i64 67
    vm.check.eq %v23, %k24, "fma.i64(-3, 11, 100)" : i64
    %k25 = vm.const.i64 1048576
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 1048576
    %x28 = vm.optimization_barrier %k27 : i64
    %k29 = vm.const.i64 7
    %x30 = vm.optimization_barrier %k29 : i64
    %v31 = vm.fma.i64 %x26, %x28, %x30 : i64
    %k32 = vm.const.i64 1099511627783
    vm.check.eq %v31, %k32, "fma.i64(1048576, 1048576, 7)" : i64
    vm.return
  }

  vm.export @test_not_i64
  vm.func @test_not_i64() {
    %k1 = vm.const.i64 3855
    %x2 = vm.optimization_barrier %k1 : i64
    %v3 = vm.not.i64 %x2 : i64
    %k4 = vm.const.i64 -3856
    vm.check.eq %v3, %k4, "not.i64(3855)" : i64
    %k5 = vm.const.i64 0
    %x6 = vm.optimization_barrier %k5 : i64
    %v7 = vm.not.i64 %x6 : i64
    %k8 = vm.const.i64 -1
    vm.check.eq %v7, %k8, "not.i64(0)" : i64
    %k9 = vm.const.i64 -1
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.not.i64 %x10 : i64
    %k12 = vm.const.i64 0
    vm.check.eq %v11, %k12, "not.i64(-1)" : i64
    %k13 = vm.const.i64 71777214294589695
    %x14 = vm.optimization_barrier %k13 : i64
    %v15 = vm.not.i64 %x14 : i64
    %k16 = vm.const.i64 -71777214294589696
    vm.check.eq %v15, %k16, "not.i64(71777214294589695)" : i64
    vm.return
  }

  vm.export @test_and_i64
  vm.func @test_and_i64() {
    %k1 = vm.const.i64 4080
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 15420
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.and.i64 %x2, %x4 : i64
    %k6 = vm.const.i64 3120
    vm.check.eq %v5, %k6, "and.i64(4080, 15420)" : i64
    %k7 = vm.const.i64 -1
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 1515870810
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.and.i64 %x8, %x10 : i64
    %k12 = vm.const.i64 1515870810
    vm.check.eq %v11, %k12, "and.i64(-1, 1515870810)" : i64
    %k13 = vm.const.i64 71777214294589695
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 1085102592571150095
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.and.i64 %x14, %x16 : i64
    %k18 = vm.const.i64 4222189076152335
    vm.check.eq %v17, %k18, "and.i64(71777214294589695, 1085102592571150095)" : i64
    vm.return
  }

  vm.export @test_or_i64
  vm.func @test_or_i64() {
    %k1 = vm.const.i64 4080
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 15420
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.or.i64 %x2, %x4 : i64
    %k6 = vm.const.i64 16380
    vm.check.eq %v5, %k6, "or.i64(4080, 15420)" : i64
    %k7 = vm.const.i64 -1
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 1515870810
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.or.i64 %x8, %x10 : i64
    %k12 = vm.const.i64 -1
    vm.check.eq %v11, %k12, "or.i64(-1, 1515870810)" : i64
    %k13 = vm.const.i64 71777214294589695
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 1085102592571150095
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.or.i64 %x14, %x16 : i64
    %k18 = vm.const.i64 1152657617789587455
    vm.check.eq %v17, %k18, "or.i64(71777214294589695, 1085102592571150095)" : i64
    vm.return
  }

  vm.export @test_xor_i64
  vm.func @test_xor_i64() {
    %k1 = vm.const.i64 4080
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 15420
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.xor.i64 %x2, %x4 : i64
    %k6 = vm.const.i64 13260
    vm.check.eq %v5, %k6, "xor.i64(4080, 15420)" : i64
    %k7 = vm.const.i64 -1
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 1515870810
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.xor.i64 %x8, %x10 : i64
    %k12 = vm.const.i64 -1515870811
    vm.check.eq %v11, %k12, "xor.i64(-1, 1515870810)" : i64
    %k13 = vm.const.i64 71777214294589695
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 1085102592571150095
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.xor.i64 %x14, %x16 : i64
    %k18 = vm.const.i64 1148435428713435120
    vm.check.eq %v17, %k18, "xor.i64(71777214294589695, 1085102592571150095)" : i64
    vm.return
  }

  vm.export @test_ctlz_i64
  vm.func @test_ctlz_i64() {
    %k1 = vm.const.i64 1
    %x2 = vm.optimization_barrier %k1 : i64
    %v3 = vm.ctlz.i64 %x2 : i64
    %k4 = vm.const.i64 63
    vm.check.eq %v3, %k4, "ctlz.i64(1)" : i64
    %k5 = vm.const.i64 0
    %x6 = vm.optimization_barrier %k5 : i64
    %v7 = vm.ctlz.i64 %x6 : i64
    %k8 = vm.const.i64 64
    vm.check.eq %v7, %k8, "ctlz.i64(0)" : i64
    %k9 = vm.const.i64 -1
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.ctlz.i64 %x10 : i64
    %k12 = vm.const.i64 0
    vm.check.eq %v11, %k12, "ctlz.i64(-1)" : i64
    %k13 = vm.const.i64 65536
    %x14 = vm.optimization_barrier %k13 : i64
    %v15 = vm.ctlz.i64 %x14 : i64
    %k16 = vm.const.i64 47
    vm.check.eq %v15, %k16, "ctlz.i64(65536)" : i64
    %k17 = vm.const.i64 4294967296
    %x18 = vm.optimization_barrier %k17 : i64
    %v19 = vm.ctlz.i64 %x18 : i64
    %k20 = vm.const.i64 31
    vm.check.eq %v19, %k20, "ctlz.i64(4294967296)" : i64
    vm.return
  }

  vm.export @test_shl_i64
  vm.func @test_shl_i64() {
    %k1 = vm.const.i64 1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 4
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.shl.i64 %x2, %x4 : i64
    %k6 = vm.const.i64 16
    vm.check.eq %v5, %k6, "shl.i64(1, 4)" : i64
    %k7 = vm.const.i64 1
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i32 65
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.shl.i64 %x8, %x10 : i64
    %k12 = vm.const.i64 2
    vm.check.eq %v11, %k12, "shl.i64(1, 65)" : i64
    %k13 = vm.const.i64 3
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i32 63
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.shl.i64 %x14, %x16 : i64
    %k18 = vm.const.i64 -9223372036854775808
    vm.check.eq %v17, %k18, "shl.i64(3, 63)" : i64
    %k19 = vm.const.i64 -1
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i32 64
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.shl.i64 %x20, %x22 : i64
    %k24 = vm.const.i64 -1
    vm.check.eq %v23, %k24, "shl.i64(-1, 64)" : i64
    %k25 = vm.const.i64 5
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i32 131
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.shl.i64 %x26, %x28 : i64
    %k30 = vm.const.i64 40
    vm.check.eq %v29, %k30, "shl.i64(5, 131)" : i64
    vm.return
  }

  vm.export @test_shr_i64_s
  vm.func @test_shr_i64_s() {
    %k1 = vm.const.i64 -256
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 4
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.shr.i64.s %x2, %x4 : i64
    %k6 = vm.const.i64 -16
    vm.check.eq %v5, %k6, "shr.i64.s(-256, 4)" : i64
    %k7 = vm.const.i64 -256
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i32 68
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.shr.i64.s %x8, %x10 : i64
    %k12 = vm.const.i64 -16
    vm.check.eq %v11, %k12, "shr.i64.s(-256, 68)" : i64
    %k13 = vm.const.i64 4611686018427387904
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i32 62
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.shr.i64.s %x14, %x16 : i64
    %k18 = vm.const.i64 1
    vm.check.eq %v17, %k18, "shr.i64.s(4611686018427387904, 62)" : i64
    %k19 = vm.const.i64 -1
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i32 63
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.shr.i64.s %x20, %x22 : i64
    %k24 = vm.const.i64 -1
    vm.check.eq %v23, %k24, "shr.i64.s(-1, 63)" : i64
    %k25 = vm.const.i64 -9223372036854775808
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i32 64
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.shr.i64.s %x26, %x28 : i64
    %k30 = vm.const.i64 -9223372036854775808
    vm.check.eq %v29, %k30, "shr.i64.s(-9223372036854775808, 64)" : i64
    vm.return
  }

  vm.export @test_shr_i64_u
  vm.func @test_shr_i64_u() {
    %k1 = vm.const.i64 -256
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 4
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.shr.i64.u %x2, %x4 : i64
    %k6 = vm.const.i64 1152921504606846960
    vm.check.eq %v5, %k6, "shr.i64.u(-256, 4)" : i64
    %k7 = vm.const.i64 -9223372036854775808
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i32 63
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.shr.i64.u %x8, %x10 : i64
    %k12 = vm.const.i64 1
    vm.check.eq %v11, %k12, "shr.i64.u(-9223372036854775808, 63)" : i64
    %k13 = vm.const.i64 -9223372036854775808
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i32 127
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.shr.i64.u %x14, %x16 : i64
    %k18 = vm.const.i64 1
    vm.check.eq %v17, %k18, "shr.i64.u(-9223372036854775808, 127)" : i64
    %k19 = vm.const.i64 16
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i32 64
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.shr.i64.u %x20, %x22 : i64
    %k24 = vm.const.i64 16
    vm.check.eq %v23, %k24, "shr.i64.u(16, 64)" : i64
    %k25 = vm.const.i64 -1
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i32 67
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.shr.i64.u %x26, %x28 : i64
    %k30 = vm.const.i64 2305843009213693951
    vm.check.eq %v29, %k30, "shr.i64.u(-1, 67)" : i64
    vm.return
  }
}
