// Ember VM op conformance: globals. i32/i64/f32/f64 globals with and without
// initial values (rwdata addressed by byte offset), ref globals (by ordinal),
// vm.initializer functions run in order at load, stores from a callee, and a
// fresh context per test. (Indirect global access is not covered: iree-compile
// folds vm.global.address into direct access or refuses to serialize it.)
vm.module @ops_globals {
  vm.global.i32 private mutable @g_i32 = 123456 : i32
  vm.global.i64 private mutable @g_i64 = 0x123456789ABC : i64
  vm.global.f32 private mutable @g_f32 = -6.5 : f32
  vm.global.f64 private mutable @g_f64 = 1.0e200 : f64
  vm.global.i32 private mutable @g_i32_zero : i32
  vm.global.i64 private mutable @g_i64_zero : i64
  vm.global.f32 private mutable @g_f32_zero : f32
  vm.global.f64 private mutable @g_f64_zero : f64
  vm.global.ref private mutable @g_buf : !vm.buffer
  vm.global.ref private mutable @g_list : !vm.list<i32>
  vm.global.i32 private mutable @g_by_init : i32
  vm.global.i64 private mutable @g_by_init64 : i64
  vm.global.ref private mutable @g_list_by_init : !vm.list<i32>
  // Two initializers run in order at module load.
  vm.initializer {
    %c = vm.const.i32 4242
    vm.global.store.i32 %c, @g_by_init : i32
    %w = vm.const.i64 -0x500000001
    vm.global.store.i64 %w, @g_by_init64 : i64
    %n = vm.const.i32 3
    %l = vm.list.alloc %n : (i32) -> !vm.list<i32>
    vm.list.resize %l, %n : (!vm.list<i32>, i32)
    %i = vm.const.i32 2
    %v = vm.const.i32 99
    vm.list.set.i32 %l, %i, %v : (!vm.list<i32>, i32, i32)
    vm.global.store.ref %l, @g_list_by_init : !vm.list<i32>
    vm.return
  }
  vm.initializer {
    %a = vm.global.load.i32 @g_by_init : i32
    %c = vm.const.i32 1
    %b = vm.add.i32 %a, %c : i32
    vm.global.store.i32 %b, @g_by_init : i32
    vm.return
  }
  // Stores through a separate, non-inlined function.
  vm.func private @store_all(%a: i32, %b: f32, %r: !vm.buffer) attributes {inlining_policy = #util.inline.never} {
    vm.global.store.i32 %a, @g_i32 : i32
    vm.global.store.f32 %b, @g_f32 : f32
    vm.global.store.ref %r, @g_buf : !vm.buffer
    vm.return
  }
  // initial values from the module's rwdata, zero where none is given
  vm.export @test_global_initial_values
  vm.func @test_global_initial_values() {
    %v1 = vm.global.load.i32 @g_i32 : i32
    %k2 = vm.const.i32 123456
    vm.check.eq %v1, %k2, "@g_i32" : i32
    %v3 = vm.global.load.i64 @g_i64 : i64
    %k4 = vm.const.i64 20015998343868
    vm.check.eq %v3, %k4, "@g_i64" : i64
    %v5 = vm.global.load.f32 @g_f32 : f32
    %k6 = vm.const.f32 0xC0D00000
    vm.check.eq %v5, %k6, "@g_f32" : f32
    %v7 = vm.global.load.f64 @g_f64 : f64
    %k8 = vm.const.f64 0x6974E718D7D7625A
    vm.check.eq %v7, %k8, "@g_f64" : f64
    %v9 = vm.global.load.i32 @g_i32_zero : i32
    %k10 = vm.const.i32 0
    vm.check.eq %v9, %k10, "@g_i32_zero" : i32
    %v11 = vm.global.load.i64 @g_i64_zero : i64
    %k12 = vm.const.i64 0
    vm.check.eq %v11, %k12, "@g_i64_zero" : i64
    %v13 = vm.global.load.f32 @g_f32_zero : f32
    %k14 = vm.const.f32 0x00000000
    vm.check.eq %v13, %k14, "@g_f32_zero" : f32
    %v15 = vm.global.load.f64 @g_f64_zero : f64
    %k16 = vm.const.f64 0x0000000000000000
    vm.check.eq %v15, %k16, "@g_f64_zero" : f64
    %v17 = vm.global.load.ref @g_buf : !vm.buffer
    %v18 = vm.cmp.nz.ref %v17 : !vm.buffer
    %k19 = vm.const.i32 0
    vm.check.eq %v18, %k19, "@g_buf starts null" : i32
    vm.return
  }

  // store then load every type; neighbours stay untouched
  vm.export @test_global_store_load
  vm.func @test_global_store_load() {
    %k1 = vm.const.i32 -77
    %x2 = vm.optimization_barrier %k1 : i32
    vm.global.store.i32 %x2, @g_i32 : i32
    %k3 = vm.const.i64 -1125899906842623
    %x4 = vm.optimization_barrier %k3 : i64
    vm.global.store.i64 %x4, @g_i64 : i64
    %k5 = vm.const.f32 0x40500000
    %x6 = vm.optimization_barrier %k5 : f32
    vm.global.store.f32 %x6, @g_f32 : f32
    %k7 = vm.const.f64 0x96687E92154EF7AC
    %x8 = vm.optimization_barrier %k7 : f64
    vm.global.store.f64 %x8, @g_f64 : f64
    %v9 = vm.global.load.i32 @g_i32 : i32
    %k10 = vm.const.i32 -77
    vm.check.eq %v9, %k10, "@g_i32 after stores" : i32
    %v11 = vm.global.load.i64 @g_i64 : i64
    %k12 = vm.const.i64 -1125899906842623
    vm.check.eq %v11, %k12, "@g_i64 after stores" : i64
    %v13 = vm.global.load.f32 @g_f32 : f32
    %k14 = vm.const.f32 0x40500000
    vm.check.eq %v13, %k14, "@g_f32 after stores" : f32
    %v15 = vm.global.load.f64 @g_f64 : f64
    %k16 = vm.const.f64 0x96687E92154EF7AC
    vm.check.eq %v15, %k16, "@g_f64 after stores" : f64
    %v17 = vm.global.load.i32 @g_i32_zero : i32
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "@g_i32_zero after stores" : i32
    %v19 = vm.global.load.i64 @g_i64_zero : i64
    %k20 = vm.const.i64 0
    vm.check.eq %v19, %k20, "@g_i64_zero after stores" : i64
    %v21 = vm.global.load.f32 @g_f32_zero : f32
    %k22 = vm.const.f32 0x00000000
    vm.check.eq %v21, %k22, "@g_f32_zero after stores" : f32
    %v23 = vm.global.load.f64 @g_f64_zero : f64
    %k24 = vm.const.f64 0x0000000000000000
    vm.check.eq %v23, %k24, "@g_f64_zero after stores" : f64
    vm.return
  }

  // a ref global keeps its object alive; storing null clears it
  vm.export @test_global_ref
  vm.func @test_global_ref() {
    %k1 = vm.const.i64 16
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 4
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    vm.global.store.ref %v5, @g_buf : !vm.buffer
    %v6 = vm.global.load.ref @g_buf : !vm.buffer
    vm.check.eq %v6, %v5, "same buffer back" : !vm.buffer
    %v7 = vm.buffer.length %v6 : !vm.buffer -> i64
    %k8 = vm.const.i64 16
    vm.check.eq %v7, %k8, "length through the global" : i64
    %n9 = vm.const.ref.zero : !vm.buffer
    %x10 = vm.optimization_barrier %n9 : !vm.buffer
    vm.global.store.ref %x10, @g_buf : !vm.buffer
    %v11 = vm.global.load.ref @g_buf : !vm.buffer
    %v12 = vm.cmp.nz.ref %v11 : !vm.buffer
    %k13 = vm.const.i32 0
    vm.check.eq %v12, %k13, "null after clearing" : i32
    vm.return
  }

  // vm.initializer bodies run in order when the module is loaded
  vm.export @test_global_initializers
  vm.func @test_global_initializers() {
    %v1 = vm.global.load.i32 @g_by_init : i32
    %k2 = vm.const.i32 4243
    vm.check.eq %v1, %k2, "first initializer then second" : i32
    %v3 = vm.global.load.i64 @g_by_init64 : i64
    %k4 = vm.const.i64 -21474836481
    vm.check.eq %v3, %k4, "i64 from initializer" : i64
    %v5 = vm.global.load.ref @g_list_by_init : !vm.list<i32>
    %v6 = vm.list.size %v5 : (!vm.list<i32>) -> i32
    %k7 = vm.const.i32 3
    vm.check.eq %v6, %k7, "list size" : i32
    %k8 = vm.const.i32 2
    %x9 = vm.optimization_barrier %k8 : i32
    %v10 = vm.list.get.i32 %v5, %x9 : (!vm.list<i32>, i32) -> i32
    %k11 = vm.const.i32 99
    vm.check.eq %v10, %k11, "list[2]" : i32
    vm.return
  }

  // a callee's global stores are seen by the caller
  vm.export @test_global_store_in_callee
  vm.func @test_global_store_in_callee() {
    %k1 = vm.const.i32 31337
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.f32 0x3F400000
    %x4 = vm.optimization_barrier %k3 : f32
    %k5 = vm.const.i64 3
    %x6 = vm.optimization_barrier %k5 : i64
    %k7 = vm.const.i32 1
    %x8 = vm.optimization_barrier %k7 : i32
    %v9 = vm.buffer.alloc %x6, %x8 : !vm.buffer
    vm.call @store_all(%x2, %x4, %v9) : (i32, f32, !vm.buffer) -> ()
    %v10 = vm.global.load.i32 @g_i32 : i32
    %k11 = vm.const.i32 31337
    vm.check.eq %v10, %k11, "@g_i32" : i32
    %v12 = vm.global.load.f32 @g_f32 : f32
    %k13 = vm.const.f32 0x3F400000
    vm.check.eq %v12, %k13, "@g_f32" : f32
    %v14 = vm.global.load.ref @g_buf : !vm.buffer
    vm.check.eq %v14, %v9, "@g_buf" : !vm.buffer
    %v15 = vm.global.load.i64 @g_i64 : i64
    %k16 = vm.const.i64 20015998343868
    vm.check.eq %v15, %k16, "@g_i64 untouched" : i64
    vm.return
  }

  // a fresh context starts from the initial values again (the stores of other tests are gone)
  vm.export @test_global_fresh_context
  vm.func @test_global_fresh_context() {
    %v1 = vm.global.load.i32 @g_i32 : i32
    %k2 = vm.const.i32 123456
    vm.check.eq %v1, %k2, "@g_i32" : i32
    %v3 = vm.global.load.ref @g_list : !vm.list<i32>
    %v4 = vm.cmp.nz.ref %v3 : !vm.list<i32>
    %k5 = vm.const.i32 0
    vm.check.eq %v4, %k5, "@g_list null" : i32
    vm.return
  }

  // a wrong expectation about a global must fail
  vm.export @fail_global_check
  vm.func @fail_global_check() {
    %v1 = vm.global.load.i64 @g_i64 : i64
    %k2 = vm.const.i64 20015998343869
    vm.check.eq %v1, %k2, "off by one" : i64
    vm.return
  }
}
