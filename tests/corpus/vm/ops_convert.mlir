// Ember VM op conformance: integer truncation and extension between i8, i16,
// i32 and i64. A truncated i8/i16 lives in an i32 register zero-extended (the
// .s/.u ext ops then pick the interpretation). Narrow source values of the ext
// ops carry junk in their upper bits, which must be ignored.
vm.module @ops_convert {
  vm.export @test_trunc_i16_i8
  vm.func @test_trunc_i16_i8() {
    %k1 = vm.const.i32 511
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.trunc.i16.i8 %x2 : i32 -> i32
    %k4 = vm.const.i32 255
    vm.check.eq %v3, %k4, "trunc.i16.i8(511)" : i32
    %k5 = vm.const.i32 32640
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.trunc.i16.i8 %x6 : i32 -> i32
    %k8 = vm.const.i32 128
    vm.check.eq %v7, %k8, "trunc.i16.i8(32640)" : i32
    %k9 = vm.const.i32 -1
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.trunc.i16.i8 %x10 : i32 -> i32
    %k12 = vm.const.i32 255
    vm.check.eq %v11, %k12, "trunc.i16.i8(-1)" : i32
    %k13 = vm.const.i32 4660
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.trunc.i16.i8 %x14 : i32 -> i32
    %k16 = vm.const.i32 52
    vm.check.eq %v15, %k16, "trunc.i16.i8(4660)" : i32
    vm.return
  }

  vm.export @test_trunc_i32_i8
  vm.func @test_trunc_i32_i8() {
    %k1 = vm.const.i32 305419904
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.trunc.i32.i8 %x2 : i32 -> i32
    %k4 = vm.const.i32 128
    vm.check.eq %v3, %k4, "trunc.i32.i8(305419904)" : i32
    %k5 = vm.const.i32 -1
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.trunc.i32.i8 %x6 : i32 -> i32
    %k8 = vm.const.i32 255
    vm.check.eq %v7, %k8, "trunc.i32.i8(-1)" : i32
    %k9 = vm.const.i32 127
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.trunc.i32.i8 %x10 : i32 -> i32
    %k12 = vm.const.i32 127
    vm.check.eq %v11, %k12, "trunc.i32.i8(127)" : i32
    %k13 = vm.const.i32 300
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.trunc.i32.i8 %x14 : i32 -> i32
    %k16 = vm.const.i32 44
    vm.check.eq %v15, %k16, "trunc.i32.i8(300)" : i32
    %k17 = vm.const.i32 -128
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.trunc.i32.i8 %x18 : i32 -> i32
    %k20 = vm.const.i32 128
    vm.check.eq %v19, %k20, "trunc.i32.i8(-128)" : i32
    vm.return
  }

  vm.export @test_trunc_i32_i16
  vm.func @test_trunc_i32_i16() {
    %k1 = vm.const.i32 305430529
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.trunc.i32.i16 %x2 : i32 -> i32
    %k4 = vm.const.i32 32769
    vm.check.eq %v3, %k4, "trunc.i32.i16(305430529)" : i32
    %k5 = vm.const.i32 -1
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.trunc.i32.i16 %x6 : i32 -> i32
    %k8 = vm.const.i32 65535
    vm.check.eq %v7, %k8, "trunc.i32.i16(-1)" : i32
    %k9 = vm.const.i32 32767
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.trunc.i32.i16 %x10 : i32 -> i32
    %k12 = vm.const.i32 32767
    vm.check.eq %v11, %k12, "trunc.i32.i16(32767)" : i32
    %k13 = vm.const.i32 70000
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.trunc.i32.i16 %x14 : i32 -> i32
    %k16 = vm.const.i32 4464
    vm.check.eq %v15, %k16, "trunc.i32.i16(70000)" : i32
    vm.return
  }

  vm.export @test_trunc_i64_i8
  vm.func @test_trunc_i64_i8() {
    %k1 = vm.const.i64 1234605616436508552
    %x2 = vm.optimization_barrier %k1 : i64
    %v3 = vm.trunc.i64.i8 %x2 : i64 -> i32
    %k4 = vm.const.i32 136
    vm.check.eq %v3, %k4, "trunc.i64.i8(1234605616436508552)" : i32
    %k5 = vm.const.i64 -1
    %x6 = vm.optimization_barrier %k5 : i64
    %v7 = vm.trunc.i64.i8 %x6 : i64 -> i32
    %k8 = vm.const.i32 255
    vm.check.eq %v7, %k8, "trunc.i64.i8(-1)" : i32
    %k9 = vm.const.i64 4294967425
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.trunc.i64.i8 %x10 : i64 -> i32
    %k12 = vm.const.i32 129
    vm.check.eq %v11, %k12, "trunc.i64.i8(4294967425)" : i32
    vm.return
  }

  vm.export @test_trunc_i64_i16
  vm.func @test_trunc_i64_i16() {
    %k1 = vm.const.i64 1234605616436512921
    %x2 = vm.optimization_barrier %k1 : i64
    %v3 = vm.trunc.i64.i16 %x2 : i64 -> i32
    %k4 = vm.const.i32 34969
    vm.check.eq %v3, %k4, "trunc.i64.i16(1234605616436512921)" : i32
    %k5 = vm.const.i64 -1
    %x6 = vm.optimization_barrier %k5 : i64
    %v7 = vm.trunc.i64.i16 %x6 : i64 -> i32
    %k8 = vm.const.i32 65535
    vm.check.eq %v7, %k8, "trunc.i64.i16(-1)" : i32
    %k9 = vm.const.i64 4295000063
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.trunc.i64.i16 %x10 : i64 -> i32
    %k12 = vm.const.i32 32767
    vm.check.eq %v11, %k12, "trunc.i64.i16(4295000063)" : i32
    vm.return
  }

  vm.export @test_trunc_i64_i32
  vm.func @test_trunc_i64_i32() {
    %k1 = vm.const.i64 1234605617151213569
    %x2 = vm.optimization_barrier %k1 : i64
    %v3 = vm.trunc.i64.i32 %x2 : i64 -> i32
    %k4 = vm.const.i32 -2147483647
    vm.check.eq %v3, %k4, "trunc.i64.i32(1234605617151213569)" : i32
    %k5 = vm.const.i64 -1
    %x6 = vm.optimization_barrier %k5 : i64
    %v7 = vm.trunc.i64.i32 %x6 : i64 -> i32
    %k8 = vm.const.i32 -1
    vm.check.eq %v7, %k8, "trunc.i64.i32(-1)" : i32
    %k9 = vm.const.i64 4294967296
    %x10 = vm.optimization_barrier %k9 : i64
    %v11 = vm.trunc.i64.i32 %x10 : i64 -> i32
    %k12 = vm.const.i32 0
    vm.check.eq %v11, %k12, "trunc.i64.i32(4294967296)" : i32
    %k13 = vm.const.i64 4294967301
    %x14 = vm.optimization_barrier %k13 : i64
    %v15 = vm.trunc.i64.i32 %x14 : i64 -> i32
    %k16 = vm.const.i32 5
    vm.check.eq %v15, %k16, "trunc.i64.i32(4294967301)" : i32
    %k17 = vm.const.i64 2147483647
    %x18 = vm.optimization_barrier %k17 : i64
    %v19 = vm.trunc.i64.i32 %x18 : i64 -> i32
    %k20 = vm.const.i32 2147483647
    vm.check.eq %v19, %k20, "trunc.i64.i32(2147483647)" : i32
    vm.return
  }

  vm.export @test_ext_i8_i32_s
  vm.func @test_ext_i8_i32_s() {
    %k1 = vm.const.i32 128
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i8.i32.s %x2 : i32 -> i32
    %k4 = vm.const.i32 -128
    vm.check.eq %v3, %k4, "ext.i8.i32.s(128)" : i32
    %k5 = vm.const.i32 127
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i8.i32.s %x6 : i32 -> i32
    %k8 = vm.const.i32 127
    vm.check.eq %v7, %k8, "ext.i8.i32.s(127)" : i32
    %k9 = vm.const.i32 511
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i8.i32.s %x10 : i32 -> i32
    %k12 = vm.const.i32 -1
    vm.check.eq %v11, %k12, "ext.i8.i32.s(511)" : i32
    %k13 = vm.const.i32 -2
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i8.i32.s %x14 : i32 -> i32
    %k16 = vm.const.i32 -2
    vm.check.eq %v15, %k16, "ext.i8.i32.s(-2)" : i32
    %k17 = vm.const.i32 305419903
    %x18 = vm.optimization_barrier %k17 : i32
    %v19 = vm.ext.i8.i32.s %x18 : i32 -> i32
    %k20 = vm.const.i32 127
    vm.check.eq %v19, %k20, "ext.i8.i32.s(305419903)" : i32
    vm.return
  }

  vm.export @test_ext_i8_i32_u
  vm.func @test_ext_i8_i32_u() {
    %k1 = vm.const.i32 128
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i8.i32.u %x2 : i32 -> i32
    %k4 = vm.const.i32 128
    vm.check.eq %v3, %k4, "ext.i8.i32.u(128)" : i32
    %k5 = vm.const.i32 127
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i8.i32.u %x6 : i32 -> i32
    %k8 = vm.const.i32 127
    vm.check.eq %v7, %k8, "ext.i8.i32.u(127)" : i32
    %k9 = vm.const.i32 511
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i8.i32.u %x10 : i32 -> i32
    %k12 = vm.const.i32 255
    vm.check.eq %v11, %k12, "ext.i8.i32.u(511)" : i32
    %k13 = vm.const.i32 -2
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i8.i32.u %x14 : i32 -> i32
    %k16 = vm.const.i32 254
    vm.check.eq %v15, %k16, "ext.i8.i32.u(-2)" : i32
    vm.return
  }

  vm.export @test_ext_i16_i32_s
  vm.func @test_ext_i16_i32_s() {
    %k1 = vm.const.i32 32768
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i16.i32.s %x2 : i32 -> i32
    %k4 = vm.const.i32 -32768
    vm.check.eq %v3, %k4, "ext.i16.i32.s(32768)" : i32
    %k5 = vm.const.i32 32767
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i16.i32.s %x6 : i32 -> i32
    %k8 = vm.const.i32 32767
    vm.check.eq %v7, %k8, "ext.i16.i32.s(32767)" : i32
    %k9 = vm.const.i32 131071
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i16.i32.s %x10 : i32 -> i32
    %k12 = vm.const.i32 -1
    vm.check.eq %v11, %k12, "ext.i16.i32.s(131071)" : i32
    %k13 = vm.const.i32 -2
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i16.i32.s %x14 : i32 -> i32
    %k16 = vm.const.i32 -2
    vm.check.eq %v15, %k16, "ext.i16.i32.s(-2)" : i32
    vm.return
  }

  vm.export @test_ext_i16_i32_u
  vm.func @test_ext_i16_i32_u() {
    %k1 = vm.const.i32 32768
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i16.i32.u %x2 : i32 -> i32
    %k4 = vm.const.i32 32768
    vm.check.eq %v3, %k4, "ext.i16.i32.u(32768)" : i32
    %k5 = vm.const.i32 32767
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i16.i32.u %x6 : i32 -> i32
    %k8 = vm.const.i32 32767
    vm.check.eq %v7, %k8, "ext.i16.i32.u(32767)" : i32
    %k9 = vm.const.i32 131071
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i16.i32.u %x10 : i32 -> i32
    %k12 = vm.const.i32 65535
    vm.check.eq %v11, %k12, "ext.i16.i32.u(131071)" : i32
    %k13 = vm.const.i32 -2
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i16.i32.u %x14 : i32 -> i32
    %k16 = vm.const.i32 65534
    vm.check.eq %v15, %k16, "ext.i16.i32.u(-2)" : i32
    vm.return
  }

  vm.export @test_ext_i8_i64_s
  vm.func @test_ext_i8_i64_s() {
    %k1 = vm.const.i32 128
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i8.i64.s %x2 : i32 -> i64
    %k4 = vm.const.i64 -128
    vm.check.eq %v3, %k4, "ext.i8.i64.s(128)" : i64
    %k5 = vm.const.i32 127
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i8.i64.s %x6 : i32 -> i64
    %k8 = vm.const.i64 127
    vm.check.eq %v7, %k8, "ext.i8.i64.s(127)" : i64
    %k9 = vm.const.i32 1022
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i8.i64.s %x10 : i32 -> i64
    %k12 = vm.const.i64 -2
    vm.check.eq %v11, %k12, "ext.i8.i64.s(1022)" : i64
    %k13 = vm.const.i32 -2
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i8.i64.s %x14 : i32 -> i64
    %k16 = vm.const.i64 -2
    vm.check.eq %v15, %k16, "ext.i8.i64.s(-2)" : i64
    vm.return
  }

  vm.export @test_ext_i8_i64_u
  vm.func @test_ext_i8_i64_u() {
    %k1 = vm.const.i32 128
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i8.i64.u %x2 : i32 -> i64
    %k4 = vm.const.i64 128
    vm.check.eq %v3, %k4, "ext.i8.i64.u(128)" : i64
    %k5 = vm.const.i32 127
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i8.i64.u %x6 : i32 -> i64
    %k8 = vm.const.i64 127
    vm.check.eq %v7, %k8, "ext.i8.i64.u(127)" : i64
    %k9 = vm.const.i32 1022
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i8.i64.u %x10 : i32 -> i64
    %k12 = vm.const.i64 254
    vm.check.eq %v11, %k12, "ext.i8.i64.u(1022)" : i64
    %k13 = vm.const.i32 -2
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i8.i64.u %x14 : i32 -> i64
    %k16 = vm.const.i64 254
    vm.check.eq %v15, %k16, "ext.i8.i64.u(-2)" : i64
    vm.return
  }

  vm.export @test_ext_i16_i64_s
  vm.func @test_ext_i16_i64_s() {
    %k1 = vm.const.i32 32768
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i16.i64.s %x2 : i32 -> i64
    %k4 = vm.const.i64 -32768
    vm.check.eq %v3, %k4, "ext.i16.i64.s(32768)" : i64
    %k5 = vm.const.i32 32767
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i16.i64.s %x6 : i32 -> i64
    %k8 = vm.const.i64 32767
    vm.check.eq %v7, %k8, "ext.i16.i64.s(32767)" : i64
    %k9 = vm.const.i32 196606
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i16.i64.s %x10 : i32 -> i64
    %k12 = vm.const.i64 -2
    vm.check.eq %v11, %k12, "ext.i16.i64.s(196606)" : i64
    %k13 = vm.const.i32 -2
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i16.i64.s %x14 : i32 -> i64
    %k16 = vm.const.i64 -2
    vm.check.eq %v15, %k16, "ext.i16.i64.s(-2)" : i64
    vm.return
  }

  vm.export @test_ext_i16_i64_u
  vm.func @test_ext_i16_i64_u() {
    %k1 = vm.const.i32 32768
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i16.i64.u %x2 : i32 -> i64
    %k4 = vm.const.i64 32768
    vm.check.eq %v3, %k4, "ext.i16.i64.u(32768)" : i64
    %k5 = vm.const.i32 32767
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i16.i64.u %x6 : i32 -> i64
    %k8 = vm.const.i64 32767
    vm.check.eq %v7, %k8, "ext.i16.i64.u(32767)" : i64
    %k9 = vm.const.i32 196606
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i16.i64.u %x10 : i32 -> i64
    %k12 = vm.const.i64 65534
    vm.check.eq %v11, %k12, "ext.i16.i64.u(196606)" : i64
    %k13 = vm.const.i32 -2
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i16.i64.u %x14 : i32 -> i64
    %k16 = vm.const.i64 65534
    vm.check.eq %v15, %k16, "ext.i16.i64.u(-2)" : i64
    vm.return
  }

  vm.export @test_ext_i32_i64_s
  vm.func @test_ext_i32_i64_s() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i32.i64.s %x2 : i32 -> i64
    %k4 = vm.const.i64 -1
    vm.check.eq %v3, %k4, "ext.i32.i64.s(-1)" : i64
    %k5 = vm.const.i32 2147483647
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i32.i64.s %x6 : i32 -> i64
    %k8 = vm.const.i64 2147483647
    vm.check.eq %v7, %k8, "ext.i32.i64.s(2147483647)" : i64
    %k9 = vm.const.i32 -2147483648
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i32.i64.s %x10 : i32 -> i64
    %k12 = vm.const.i64 -2147483648
    vm.check.eq %v11, %k12, "ext.i32.i64.s(-2147483648)" : i64
    %k13 = vm.const.i32 12345
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i32.i64.s %x14 : i32 -> i64
    %k16 = vm.const.i64 12345
    vm.check.eq %v15, %k16, "ext.i32.i64.s(12345)" : i64
    vm.return
  }

  vm.export @test_ext_i32_i64_u
  vm.func @test_ext_i32_i64_u() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.ext.i32.i64.u %x2 : i32 -> i64
    %k4 = vm.const.i64 4294967295
    vm.check.eq %v3, %k4, "ext.i32.i64.u(-1)" : i64
    %k5 = vm.const.i32 2147483647
    %x6 = vm.optimization_barrier %k5 : i32
    %v7 = vm.ext.i32.i64.u %x6 : i32 -> i64
    %k8 = vm.const.i64 2147483647
    vm.check.eq %v7, %k8, "ext.i32.i64.u(2147483647)" : i64
    %k9 = vm.const.i32 -2147483648
    %x10 = vm.optimization_barrier %k9 : i32
    %v11 = vm.ext.i32.i64.u %x10 : i32 -> i64
    %k12 = vm.const.i64 2147483648
    vm.check.eq %v11, %k12, "ext.i32.i64.u(-2147483648)" : i64
    %k13 = vm.const.i32 12345
    %x14 = vm.optimization_barrier %k13 : i32
    %v15 = vm.ext.i32.i64.u %x14 : i32 -> i64
    %k16 = vm.const.i64 12345
    vm.check.eq %v15, %k16, "ext.i32.i64.u(12345)" : i64
    vm.return
  }

  // trunc then ext recovers small values and sign-extends the rest
  vm.export @test_trunc_ext_round_trip
  vm.func @test_trunc_ext_round_trip() {
    %k1 = vm.const.i32 -100
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.trunc.i32.i8 %x2 : i32 -> i32
    %v4 = vm.ext.i8.i64.s %v3 : i32 -> i64
    %k5 = vm.const.i64 -100
    vm.check.eq %v4, %k5, "ext.s(trunc.i8(-100))" : i64
    %v6 = vm.ext.i8.i32.u %v3 : i32 -> i32
    %k7 = vm.const.i32 156
    vm.check.eq %v6, %k7, "ext.u(trunc.i8(-100))" : i32
    %k8 = vm.const.i32 100
    %x9 = vm.optimization_barrier %k8 : i32
    %v10 = vm.trunc.i32.i8 %x9 : i32 -> i32
    %v11 = vm.ext.i8.i64.s %v10 : i32 -> i64
    %k12 = vm.const.i64 100
    vm.check.eq %v11, %k12, "ext.s(trunc.i8(100))" : i64
    %v13 = vm.ext.i8.i32.u %v10 : i32 -> i32
    %k14 = vm.const.i32 100
    vm.check.eq %v13, %k14, "ext.u(trunc.i8(100))" : i32
    %k15 = vm.const.i32 -30000
    %x16 = vm.optimization_barrier %k15 : i32
    %v17 = vm.trunc.i32.i16 %x16 : i32 -> i32
    %v18 = vm.ext.i16.i64.s %v17 : i32 -> i64
    %k19 = vm.const.i64 -30000
    vm.check.eq %v18, %k19, "ext.s(trunc.i16(-30000))" : i64
    %v20 = vm.ext.i16.i32.u %v17 : i32 -> i32
    %k21 = vm.const.i32 35536
    vm.check.eq %v20, %k21, "ext.u(trunc.i16(-30000))" : i32
    %k22 = vm.const.i32 40000
    %x23 = vm.optimization_barrier %k22 : i32
    %v24 = vm.trunc.i32.i16 %x23 : i32 -> i32
    %v25 = vm.ext.i16.i64.s %v24 : i32 -> i64
    %k26 = vm.const.i64 -25536
    vm.check.eq %v25, %k26, "ext.s(trunc.i16(40000))" : i64
    %v27 = vm.ext.i16.i32.u %v24 : i32 -> i32
    %k28 = vm.const.i32 40000
    vm.check.eq %v27, %k28, "ext.u(trunc.i16(40000))" : i32
    %k29 = vm.const.i64 -8589934595
    %x30 = vm.optimization_barrier %k29 : i64
    %v31 = vm.trunc.i64.i32 %x30 : i64 -> i32
    %v32 = vm.ext.i32.i64.u %v31 : i32 -> i64
    %k33 = vm.const.i64 4294967293
    vm.check.eq %v32, %k33, "ext.u(trunc.i32(-(2^33)-3))" : i64
    vm.return
  }
}
