// Ember VM op conformance: integer and ref comparisons. Results are i32 0/1.
// The i64 cases include pairs that agree in one 32-bit half and differ in the
// other, so a comparison of only the low word gets them wrong. Ref compares are
// by identity. fail_* functions check that check.eq/ne/nz raise on mismatch.
vm.module @ops_compare {
  vm.export @test_cmp_eq_i32
  vm.func @test_cmp_eq_i32() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.eq.i32 %x2, %x4 : i32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.eq.i32(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.eq.i32 %x8, %x10 : i32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.eq.i32(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.eq.i32 %x14, %x16 : i32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.eq.i32(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.eq.i32 %x20, %x22 : i32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.eq.i32(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.eq.i32 %x26, %x28 : i32
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.eq.i32(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_ne_i32
  vm.func @test_cmp_ne_i32() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.ne.i32 %x2, %x4 : i32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.ne.i32(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.ne.i32 %x8, %x10 : i32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.ne.i32(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.ne.i32 %x14, %x16 : i32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.ne.i32(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.ne.i32 %x20, %x22 : i32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.ne.i32(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.ne.i32 %x26, %x28 : i32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.ne.i32(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_lt_i32_s
  vm.func @test_cmp_lt_i32_s() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.lt.i32.s %x2, %x4 : i32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.lt.i32.s(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.lt.i32.s %x8, %x10 : i32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.lt.i32.s(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.lt.i32.s %x14, %x16 : i32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lt.i32.s(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.lt.i32.s %x20, %x22 : i32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.lt.i32.s(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.lt.i32.s %x26, %x28 : i32
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.lt.i32.s(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_lt_i32_u
  vm.func @test_cmp_lt_i32_u() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.lt.i32.u %x2, %x4 : i32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.lt.i32.u(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.lt.i32.u %x8, %x10 : i32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.lt.i32.u(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.lt.i32.u %x14, %x16 : i32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.lt.i32.u(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.lt.i32.u %x20, %x22 : i32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.lt.i32.u(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.lt.i32.u %x26, %x28 : i32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.lt.i32.u(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_lte_i32_s
  vm.func @test_cmp_lte_i32_s() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.lte.i32.s %x2, %x4 : i32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.lte.i32.s(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.lte.i32.s %x8, %x10 : i32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.lte.i32.s(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.lte.i32.s %x14, %x16 : i32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lte.i32.s(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.lte.i32.s %x20, %x22 : i32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.lte.i32.s(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.lte.i32.s %x26, %x28 : i32
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.lte.i32.s(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_lte_i32_u
  vm.func @test_cmp_lte_i32_u() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.lte.i32.u %x2, %x4 : i32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.lte.i32.u(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.lte.i32.u %x8, %x10 : i32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.lte.i32.u(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.lte.i32.u %x14, %x16 : i32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.lte.i32.u(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.lte.i32.u %x20, %x22 : i32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.lte.i32.u(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.lte.i32.u %x26, %x28 : i32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.lte.i32.u(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_gt_i32_s
  vm.func @test_cmp_gt_i32_s() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.gt.i32.s %x2, %x4 : i32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.gt.i32.s(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.gt.i32.s %x8, %x10 : i32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.gt.i32.s(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.gt.i32.s %x14, %x16 : i32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gt.i32.s(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.gt.i32.s %x20, %x22 : i32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.gt.i32.s(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.gt.i32.s %x26, %x28 : i32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.gt.i32.s(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_gt_i32_u
  vm.func @test_cmp_gt_i32_u() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.gt.i32.u %x2, %x4 : i32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.gt.i32.u(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.gt.i32.u %x8, %x10 : i32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.gt.i32.u(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.gt.i32.u %x14, %x16 : i32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.gt.i32.u(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.gt.i32.u %x20, %x22 : i32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.gt.i32.u(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.gt.i32.u %x26, %x28 : i32
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.gt.i32.u(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_gte_i32_s
  vm.func @test_cmp_gte_i32_s() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.gte.i32.s %x2, %x4 : i32
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.gte.i32.s(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.gte.i32.s %x8, %x10 : i32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.gte.i32.s(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.gte.i32.s %x14, %x16 : i32
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gte.i32.s(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.gte.i32.s %x20, %x22 : i32
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.gte.i32.s(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.gte.i32.s %x26, %x28 : i32
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.gte.i32.s(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_gte_i32_u
  vm.func @test_cmp_gte_i32_u() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.cmp.gte.i32.u %x2, %x4 : i32
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.gte.i32.u(-1, 1)" : i32
    %k7 = vm.const.i32 7
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 7
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.gte.i32.u %x8, %x10 : i32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.gte.i32.u(7, 7)" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %k15 = vm.const.i32 -1
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.cmp.gte.i32.u %x14, %x16 : i32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.gte.i32.u(1, -1)" : i32
    %k19 = vm.const.i32 0
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 -2147483648
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.cmp.gte.i32.u %x20, %x22 : i32
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.gte.i32.u(0, -2147483648)" : i32
    %k25 = vm.const.i32 2147483647
    %x26 = vm.optimization_barrier %k25 : i32
    %k27 = vm.const.i32 -2147483648
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = vm.cmp.gte.i32.u %x26, %x28 : i32
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.gte.i32.u(2147483647, -2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_nz_i32
  vm.func @test_cmp_nz_i32() {
    %k1 = vm.const.i32 0
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.cmp.nz.i32 %x2 : i32
    %k4 = vm.const.i32 0
    vm.check.eq %v3, %k4, "cmp.nz.i32(0)" : i32
    %k5 = vm.const.i32 1
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.cmp.nz.i32 %x6 : i32
    %k8 = vm.const.i32 1
    vm.check.eq %v7, %k8, "cmp.nz.i32(1)" : i32
    %k9 = vm.const.i32 -1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.cmp.nz.i32 %x10 : i32
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.nz.i32(-1)" : i32
    %k13 = vm.const.i32 -2147483648
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.cmp.nz.i32 %x14 : i32
    %k16 = vm.const.i32 1
    vm.check.eq %v15, %k16, "cmp.nz.i32(-2147483648)" : i32
    vm.return
  }

  vm.export @test_cmp_eq_i64
  vm.func @test_cmp_eq_i64() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.eq.i64 %x2, %x4 : i64
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.eq.i64(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.eq.i64 %x8, %x10 : i64
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.eq.i64(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.eq.i64 %x14, %x16 : i64
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.eq.i64(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.eq.i64 %x20, %x22 : i64
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.eq.i64(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.eq.i64 %x26, %x28 : i64
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.eq.i64(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.eq.i64 %x32, %x34 : i64
    %k36 = vm.const.i32 0
    vm.check.eq %v35, %k36, "cmp.eq.i64(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_ne_i64
  vm.func @test_cmp_ne_i64() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.ne.i64 %x2, %x4 : i64
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.ne.i64(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.ne.i64 %x8, %x10 : i64
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.ne.i64(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.ne.i64 %x14, %x16 : i64
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.ne.i64(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.ne.i64 %x20, %x22 : i64
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.ne.i64(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.ne.i64 %x26, %x28 : i64
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.ne.i64(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.ne.i64 %x32, %x34 : i64
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.ne.i64(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_lt_i64_s
  vm.func @test_cmp_lt_i64_s() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.lt.i64.s %x2, %x4 : i64
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.lt.i64.s(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.lt.i64.s %x8, %x10 : i64
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.lt.i64.s(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.lt.i64.s %x14, %x16 : i64
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lt.i64.s(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.lt.i64.s %x20, %x22 : i64
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.lt.i64.s(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.lt.i64.s %x26, %x28 : i64
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.lt.i64.s(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.lt.i64.s %x32, %x34 : i64
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.lt.i64.s(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_lt_i64_u
  vm.func @test_cmp_lt_i64_u() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.lt.i64.u %x2, %x4 : i64
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.lt.i64.u(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.lt.i64.u %x8, %x10 : i64
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.lt.i64.u(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.lt.i64.u %x14, %x16 : i64
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lt.i64.u(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.lt.i64.u %x20, %x22 : i64
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.lt.i64.u(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.lt.i64.u %x26, %x28 : i64
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.lt.i64.u(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.lt.i64.u %x32, %x34 : i64
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.lt.i64.u(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_lte_i64_s
  vm.func @test_cmp_lte_i64_s() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.lte.i64.s %x2, %x4 : i64
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.lte.i64.s(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.lte.i64.s %x8, %x10 : i64
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.lte.i64.s(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.lte.i64.s %x14, %x16 : i64
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lte.i64.s(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.lte.i64.s %x20, %x22 : i64
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.lte.i64.s(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.lte.i64.s %x26, %x28 : i64
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.lte.i64.s(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.lte.i64.s %x32, %x34 : i64
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.lte.i64.s(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_lte_i64_u
  vm.func @test_cmp_lte_i64_u() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.lte.i64.u %x2, %x4 : i64
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.lte.i64.u(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.lte.i64.u %x8, %x10 : i64
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.lte.i64.u(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.lte.i64.u %x14, %x16 : i64
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "cmp.lte.i64.u(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.lte.i64.u %x20, %x22 : i64
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.lte.i64.u(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.lte.i64.u %x26, %x28 : i64
    %k30 = vm.const.i32 1
    vm.check.eq %v29, %k30, "cmp.lte.i64.u(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.lte.i64.u %x32, %x34 : i64
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "cmp.lte.i64.u(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_gt_i64_s
  vm.func @test_cmp_gt_i64_s() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.gt.i64.s %x2, %x4 : i64
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.gt.i64.s(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.gt.i64.s %x8, %x10 : i64
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.gt.i64.s(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.gt.i64.s %x14, %x16 : i64
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gt.i64.s(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.gt.i64.s %x20, %x22 : i64
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.gt.i64.s(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.gt.i64.s %x26, %x28 : i64
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.gt.i64.s(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.gt.i64.s %x32, %x34 : i64
    %k36 = vm.const.i32 0
    vm.check.eq %v35, %k36, "cmp.gt.i64.s(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_gt_i64_u
  vm.func @test_cmp_gt_i64_u() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.gt.i64.u %x2, %x4 : i64
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.gt.i64.u(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.gt.i64.u %x8, %x10 : i64
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "cmp.gt.i64.u(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.gt.i64.u %x14, %x16 : i64
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gt.i64.u(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.gt.i64.u %x20, %x22 : i64
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.gt.i64.u(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.gt.i64.u %x26, %x28 : i64
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.gt.i64.u(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.gt.i64.u %x32, %x34 : i64
    %k36 = vm.const.i32 0
    vm.check.eq %v35, %k36, "cmp.gt.i64.u(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_gte_i64_s
  vm.func @test_cmp_gte_i64_s() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.gte.i64.s %x2, %x4 : i64
    %k6 = vm.const.i32 0
    vm.check.eq %v5, %k6, "cmp.gte.i64.s(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.gte.i64.s %x8, %x10 : i64
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.gte.i64.s(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.gte.i64.s %x14, %x16 : i64
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gte.i64.s(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.gte.i64.s %x20, %x22 : i64
    %k24 = vm.const.i32 0
    vm.check.eq %v23, %k24, "cmp.gte.i64.s(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.gte.i64.s %x26, %x28 : i64
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.gte.i64.s(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.gte.i64.s %x32, %x34 : i64
    %k36 = vm.const.i32 0
    vm.check.eq %v35, %k36, "cmp.gte.i64.s(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_gte_i64_u
  vm.func @test_cmp_gte_i64_u() {
    %k1 = vm.const.i64 -1
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 1
    %x4 = vm.optimization_barrier %k3 : i64
    %v5 = vm.cmp.gte.i64.u %x2, %x4 : i64
    %k6 = vm.const.i32 1
    vm.check.eq %v5, %k6, "cmp.gte.i64.u(-1, 1)" : i32
    %k7 = vm.const.i64 8589934592
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 8589934592
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.gte.i64.u %x8, %x10 : i64
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.gte.i64.u(8589934592, 8589934592)" : i32
    %k13 = vm.const.i64 4294967296
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 4294967295
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.cmp.gte.i64.u %x14, %x16 : i64
    %k18 = vm.const.i32 1
    vm.check.eq %v17, %k18, "cmp.gte.i64.u(4294967296, 4294967295)" : i32
    %k19 = vm.const.i64 -1099511627776
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i64 1099511627776
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.gte.i64.u %x20, %x22 : i64
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.gte.i64.u(-1099511627776, 1099511627776)" : i32
    %k25 = vm.const.i64 8589934592
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 12884901888
    %x28 = vm.optimization_barrier %k27 : i64
    %v29 = vm.cmp.gte.i64.u %x26, %x28 : i64
    %k30 = vm.const.i32 0
    vm.check.eq %v29, %k30, "cmp.gte.i64.u(8589934592, 12884901888)" : i32
    %k31 = vm.const.i64 5
    %x32 = vm.optimization_barrier %k31 : i64
    %k33 = vm.const.i64 4294967301
    %x34 = vm.optimization_barrier %k33 : i64
    %v35 = vm.cmp.gte.i64.u %x32, %x34 : i64
    %k36 = vm.const.i32 0
    vm.check.eq %v35, %k36, "cmp.gte.i64.u(5, 4294967301)" : i32
    vm.return
  }

  vm.export @test_cmp_nz_i64
  vm.func @test_cmp_nz_i64() {
    %k1 = vm.const.i64 0
    %x2 = vm.optimization_barrier %k1 : i64
    %v3 = vm.cmp.nz.i64 %x2 : i64
    %k4 = vm.const.i32 0
    vm.check.eq %v3, %k4, "cmp.nz.i64(0)" : i32
    %k5 = vm.const.i64 1
    %x6 = vm.optimization_barrier %k5 : i64
    %v7 = vm.cmp.nz.i64 %x6 : i64
    %k8 = vm.const.i32 1
    vm.check.eq %v7, %k8, "cmp.nz.i64(1)" : i32
    %k9 = vm.const.i64 -1
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.cmp.nz.i64 %x10 : i64
    %k12 = vm.const.i32 1
    vm.check.eq %v11, %k12, "cmp.nz.i64(-1)" : i32
    %k13 = vm.const.i64 -2147483648
    %x14 = vm.optimization_barrier %k13 : i64
    %v15 = vm.cmp.nz.i64 %x14 : i64
    %k16 = vm.const.i32 1
    vm.check.eq %v15, %k16, "cmp.nz.i64(-2147483648)" : i32
    %k17 = vm.const.i64 4294967296
    %x18 = vm.optimization_barrier %k17 : i64
    %v19 = vm.cmp.nz.i64 %x18 : i64
    %k20 = vm.const.i32 1
    vm.check.eq %v19, %k20, "cmp.nz.i64(4294967296)" : i32
    %k21 = vm.const.i64 -9223372036854775808
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.cmp.nz.i64 %x22 : i64
    %k24 = vm.const.i32 1
    vm.check.eq %v23, %k24, "cmp.nz.i64(9223372036854775808)" : i32
    vm.return
  }

  // eq/ne/nz on refs: identity, not contents
  vm.export @test_cmp_ref
  vm.func @test_cmp_ref() {
    %k1 = vm.const.i32 1
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i32>
    %v4 = vm.list.alloc %x2 : (i32) -> !vm.list<i32>
    %x5 = vm.optimization_barrier %v3 : !vm.list<i32>
    %n6 = vm.const.ref.zero : !vm.list<i32>
    %x7 = vm.optimization_barrier %n6 : !vm.list<i32>
    %n8 = vm.const.ref.zero : !vm.list<i32>
    %x9 = vm.optimization_barrier %n8 : !vm.list<i32>
    %v10 = vm.cmp.eq.ref %v3, %x5 : !vm.list<i32>
    %k11 = vm.const.i32 1
    vm.check.eq %v10, %k11, "cmp.eq.ref(same list)" : i32
    %v12 = vm.cmp.eq.ref %v3, %v4 : !vm.list<i32>
    %k13 = vm.const.i32 0
    vm.check.eq %v12, %k13, "cmp.eq.ref(two lists)" : i32
    %v14 = vm.cmp.ne.ref %v3, %v4 : !vm.list<i32>
    %k15 = vm.const.i32 1
    vm.check.eq %v14, %k15, "cmp.ne.ref(two lists)" : i32
    %v16 = vm.cmp.ne.ref %v3, %x5 : !vm.list<i32>
    %k17 = vm.const.i32 0
    vm.check.eq %v16, %k17, "cmp.ne.ref(same list)" : i32
    %v18 = vm.cmp.eq.ref %x7, %x9 : !vm.list<i32>
    %k19 = vm.const.i32 1
    vm.check.eq %v18, %k19, "cmp.eq.ref(null, null)" : i32
    %v20 = vm.cmp.eq.ref %v3, %x7 : !vm.list<i32>
    %k21 = vm.const.i32 0
    vm.check.eq %v20, %k21, "cmp.eq.ref(list, null)" : i32
    %v22 = vm.cmp.ne.ref %x7, %v4 : !vm.list<i32>
    %k23 = vm.const.i32 1
    vm.check.eq %v22, %k23, "cmp.ne.ref(null, list)" : i32
    %v24 = vm.cmp.nz.ref %v3 : !vm.list<i32>
    %k25 = vm.const.i32 1
    vm.check.eq %v24, %k25, "cmp.nz.ref(list)" : i32
    %v26 = vm.cmp.nz.ref %x7 : !vm.list<i32>
    %k27 = vm.const.i32 0
    vm.check.eq %v26, %k27, "cmp.nz.ref(null)" : i32
    vm.return
  }

  // ref compares of buffers: two equal-content buffers are distinct refs
  vm.export @test_cmp_ref_buffers
  vm.func @test_cmp_ref_buffers() {
    %k1 = vm.const.i64 8
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 16
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 0
    %x7 = vm.optimization_barrier %k6 : i64
    %v8 = vm.buffer.clone %v5, %x7, %x2, %x4 : !vm.buffer -> !vm.buffer
    %v9 = vm.cmp.eq.ref %v5, %v8 : !vm.buffer
    %k10 = vm.const.i32 0
    vm.check.eq %v9, %k10, "clone is another buffer" : i32
    %x11 = vm.optimization_barrier %v5 : !vm.buffer
    %v12 = vm.cmp.eq.ref %v5, %x11 : !vm.buffer
    %k13 = vm.const.i32 1
    vm.check.eq %v12, %k13, "same buffer" : i32
    %v14 = vm.cmp.nz.ref %v8 : !vm.buffer
    %k15 = vm.const.i32 1
    vm.check.eq %v14, %k15, "clone is not null" : i32
    vm.return
  }

  // vm.check.ne of equal values must fail
  vm.export @fail_cmp_check_ne_equal
  vm.func @fail_cmp_check_ne_equal() {
    %k1 = vm.const.i64 34359738368
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 34359738368
    %x4 = vm.optimization_barrier %k3 : i64
    vm.check.ne %x2, %x4, "equal i64 values" : i64
    vm.return
  }

  // i64 values equal in the low word only
  vm.export @fail_cmp_check_eq_high_word
  vm.func @fail_cmp_check_eq_high_word() {
    %k1 = vm.const.i64 34359738377
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 9
    %x4 = vm.optimization_barrier %k3 : i64
    vm.check.eq %x2, %x4, "high words differ" : i64
    vm.return
  }

  // vm.check.nz of a null ref must fail
  vm.export @fail_cmp_check_nz_null
  vm.func @fail_cmp_check_nz_null() {
    %n1 = vm.const.ref.zero : !vm.buffer
    %x2 = vm.optimization_barrier %n1 : !vm.buffer
    vm.check.nz %x2, "null buffer" : !vm.buffer
    vm.return
  }
}
