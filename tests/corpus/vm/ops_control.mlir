// Ember VM op conformance: control flow. Branch operands (including i64 pairs
// and swaps that need a parallel copy), cond_br, br_table with default and
// out-of-range indices, switch of every type, select of every type, internal
// calls with many mixed arguments and results, and a 200-deep call chain.
// test_ember_only_* functions pass i64/f64 through internal calls, which IREE
// 3.11's interpreter truncates; the oracle test skips them.
vm.module @ops_control {
  // Loop whose back edge passes (i32, i64, i64, i32) block operands and swaps
  // the two i64 values and the two i32 values: the operand copy must behave as
  // a parallel move. After 7 iterations (odd) the pairs end up swapped.
  vm.export @test_br_operands_swap
  vm.func @test_br_operands_swap() {
    %k0 = vm.const.i32 0
    %i0 = vm.optimization_barrier %k0 : i32
    %ka = vm.const.i64 0x1111111122222222
    %a0 = vm.optimization_barrier %ka : i64
    %kb = vm.const.i64 -0x3333333344444444
    %b0 = vm.optimization_barrier %kb : i64
    %kx = vm.const.i32 17
    %x0 = vm.optimization_barrier %kx : i32
    %ky = vm.const.i32 -29
    %y0 = vm.optimization_barrier %ky : i32
    %kn = vm.const.i32 7
    %n = vm.optimization_barrier %kn : i32
    vm.br ^loop(%i0, %a0, %b0, %x0, %y0 : i32, i64, i64, i32, i32)
  ^loop(%i: i32, %a: i64, %b: i64, %x: i32, %y: i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body, ^done(%a, %b, %x, %y : i64, i64, i32, i32)
  ^body:
    %c1 = vm.const.i32 1
    %i1 = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%i1, %b, %a, %y, %x : i32, i64, i64, i32, i32)
  ^done(%ra: i64, %rb: i64, %rx: i32, %ry: i32):
    vm.check.eq %ra, %kb, "a after odd swaps" : i64
    vm.check.eq %rb, %ka, "b after odd swaps" : i64
    vm.check.eq %rx, %ky, "x after odd swaps" : i32
    vm.check.eq %ry, %kx, "y after odd swaps" : i32
    vm.return
  }

  // Accumulates an i64 sum in a block argument: sum of i * 2^32 + i for
  // i = 1..10 = 55 * 2^32 + 55. The carry between words must survive.
  vm.export @test_br_i64_accumulate
  vm.func @test_br_i64_accumulate() {
    %k1 = vm.const.i32 1
    %one = vm.optimization_barrier %k1 : i32
    %z = vm.const.i64 0
    %acc0 = vm.optimization_barrier %z : i64
    vm.br ^loop(%one, %acc0 : i32, i64)
  ^loop(%i: i32, %acc: i64):
    %w = vm.ext.i32.i64.u %i : i32 -> i64
    %c32 = vm.const.i32 32
    %hi = vm.shl.i64 %w, %c32 : i64
    %t = vm.add.i64 %hi, %w : i64
    %acc1 = vm.add.i64 %acc, %t : i64
    %i1 = vm.add.i32 %i, %one : i32
    %c11 = vm.const.i32 11
    %more = vm.cmp.lt.i32.s %i1, %c11 : i32
    vm.cond_br %more, ^loop(%i1, %acc1 : i32, i64), ^done(%acc1 : i64)
  ^done(%r: i64):
    %e = vm.const.i64 236223201335
    vm.check.eq %r, %e, "sum" : i64
    vm.return
  }

  // cond_br on non-zero values other than 1 (any non-zero i32 is true), with
  // different operands on each edge.
  vm.export @test_cond_br
  vm.func @test_cond_br() {
    %kt = vm.const.i32 -8
    %t = vm.optimization_barrier %kt : i32
    %kf = vm.const.i32 0
    %f = vm.optimization_barrier %kf : i32
    %k5 = vm.const.i64 5000000000
    %v = vm.optimization_barrier %k5 : i64
    vm.cond_br %t, ^a(%v : i64), ^bad
  ^a(%va: i64):
    vm.check.eq %va, %k5, "true edge operand" : i64
    %kf2 = vm.const.f32 2.5
    %fv = vm.optimization_barrier %kf2 : f32
    vm.cond_br %f, ^bad, ^b(%fv, %va : f32, i64)
  ^b(%vf: f32, %vb: i64):
    vm.check.eq %vf, %kf2, "false edge f32" : f32
    vm.check.eq %vb, %k5, "false edge i64" : i64
    vm.return
  ^bad:
    %c = vm.const.i32 13
    vm.fail %c, "wrong edge"
  }

  // br_table: cases 0..2 pass distinct operands; anything else (negative or
  // too large) takes the default edge.
  vm.func private @table(%i: i32) -> i64 attributes {inlining_policy = #util.inline.never} {
    %a = vm.const.i64 100
    %b = vm.const.i64 0x200000000
    %c = vm.const.i64 -300
    %d = vm.const.i64 -1
    vm.br_table %i {
      default: ^join(%d : i64),
      0: ^join(%a : i64),
      1: ^join(%b : i64),
      2: ^two
    }
  ^two:
    vm.br ^join(%c : i64)
  ^join(%r: i64):
    vm.return %r : i64
  }
  vm.func private @table32(%i: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %a = vm.const.i32 10
    %b = vm.const.i32 20
    %c = vm.const.i32 30
    %d = vm.const.i32 -7
    vm.br_table %i {
      default: ^join(%d : i32),
      0: ^join(%a : i32),
      1: ^join(%b : i32),
      2: ^join(%c : i32)
    }
  ^join(%r: i32):
    vm.return %r : i32
  }

  // the index is an i32; negative and too-large indices take the default
  vm.export @test_br_table
  vm.func @test_br_table() {
    %k1 = vm.const.i32 0
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.call @table32(%x2) : (i32) -> i32
    %k4 = vm.const.i32 10
    vm.check.eq %v3, %k4, "table32(0)" : i32
    %k5 = vm.const.i32 1
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.call @table32(%x6) : (i32) -> i32
    %k8 = vm.const.i32 20
    vm.check.eq %v7, %k8, "table32(1)" : i32
    %k9 = vm.const.i32 2
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.call @table32(%x10) : (i32) -> i32
    %k12 = vm.const.i32 30
    vm.check.eq %v11, %k12, "table32(2)" : i32
    %k13 = vm.const.i32 3
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.call @table32(%x14) : (i32) -> i32
    %k16 = vm.const.i32 -7
    vm.check.eq %v15, %k16, "table32(3)" : i32
    %k17 = vm.const.i32 -1
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.call @table32(%x18) : (i32) -> i32
    %k20 = vm.const.i32 -7
    vm.check.eq %v19, %k20, "table32(-1)" : i32
    %k21 = vm.const.i32 1000
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.call @table32(%x22) : (i32) -> i32
    %k24 = vm.const.i32 -7
    vm.check.eq %v23, %k24, "table32(1000)" : i32
    %k25 = vm.const.i32 -2147483648
    %x26 = vm.optimization_barrier %k25 : i32
    %v27 = vm.call @table32(%x26) : (i32) -> i32
    %k28 = vm.const.i32 -7
    vm.check.eq %v27, %k28, "table32(-2147483648)" : i32
    vm.return
  }

  // IREE 3.11 copies one 32-bit slot per i64 result on vm.return, so this runs on Ember only
  vm.export @test_ember_only_br_table_i64
  vm.func @test_ember_only_br_table_i64() {
    %k1 = vm.const.i32 0
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.call @table(%x2) : (i32) -> i64
    %k4 = vm.const.i64 100
    vm.check.eq %v3, %k4, "table(0)" : i64
    %k5 = vm.const.i32 1
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.call @table(%x6) : (i32) -> i64
    %k8 = vm.const.i64 8589934592
    vm.check.eq %v7, %k8, "table(1)" : i64
    %k9 = vm.const.i32 2
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.call @table(%x10) : (i32) -> i64
    %k12 = vm.const.i64 -300
    vm.check.eq %v11, %k12, "table(2)" : i64
    %k13 = vm.const.i32 3
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.call @table(%x14) : (i32) -> i64
    %k16 = vm.const.i64 -1
    vm.check.eq %v15, %k16, "table(3)" : i64
    %k17 = vm.const.i32 -5
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.call @table(%x18) : (i32) -> i64
    %k20 = vm.const.i64 -1
    vm.check.eq %v19, %k20, "table(-5)" : i64
    vm.return
  }

  vm.export @test_switch_i32
  vm.func @test_switch_i32() {
    %k1 = vm.const.i32 11
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 -22
    %x4 = vm.optimization_barrier %k3 : i32
    %k5 = vm.const.i32 33
    %x6 = vm.optimization_barrier %k5 : i32
    %k7 = vm.const.i32 99
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i32 0
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.switch.i32 %x10[%x2, %x4, %x6] else %x8 : i32
    %k12 = vm.const.i32 11
    vm.check.eq %v11, %k12, "switch.i32[0]" : i32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.switch.i32 %x14[%x2, %x4, %x6] else %x8 : i32
    %k16 = vm.const.i32 -22
    vm.check.eq %v15, %k16, "switch.i32[1]" : i32
    %k17 = vm.const.i32 2
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.switch.i32 %x18[%x2, %x4, %x6] else %x8 : i32
    %k20 = vm.const.i32 33
    vm.check.eq %v19, %k20, "switch.i32[2]" : i32
    %k21 = vm.const.i32 3
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.switch.i32 %x22[%x2, %x4, %x6] else %x8 : i32
    %k24 = vm.const.i32 99
    vm.check.eq %v23, %k24, "switch.i32[3]" : i32
    %k25 = vm.const.i32 -1
    %x26 = vm.optimization_barrier %k25 : i32
    %v27 = vm.switch.i32 %x26[%x2, %x4, %x6] else %x8 : i32
    %k28 = vm.const.i32 99
    vm.check.eq %v27, %k28, "switch.i32[-1]" : i32
    %k29 = vm.const.i32 77
    %x30 = vm.optimization_barrier %k29 : i32
    %v31 = vm.switch.i32 %x30[%x2, %x4, %x6] else %x8 : i32
    %k32 = vm.const.i32 99
    vm.check.eq %v31, %k32, "switch.i32[77]" : i32
    vm.return
  }

  vm.export @test_switch_i64_narrow_cases
  vm.func @test_switch_i64_narrow_cases() {
    %k1 = vm.const.i64 12
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 -5
    %x4 = vm.optimization_barrier %k3 : i64
    %k5 = vm.const.i64 2147483647
    %x6 = vm.optimization_barrier %k5 : i64
    %k7 = vm.const.i64 -34359738368
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i32 0
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.switch.i64 %x10[%x2, %x4, %x6] else %x8 : i64
    %k12 = vm.const.i64 12
    vm.check.eq %v11, %k12, "switch.i64[0]" : i64
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.switch.i64 %x14[%x2, %x4, %x6] else %x8 : i64
    %k16 = vm.const.i64 -5
    vm.check.eq %v15, %k16, "switch.i64[1]" : i64
    %k17 = vm.const.i32 2
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.switch.i64 %x18[%x2, %x4, %x6] else %x8 : i64
    %k20 = vm.const.i64 2147483647
    vm.check.eq %v19, %k20, "switch.i64[2]" : i64
    %k21 = vm.const.i32 3
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.switch.i64 %x22[%x2, %x4, %x6] else %x8 : i64
    %k24 = vm.const.i64 -34359738368
    vm.check.eq %v23, %k24, "switch.i64[3]" : i64
    %k25 = vm.const.i32 -1
    %x26 = vm.optimization_barrier %k25 : i32
    %v27 = vm.switch.i64 %x26[%x2, %x4, %x6] else %x8 : i64
    %k28 = vm.const.i64 -34359738368
    vm.check.eq %v27, %k28, "switch.i64[-1]" : i64
    %k29 = vm.const.i32 77
    %x30 = vm.optimization_barrier %k29 : i32
    %v31 = vm.switch.i64 %x30[%x2, %x4, %x6] else %x8 : i64
    %k32 = vm.const.i64 -34359738368
    vm.check.eq %v31, %k32, "switch.i64[77]" : i64
    vm.return
  }

  // IREE 3.11's SwitchI64 reads the selected case from the 32-bit register bank (regs_i32[...]) so a case value beyond 32 bits comes back truncated; Ember only
  vm.export @test_ember_only_switch_i64
  vm.func @test_ember_only_switch_i64() {
    %k1 = vm.const.i64 1099511627776
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i64 -5
    %x4 = vm.optimization_barrier %k3 : i64
    %k5 = vm.const.i64 8589934593
    %x6 = vm.optimization_barrier %k5 : i64
    %k7 = vm.const.i64 -34359738368
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i32 0
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.switch.i64 %x10[%x2, %x4, %x6] else %x8 : i64
    %k12 = vm.const.i64 1099511627776
    vm.check.eq %v11, %k12, "switch.i64[0]" : i64
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.switch.i64 %x14[%x2, %x4, %x6] else %x8 : i64
    %k16 = vm.const.i64 -5
    vm.check.eq %v15, %k16, "switch.i64[1]" : i64
    %k17 = vm.const.i32 2
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.switch.i64 %x18[%x2, %x4, %x6] else %x8 : i64
    %k20 = vm.const.i64 8589934593
    vm.check.eq %v19, %k20, "switch.i64[2]" : i64
    %k21 = vm.const.i32 3
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.switch.i64 %x22[%x2, %x4, %x6] else %x8 : i64
    %k24 = vm.const.i64 -34359738368
    vm.check.eq %v23, %k24, "switch.i64[3]" : i64
    %k25 = vm.const.i32 -1
    %x26 = vm.optimization_barrier %k25 : i32
    %v27 = vm.switch.i64 %x26[%x2, %x4, %x6] else %x8 : i64
    %k28 = vm.const.i64 -34359738368
    vm.check.eq %v27, %k28, "switch.i64[-1]" : i64
    %k29 = vm.const.i32 77
    %x30 = vm.optimization_barrier %k29 : i32
    %v31 = vm.switch.i64 %x30[%x2, %x4, %x6] else %x8 : i64
    %k32 = vm.const.i64 -34359738368
    vm.check.eq %v31, %k32, "switch.i64[77]" : i64
    vm.return
  }

  vm.export @test_switch_f32
  vm.func @test_switch_f32() {
    %k1 = vm.const.f32 0x3FC00000
    %x2 = vm.optimization_barrier %k1 : f32
    %k3 = vm.const.f32 0xC0100000
    %x4 = vm.optimization_barrier %k3 : f32
    %k5 = vm.const.f32 0x60AD78EC
    %x6 = vm.optimization_barrier %k5 : f32
    %k7 = vm.const.f32 0x3F000000
    %x8 = vm.optimization_barrier %k7 : f32
    %k9 = vm.const.i32 0
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.switch.f32 %x10[%x2, %x4, %x6] else %x8 : f32
    %k12 = vm.const.f32 0x3FC00000
    vm.check.eq %v11, %k12, "switch.f32[0]" : f32
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.switch.f32 %x14[%x2, %x4, %x6] else %x8 : f32
    %k16 = vm.const.f32 0xC0100000
    vm.check.eq %v15, %k16, "switch.f32[1]" : f32
    %k17 = vm.const.i32 2
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.switch.f32 %x18[%x2, %x4, %x6] else %x8 : f32
    %k20 = vm.const.f32 0x60AD78EC
    vm.check.eq %v19, %k20, "switch.f32[2]" : f32
    %k21 = vm.const.i32 3
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.switch.f32 %x22[%x2, %x4, %x6] else %x8 : f32
    %k24 = vm.const.f32 0x3F000000
    vm.check.eq %v23, %k24, "switch.f32[3]" : f32
    %k25 = vm.const.i32 -1
    %x26 = vm.optimization_barrier %k25 : i32
    %v27 = vm.switch.f32 %x26[%x2, %x4, %x6] else %x8 : f32
    %k28 = vm.const.f32 0x3F000000
    vm.check.eq %v27, %k28, "switch.f32[-1]" : f32
    %k29 = vm.const.i32 77
    %x30 = vm.optimization_barrier %k29 : i32
    %v31 = vm.switch.f32 %x30[%x2, %x4, %x6] else %x8 : f32
    %k32 = vm.const.f32 0x3F000000
    vm.check.eq %v31, %k32, "switch.f32[77]" : f32
    vm.return
  }

  vm.export @test_switch_f64
  vm.func @test_switch_f64() {
    %k1 = vm.const.f64 0x7E37E43C8800759C
    %x2 = vm.optimization_barrier %k1 : f64
    %k3 = vm.const.f64 0xC004000000000000
    %x4 = vm.optimization_barrier %k3 : f64
    %k5 = vm.const.f64 0x3FC0000000000000
    %x6 = vm.optimization_barrier %k5 : f64
    %k7 = vm.const.f64 0x401C000000000000
    %x8 = vm.optimization_barrier %k7 : f64
    %k9 = vm.const.i32 0
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.switch.f64 %x10[%x2, %x4, %x6] else %x8 : f64
    %k12 = vm.const.f64 0x7E37E43C8800759C
    vm.check.eq %v11, %k12, "switch.f64[0]" : f64
    %k13 = vm.const.i32 1
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.switch.f64 %x14[%x2, %x4, %x6] else %x8 : f64
    %k16 = vm.const.f64 0xC004000000000000
    vm.check.eq %v15, %k16, "switch.f64[1]" : f64
    %k17 = vm.const.i32 2
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.switch.f64 %x18[%x2, %x4, %x6] else %x8 : f64
    %k20 = vm.const.f64 0x3FC0000000000000
    vm.check.eq %v19, %k20, "switch.f64[2]" : f64
    %k21 = vm.const.i32 3
    %x22 = vm.optimization_barrier %k21 : i32
    %v23 = vm.switch.f64 %x22[%x2, %x4, %x6] else %x8 : f64
    %k24 = vm.const.f64 0x401C000000000000
    vm.check.eq %v23, %k24, "switch.f64[3]" : f64
    %k25 = vm.const.i32 -1
    %x26 = vm.optimization_barrier %k25 : i32
    %v27 = vm.switch.f64 %x26[%x2, %x4, %x6] else %x8 : f64
    %k28 = vm.const.f64 0x401C000000000000
    vm.check.eq %v27, %k28, "switch.f64[-1]" : f64
    %k29 = vm.const.i32 77
    %x30 = vm.optimization_barrier %k29 : i32
    %v31 = vm.switch.f64 %x30[%x2, %x4, %x6] else %x8 : f64
    %k32 = vm.const.f64 0x401C000000000000
    vm.check.eq %v31, %k32, "switch.f64[77]" : f64
    vm.return
  }

  // switch.ref has no custom syntax; generic form: (index, default, values...)
  vm.export @test_switch_ref
  vm.func @test_switch_ref() {
    %k1 = vm.const.i32 1
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i32>
    %v4 = vm.list.alloc %x2 : (i32) -> !vm.list<i32>
    %v5 = vm.list.alloc %x2 : (i32) -> !vm.list<i32>
    %v6 = vm.list.alloc %x2 : (i32) -> !vm.list<i32>
    %k7 = vm.const.i32 0
    %x8 = vm.optimization_barrier %k7 : i32
    %v9 = "vm.switch.ref"(%x8, %v6, %v3, %v4, %v5) : (i32, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>) -> !vm.list<i32>
    %v10 = vm.cmp.eq.ref %v9, %v3 : !vm.list<i32>
    %k11 = vm.const.i32 1
    vm.check.eq %v10, %k11, "switch.ref[0]" : i32
    %k12 = vm.const.i32 1
    %x13 = vm.optimization_barrier %k12 : i32
    %v14 = "vm.switch.ref"(%x13, %v6, %v3, %v4, %v5) : (i32, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>) -> !vm.list<i32>
    %v15 = vm.cmp.eq.ref %v14, %v4 : !vm.list<i32>
    %k16 = vm.const.i32 1
    vm.check.eq %v15, %k16, "switch.ref[1]" : i32
    %k17 = vm.const.i32 2
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = "vm.switch.ref"(%x18, %v6, %v3, %v4, %v5) : (i32, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>) -> !vm.list<i32>
    %v20 = vm.cmp.eq.ref %v19, %v5 : !vm.list<i32>
    %k21 = vm.const.i32 1
    vm.check.eq %v20, %k21, "switch.ref[2]" : i32
    %k22 = vm.const.i32 3
    %x23 = vm.optimization_barrier %k22 : i32
    %v24 = "vm.switch.ref"(%x23, %v6, %v3, %v4, %v5) : (i32, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>) -> !vm.list<i32>
    %v25 = vm.cmp.eq.ref %v24, %v6 : !vm.list<i32>
    %k26 = vm.const.i32 1
    vm.check.eq %v25, %k26, "switch.ref[3]" : i32
    %k27 = vm.const.i32 -1
    %x28 = vm.optimization_barrier %k27 : i32
    %v29 = "vm.switch.ref"(%x28, %v6, %v3, %v4, %v5) : (i32, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>, !vm.list<i32>) -> !vm.list<i32>
    %v30 = vm.cmp.eq.ref %v29, %v6 : !vm.list<i32>
    %k31 = vm.const.i32 1
    vm.check.eq %v30, %k31, "switch.ref[-1]" : i32
    vm.return
  }

  // select of every type; any non-zero condition selects the first value
  vm.export @test_select
  vm.func @test_select() {
    %k1 = vm.const.i32 1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 5
    %x4 = vm.optimization_barrier %k3 : i32
    %k5 = vm.const.i32 -6
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.select.i32 %x2, %x4, %x6 : i32
    %k8 = vm.const.i32 5
    vm.check.eq %v7, %k8, "select.i32(1)" : i32
    %k9 = vm.const.i64 1099511627776
    %x10 = vm.optimization_barrier %k9 : i64
    %k11 = vm.const.i64 -2199023255552
    %x12 = vm.optimization_barrier %k11 : i64
    %v13 = vm.select.i64 %x2, %x10, %x12 : i64
    %k14 = vm.const.i64 1099511627776
    vm.check.eq %v13, %k14, "select.i64(1)" : i64
    %k15 = vm.const.f32 0x3FA00000
    %x16 = vm.optimization_barrier %k15 : f32
    %k17 = vm.const.f32 0xC1080000
    %x18 = vm.optimization_barrier %k17 : f32
    %v19 = vm.select.f32 %x2, %x16, %x18 : f32
    %k20 = vm.const.f32 0x3FA00000
    vm.check.eq %v19, %k20, "select.f32(1)" : f32
    %k21 = vm.const.f64 0x01A56E1FC2F8F359
    %x22 = vm.optimization_barrier %k21 : f64
    %k23 = vm.const.f64 0x4008000000000000
    %x24 = vm.optimization_barrier %k23 : f64
    %v25 = vm.select.f64 %x2, %x22, %x24 : f64
    %k26 = vm.const.f64 0x01A56E1FC2F8F359
    vm.check.eq %v25, %k26, "select.f64(1)" : f64
    %k27 = vm.const.i64 4
    %x28 = vm.optimization_barrier %k27 : i64
    %k29 = vm.const.i32 8
    %x30 = vm.optimization_barrier %k29 : i32
    %v31 = vm.buffer.alloc %x28, %x30 : !vm.buffer
    %n32 = vm.const.ref.zero : !vm.buffer
    %x33 = vm.optimization_barrier %n32 : !vm.buffer
    %v34 = vm.select.ref %x2, %v31, %x33 : !vm.buffer
    %v35 = vm.cmp.nz.ref %v34 : !vm.buffer
    %k36 = vm.const.i32 1
    vm.check.eq %v35, %k36, "select.ref(1)" : i32
    %k37 = vm.const.i32 0
    %x38 = vm.optimization_barrier %k37 : i32
    %k39 = vm.const.i32 5
    %x40 = vm.optimization_barrier %k39 : i32
    %k41 = vm.const.i32 -6
    %x42 = vm.optimization_barrier %k41 : i32
    %v43 = vm.select.i32 %x38, %x40, %x42 : i32
    %k44 = vm.const.i32 -6
    vm.check.eq %v43, %k44, "select.i32(0)" : i32
    %k45 = vm.const.i64 1099511627776
    %x46 = vm.optimization_barrier %k45 : i64
    %k47 = vm.const.i64 -2199023255552
    %x48 = vm.optimization_barrier %k47 : i64
    %v49 = vm.select.i64 %x38, %x46, %x48 : i64
    %k50 = vm.const.i64 -2199023255552
    vm.check.eq %v49, %k50, "select.i64(0)" : i64
    %k51 = vm.const.f32 0x3FA00000
    %x52 = vm.optimization_barrier %k51 : f32
    %k53 = vm.const.f32 0xC1080000
    %x54 = vm.optimization_barrier %k53 : f32
    %v55 = vm.select.f32 %x38, %x52, %x54 : f32
    %k56 = vm.const.f32 0xC1080000
    vm.check.eq %v55, %k56, "select.f32(0)" : f32
    %k57 = vm.const.f64 0x01A56E1FC2F8F359
    %x58 = vm.optimization_barrier %k57 : f64
    %k59 = vm.const.f64 0x4008000000000000
    %x60 = vm.optimization_barrier %k59 : f64
    %v61 = vm.select.f64 %x38, %x58, %x60 : f64
    %k62 = vm.const.f64 0x4008000000000000
    vm.check.eq %v61, %k62, "select.f64(0)" : f64
    %k63 = vm.const.i64 4
    %x64 = vm.optimization_barrier %k63 : i64
    %k65 = vm.const.i32 8
    %x66 = vm.optimization_barrier %k65 : i32
    %v67 = vm.buffer.alloc %x64, %x66 : !vm.buffer
    %n68 = vm.const.ref.zero : !vm.buffer
    %x69 = vm.optimization_barrier %n68 : !vm.buffer
    %v70 = vm.select.ref %x38, %v67, %x69 : !vm.buffer
    %v71 = vm.cmp.nz.ref %v70 : !vm.buffer
    %k72 = vm.const.i32 0
    vm.check.eq %v71, %k72, "select.ref(0)" : i32
    %k73 = vm.const.i32 -3
    %x74 = vm.optimization_barrier %k73 : i32
    %k75 = vm.const.i32 5
    %x76 = vm.optimization_barrier %k75 : i32
    %k77 = vm.const.i32 -6
    %x78 = vm.optimization_barrier %k77 : i32
    %v79 = vm.select.i32 %x74, %x76, %x78 : i32
    %k80 = vm.const.i32 5
    vm.check.eq %v79, %k80, "select.i32(-3)" : i32
    %k81 = vm.const.i64 1099511627776
    %x82 = vm.optimization_barrier %k81 : i64
    %k83 = vm.const.i64 -2199023255552
    %x84 = vm.optimization_barrier %k83 : i64
    %v85 = vm.select.i64 %x74, %x82, %x84 : i64
    %k86 = vm.const.i64 1099511627776
    vm.check.eq %v85, %k86, "select.i64(-3)" : i64
    %k87 = vm.const.f32 0x3FA00000
    %x88 = vm.optimization_barrier %k87 : f32
    %k89 = vm.const.f32 0xC1080000
    %x90 = vm.optimization_barrier %k89 : f32
    %v91 = vm.select.f32 %x74, %x88, %x90 : f32
    %k92 = vm.const.f32 0x3FA00000
    vm.check.eq %v91, %k92, "select.f32(-3)" : f32
    %k93 = vm.const.f64 0x01A56E1FC2F8F359
    %x94 = vm.optimization_barrier %k93 : f64
    %k95 = vm.const.f64 0x4008000000000000
    %x96 = vm.optimization_barrier %k95 : f64
    %v97 = vm.select.f64 %x74, %x94, %x96 : f64
    %k98 = vm.const.f64 0x01A56E1FC2F8F359
    vm.check.eq %v97, %k98, "select.f64(-3)" : f64
    %k99 = vm.const.i64 4
    %x100 = vm.optimization_barrier %k99 : i64
    %k101 = vm.const.i32 8
    %x102 = vm.optimization_barrier %k101 : i32
    %v103 = vm.buffer.alloc %x100, %x102 : !vm.buffer
    %n104 = vm.const.ref.zero : !vm.buffer
    %x105 = vm.optimization_barrier %n104 : !vm.buffer
    %v106 = vm.select.ref %x74, %v103, %x105 : !vm.buffer
    %v107 = vm.cmp.nz.ref %v106 : !vm.buffer
    %k108 = vm.const.i32 1
    vm.check.eq %v107, %k108, "select.ref(-3)" : i32
    %k109 = vm.const.i32 256
    %x110 = vm.optimization_barrier %k109 : i32
    %k111 = vm.const.i32 5
    %x112 = vm.optimization_barrier %k111 : i32
    %k113 = vm.const.i32 -6
    %x114 = vm.optimization_barrier %k113 : i32
    %v115 = vm.select.i32 %x110, %x112, %x114 : i32
    %k116 = vm.const.i32 5
    vm.check.eq %v115, %k116, "select.i32(256)" : i32
    %k117 = vm.const.i64 1099511627776
    %x118 = vm.optimization_barrier %k117 : i64
    %k119 = vm.const.i64 -2199023255552
    %x120 = vm.optimization_barrier %k119 : i64
    %v121 = vm.select.i64 %x110, %x118, %x120 : i64
    %k122 = vm.const.i64 1099511627776
    vm.check.eq %v121, %k122, "select.i64(256)" : i64
    %k123 = vm.const.f32 0x3FA00000
    %x124 = vm.optimization_barrier %k123 : f32
    %k125 = vm.const.f32 0xC1080000
    %x126 = vm.optimization_barrier %k125 : f32
    %v127 = vm.select.f32 %x110, %x124, %x126 : f32
    %k128 = vm.const.f32 0x3FA00000
    vm.check.eq %v127, %k128, "select.f32(256)" : f32
    %k129 = vm.const.f64 0x01A56E1FC2F8F359
    %x130 = vm.optimization_barrier %k129 : f64
    %k131 = vm.const.f64 0x4008000000000000
    %x132 = vm.optimization_barrier %k131 : f64
    %v133 = vm.select.f64 %x110, %x130, %x132 : f64
    %k134 = vm.const.f64 0x01A56E1FC2F8F359
    vm.check.eq %v133, %k134, "select.f64(256)" : f64
    %k135 = vm.const.i64 4
    %x136 = vm.optimization_barrier %k135 : i64
    %k137 = vm.const.i32 8
    %x138 = vm.optimization_barrier %k137 : i32
    %v139 = vm.buffer.alloc %x136, %x138 : !vm.buffer
    %n140 = vm.const.ref.zero : !vm.buffer
    %x141 = vm.optimization_barrier %n140 : !vm.buffer
    %v142 = vm.select.ref %x110, %v139, %x141 : !vm.buffer
    %v143 = vm.cmp.nz.ref %v142 : !vm.buffer
    %k144 = vm.const.i32 1
    vm.check.eq %v143, %k144, "select.ref(256)" : i32
    vm.return
  }

  // Many mixed arguments and results through an internal call (no i64/f64,
  // which the next test covers). Results come back permuted and combined.
  vm.func private @mix(%a: i32, %b: f32, %r1: !vm.list<i32>, %c: i32, %d: f32, %e: i32, %r2: !vm.buffer, %f: i32, %g: i32, %h: f32) -> (f32, i32, !vm.buffer, i32, !vm.list<i32>, f32) attributes {inlining_policy = #util.inline.never} {
    %s1 = vm.add.f32 %b, %d : f32
    %s2 = vm.sub.i32 %a, %c : i32
    %m = vm.mul.i32 %e, %f : i32
    %s3 = vm.add.i32 %m, %g : i32
    %s4 = vm.mul.f32 %h, %h : f32
    vm.return %s1, %s2, %r2, %s3, %r1, %s4 : f32, i32, !vm.buffer, i32, !vm.list<i32>, f32
  }

  vm.export @test_call_many_mixed
  vm.func @test_call_many_mixed() {
    %k1 = vm.const.i32 100
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.f32 0x3FC00000
    %x4 = vm.optimization_barrier %k3 : f32
    %k5 = vm.const.i32 3
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.list.alloc %x6 : (i32) -> !vm.list<i32>
    %k8 = vm.const.i32 58
    %x9 = vm.optimization_barrier %k8 : i32
    %k10 = vm.const.f32 0xBE800000
    %x11 = vm.optimization_barrier %k10 : f32
    %k12 = vm.const.i32 -7
    %x13 = vm.optimization_barrier %k12 : i32
    %k14 = vm.const.i64 24
    %x15 = vm.optimization_barrier %k14 : i64
    %k16 = vm.const.i32 8
    %x17 = vm.optimization_barrier %k16 : i32
    %v18 = vm.buffer.alloc %x15, %x17 : !vm.buffer
    %k19 = vm.const.i32 9
    %x20 = vm.optimization_barrier %k19 : i32
    %k21 = vm.const.i32 1000
    %x22 = vm.optimization_barrier %k21 : i32
    %k23 = vm.const.f32 0x40400000
    %x24 = vm.optimization_barrier %k23 : f32
    %o1, %o2, %o3, %o4, %o5, %o6 = vm.call @mix(%x2, %x4, %v7, %x9, %x11, %x13, %v18, %x20, %x22, %x24) : (i32, f32, !vm.list<i32>, i32, f32, i32, !vm.buffer, i32, i32, f32) -> (f32, i32, !vm.buffer, i32, !vm.list<i32>, f32)
    %k25 = vm.const.f32 0x3FA00000
    vm.check.eq %o1, %k25, "b + d" : f32
    %k26 = vm.const.i32 42
    vm.check.eq %o2, %k26, "a - c" : i32
    %k27 = vm.const.i32 937
    vm.check.eq %o4, %k27, "e * f + g" : i32
    %k28 = vm.const.f32 0x41100000
    vm.check.eq %o6, %k28, "h * h" : f32
    vm.check.eq %o3, %v18, "buffer comes back" : !vm.buffer
    vm.check.eq %o5, %v7, "list comes back" : !vm.list<i32>
    vm.return
  }

  vm.func private @mix64(%a: i32, %b: i64, %c: f64, %d: i32, %e: i64, %r: !vm.buffer, %f: f32, %g: f64) -> (i64, f64, i32, !vm.buffer, i64, f32) attributes {inlining_policy = #util.inline.never} {
    %s1 = vm.add.i64 %b, %e : i64
    %s2 = vm.mul.f64 %c, %g : f64
    %s3 = vm.add.i32 %a, %d : i32
    %w = vm.ext.i32.i64.s %a : i32 -> i64
    %s4 = vm.sub.i64 %e, %w : i64
    vm.return %s1, %s2, %s3, %r, %s4, %f : i64, f64, i32, !vm.buffer, i64, f32
  }

  // i64/f64 arguments and results through an internal call. IREE 3.11 copies one 32-bit slot per operand on call/return (its i64/f64 values are truncated), so this runs on Ember only
  vm.export @test_ember_only_call_mixed_64bit
  vm.func @test_ember_only_call_mixed_64bit() {
    %k1 = vm.const.i32 7
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i64 1099511627779
    %x4 = vm.optimization_barrier %k3 : i64
    %k5 = vm.const.f64 0x3FF8000000000000
    %x6 = vm.optimization_barrier %k5 : f64
    %k7 = vm.const.i32 -2
    %x8 = vm.optimization_barrier %k7 : i32
    %k9 = vm.const.i64 -68719476736
    %x10 = vm.optimization_barrier %k9 : i64
    %k11 = vm.const.i64 8
    %x12 = vm.optimization_barrier %k11 : i64
    %k13 = vm.const.i32 8
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.buffer.alloc %x12, %x14 : !vm.buffer
    %k16 = vm.const.f32 0xBF000000
    %x17 = vm.optimization_barrier %k16 : f32
    %k18 = vm.const.f64 0x4202A05F20000000
    %x19 = vm.optimization_barrier %k18 : f64
    %o1, %o2, %o3, %o4, %o5, %o6 = vm.call @mix64(%x2, %x4, %x6, %x8, %x10, %v15, %x17, %x19) : (i32, i64, f64, i32, i64, !vm.buffer, f32, f64) -> (i64, f64, i32, !vm.buffer, i64, f32)
    %k20 = vm.const.i64 1030792151043
    vm.check.eq %o1, %k20, "b + e" : i64
    %k21 = vm.const.f64 0x420BF08EB0000000
    vm.check.eq %o2, %k21, "c * g" : f64
    %k22 = vm.const.i32 5
    vm.check.eq %o3, %k22, "a + d" : i32
    vm.check.eq %o4, %v15, "buffer" : !vm.buffer
    %k23 = vm.const.i64 -68719476743
    vm.check.eq %o5, %k23, "e - a" : i64
    %k24 = vm.const.f32 0xBF000000
    vm.check.eq %o6, %k24, "f" : f32
    vm.return
  }

  // A chain of 200 distinct functions, each adding 3 and passing a list ref
  // down and back up (a self-recursive vm.func hangs iree-compile 3.11).
  vm.func private @chain_0(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_1(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_1(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_2(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_2(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_3(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_3(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_4(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_4(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_5(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_5(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_6(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_6(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_7(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_7(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_8(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_8(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_9(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_9(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_10(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_10(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_11(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_11(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_12(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_12(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_13(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_13(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_14(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_14(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_15(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_15(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_16(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_16(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_17(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_17(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_18(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_18(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_19(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_19(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_20(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_20(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_21(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_21(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_22(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_22(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_23(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_23(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_24(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_24(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_25(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_25(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_26(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_26(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_27(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_27(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_28(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_28(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_29(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_29(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_30(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_30(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_31(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_31(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_32(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_32(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_33(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_33(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_34(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_34(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_35(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_35(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_36(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_36(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_37(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_37(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_38(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_38(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_39(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_39(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_40(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_40(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_41(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_41(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_42(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_42(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_43(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_43(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_44(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_44(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_45(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_45(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_46(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_46(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_47(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_47(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_48(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_48(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_49(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_49(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_50(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_50(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_51(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_51(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_52(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_52(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_53(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_53(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_54(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_54(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_55(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_55(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_56(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_56(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_57(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_57(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_58(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_58(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_59(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_59(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_60(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_60(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_61(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_61(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_62(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_62(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_63(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_63(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_64(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_64(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_65(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_65(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_66(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_66(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_67(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_67(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_68(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_68(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_69(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_69(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_70(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_70(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_71(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_71(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_72(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_72(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_73(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_73(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_74(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_74(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_75(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_75(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_76(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_76(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_77(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_77(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_78(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_78(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_79(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_79(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_80(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_80(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_81(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_81(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_82(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_82(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_83(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_83(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_84(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_84(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_85(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_85(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_86(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_86(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_87(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_87(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_88(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_88(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_89(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_89(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_90(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_90(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_91(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_91(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_92(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_92(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_93(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_93(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_94(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_94(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_95(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_95(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_96(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_96(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_97(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_97(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_98(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_98(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_99(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_99(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_100(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_100(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_101(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_101(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_102(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_102(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_103(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_103(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_104(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_104(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_105(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_105(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_106(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_106(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_107(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_107(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_108(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_108(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_109(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_109(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_110(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_110(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_111(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_111(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_112(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_112(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_113(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_113(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_114(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_114(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_115(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_115(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_116(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_116(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_117(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_117(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_118(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_118(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_119(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_119(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_120(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_120(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_121(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_121(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_122(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_122(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_123(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_123(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_124(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_124(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_125(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_125(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_126(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_126(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_127(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_127(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_128(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_128(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_129(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_129(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_130(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_130(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_131(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_131(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_132(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_132(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_133(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_133(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_134(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_134(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_135(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_135(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_136(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_136(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_137(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_137(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_138(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_138(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_139(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_139(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_140(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_140(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_141(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_141(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_142(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_142(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_143(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_143(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_144(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_144(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_145(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_145(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_146(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_146(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_147(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_147(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_148(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_148(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_149(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_149(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_150(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_150(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_151(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_151(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_152(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_152(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_153(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_153(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_154(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_154(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_155(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_155(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_156(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_156(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_157(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_157(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_158(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_158(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_159(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_159(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_160(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_160(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_161(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_161(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_162(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_162(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_163(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_163(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_164(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_164(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_165(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_165(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_166(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_166(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_167(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_167(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_168(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_168(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_169(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_169(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_170(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_170(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_171(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_171(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_172(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_172(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_173(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_173(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_174(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_174(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_175(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_175(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_176(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_176(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_177(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_177(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_178(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_178(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_179(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_179(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_180(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_180(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_181(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_181(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_182(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_182(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_183(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_183(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_184(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_184(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_185(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_185(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_186(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_186(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_187(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_187(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_188(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_188(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_189(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_189(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_190(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_190(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_191(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_191(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_192(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_192(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_193(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_193(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_194(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_194(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_195(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_195(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_196(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_196(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_197(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_197(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_198(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_198(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %m = vm.add.i32 %n, %c3 : i32
    %r, %q = vm.call @chain_199(%m, %l) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    vm.return %r, %q : i32, !vm.list<i32>
  }
  vm.func private @chain_199(%n: i32, %l: !vm.list<i32>) -> (i32, !vm.list<i32>) attributes {inlining_policy = #util.inline.never} {
    %c3 = vm.const.i32 3
    %r = vm.add.i32 %n, %c3 : i32
    vm.return %r, %l : i32, !vm.list<i32>
  }

  vm.export @test_call_chain_200
  vm.func @test_call_chain_200() {
    %k1 = vm.const.i32 -100
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.list.alloc %x4 : (i32) -> !vm.list<i32>
    %cr, %cl = vm.call @chain_0(%x2, %v5) : (i32, !vm.list<i32>) -> (i32, !vm.list<i32>)
    %k6 = vm.const.i32 500
    vm.check.eq %cr, %k6, "-100 + 200 * 3" : i32
    vm.check.eq %cl, %v5, "the list comes back" : !vm.list<i32>
    vm.return
  }

  vm.func private @fail_deep_inside(%x: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c0 = vm.const.i32 0
    %neg = vm.cmp.lt.i32.s %x, %c0 : i32
    %code = vm.const.i32 11
    vm.cond_fail %neg, %code, "negative"
    vm.return %x : i32
  }

  // an error raised in a callee fails the caller
  vm.export @fail_call_error_propagates
  vm.func @fail_call_error_propagates() {
    %k1 = vm.const.i32 -4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.call @fail_deep_inside(%x2) : (i32) -> i32
    vm.return
  }

  vm.export @test_call_no_error
  vm.func @test_call_no_error() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.call @fail_deep_inside(%x2) : (i32) -> i32
    %k4 = vm.const.i32 4
    vm.check.eq %v3, %k4, "passes through" : i32
    vm.return
  }
}
