// Ember VM op conformance: vm.list. Lists of i8/i16/i32/i64/f32/f64 (values
// are stored at the element width: get/set convert, narrow ints sign-extend on
// get), typed ref lists, variant lists (vm.list<?>), nested lists, resize
// growing (zero/null fill) and shrinking, reserve, get.ref with a mismatched
// type (null), and out-of-range indices (fail_*).
vm.module @ops_lists {
  // alloc gives size 0; resize grows with zeros and shrinks; reserve leaves the size alone
  vm.export @test_list_size_resize
  vm.func @test_list_size_resize() {
    %k1 = vm.const.i32 2
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i32>
    %v4 = vm.list.size %v3 : (!vm.list<i32>) -> i32
    %k5 = vm.const.i32 0
    vm.check.eq %v4, %k5, "new list is empty" : i32
    %k6 = vm.const.i32 50
    %x7 = vm.optimization_barrier %k6 : i32
    vm.list.reserve %v3, %x7 : (!vm.list<i32>, i32)
    %v8 = vm.list.size %v3 : (!vm.list<i32>) -> i32
    %k9 = vm.const.i32 0
    vm.check.eq %v8, %k9, "reserve keeps size" : i32
    %k10 = vm.const.i32 5
    %x11 = vm.optimization_barrier %k10 : i32
    vm.list.resize %v3, %x11 : (!vm.list<i32>, i32)
    %v12 = vm.list.size %v3 : (!vm.list<i32>) -> i32
    %k13 = vm.const.i32 5
    vm.check.eq %v12, %k13, "grown to 5" : i32
    %k14 = vm.const.i32 0
    %x15 = vm.optimization_barrier %k14 : i32
    %k16 = vm.const.i32 1
    %x17 = vm.optimization_barrier %k16 : i32
    vm.list.set.i32 %v3, %x15, %x17 : (!vm.list<i32>, i32, i32)
    %k18 = vm.const.i32 1
    %x19 = vm.optimization_barrier %k18 : i32
    %k20 = vm.const.i32 11
    %x21 = vm.optimization_barrier %k20 : i32
    vm.list.set.i32 %v3, %x19, %x21 : (!vm.list<i32>, i32, i32)
    %k22 = vm.const.i32 2
    %x23 = vm.optimization_barrier %k22 : i32
    %k24 = vm.const.i32 21
    %x25 = vm.optimization_barrier %k24 : i32
    vm.list.set.i32 %v3, %x23, %x25 : (!vm.list<i32>, i32, i32)
    %k26 = vm.const.i32 3
    %x27 = vm.optimization_barrier %k26 : i32
    %k28 = vm.const.i32 31
    %x29 = vm.optimization_barrier %k28 : i32
    vm.list.set.i32 %v3, %x27, %x29 : (!vm.list<i32>, i32, i32)
    %k30 = vm.const.i32 4
    %x31 = vm.optimization_barrier %k30 : i32
    %k32 = vm.const.i32 41
    %x33 = vm.optimization_barrier %k32 : i32
    vm.list.set.i32 %v3, %x31, %x33 : (!vm.list<i32>, i32, i32)
    %k34 = vm.const.i32 2
    %x35 = vm.optimization_barrier %k34 : i32
    vm.list.resize %v3, %x35 : (!vm.list<i32>, i32)
    %v36 = vm.list.size %v3 : (!vm.list<i32>) -> i32
    %k37 = vm.const.i32 2
    vm.check.eq %v36, %k37, "shrunk to 2" : i32
    %k38 = vm.const.i32 4
    %x39 = vm.optimization_barrier %k38 : i32
    vm.list.resize %v3, %x39 : (!vm.list<i32>, i32)
    %k40 = vm.const.i32 0
    %x41 = vm.optimization_barrier %k40 : i32
    %v42 = vm.list.get.i32 %v3, %x41 : (!vm.list<i32>, i32) -> i32
    %k43 = vm.const.i32 1
    vm.check.eq %v42, %k43, "[0] after shrink+grow" : i32
    %k44 = vm.const.i32 1
    %x45 = vm.optimization_barrier %k44 : i32
    %v46 = vm.list.get.i32 %v3, %x45 : (!vm.list<i32>, i32) -> i32
    %k47 = vm.const.i32 11
    vm.check.eq %v46, %k47, "[1] after shrink+grow" : i32
    %k48 = vm.const.i32 2
    %x49 = vm.optimization_barrier %k48 : i32
    %v50 = vm.list.get.i32 %v3, %x49 : (!vm.list<i32>, i32) -> i32
    %k51 = vm.const.i32 0
    vm.check.eq %v50, %k51, "[2] after shrink+grow" : i32
    %k52 = vm.const.i32 3
    %x53 = vm.optimization_barrier %k52 : i32
    %v54 = vm.list.get.i32 %v3, %x53 : (!vm.list<i32>, i32) -> i32
    %k55 = vm.const.i32 0
    vm.check.eq %v54, %k55, "[3] after shrink+grow" : i32
    vm.return
  }

  // values are stored at the element width and converted on get/set
  vm.export @test_list_i8
  vm.func @test_list_i8() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i8>
    %k4 = vm.const.i32 5
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<i8>, i32)
    %k6 = vm.const.i32 0
    %x7 = vm.optimization_barrier %k6 : i32
    %k8 = vm.const.i32 100
    %x9 = vm.optimization_barrier %k8 : i32
    vm.list.set.i32 %v3, %x7, %x9 : (!vm.list<i8>, i32, i32)
    %k10 = vm.const.i32 1
    %x11 = vm.optimization_barrier %k10 : i32
    %k12 = vm.const.i32 200
    %x13 = vm.optimization_barrier %k12 : i32
    vm.list.set.i32 %v3, %x11, %x13 : (!vm.list<i8>, i32, i32)
    %k14 = vm.const.i32 2
    %x15 = vm.optimization_barrier %k14 : i32
    %k16 = vm.const.i32 300
    %x17 = vm.optimization_barrier %k16 : i32
    vm.list.set.i32 %v3, %x15, %x17 : (!vm.list<i8>, i32, i32)
    %k18 = vm.const.i32 3
    %x19 = vm.optimization_barrier %k18 : i32
    %k20 = vm.const.i32 -1
    %x21 = vm.optimization_barrier %k20 : i32
    vm.list.set.i32 %v3, %x19, %x21 : (!vm.list<i8>, i32, i32)
    %k22 = vm.const.i32 4
    %x23 = vm.optimization_barrier %k22 : i32
    %k24 = vm.const.i64 511
    %x25 = vm.optimization_barrier %k24 : i64
    vm.list.set.i64 %v3, %x23, %x25 : (!vm.list<i8>, i32, i64)
    %k26 = vm.const.i32 0
    %x27 = vm.optimization_barrier %k26 : i32
    %v28 = vm.list.get.i32 %v3, %x27 : (!vm.list<i8>, i32) -> i32
    %k29 = vm.const.i32 100
    vm.check.eq %v28, %k29, "list<i8>[0] set.i32 100 get.i32" : i32
    %k30 = vm.const.i32 1
    %x31 = vm.optimization_barrier %k30 : i32
    %v32 = vm.list.get.i32 %v3, %x31 : (!vm.list<i8>, i32) -> i32
    %k33 = vm.const.i32 -56
    vm.check.eq %v32, %k33, "list<i8>[1] set.i32 200 get.i32" : i32
    %k34 = vm.const.i32 2
    %x35 = vm.optimization_barrier %k34 : i32
    %v36 = vm.list.get.i32 %v3, %x35 : (!vm.list<i8>, i32) -> i32
    %k37 = vm.const.i32 44
    vm.check.eq %v36, %k37, "list<i8>[2] set.i32 300 get.i32" : i32
    %k38 = vm.const.i32 3
    %x39 = vm.optimization_barrier %k38 : i32
    %v40 = vm.list.get.i64 %v3, %x39 : (!vm.list<i8>, i32) -> i64
    %k41 = vm.const.i64 -1
    vm.check.eq %v40, %k41, "list<i8>[3] set.i32 -1 get.i64" : i64
    %k42 = vm.const.i32 4
    %x43 = vm.optimization_barrier %k42 : i32
    %v44 = vm.list.get.i32 %v3, %x43 : (!vm.list<i8>, i32) -> i32
    %k45 = vm.const.i32 -1
    vm.check.eq %v44, %k45, "list<i8>[4] set.i64 511 get.i32" : i32
    vm.return
  }

  // values are stored at the element width and converted on get/set
  vm.export @test_list_i16
  vm.func @test_list_i16() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i16>
    %k4 = vm.const.i32 4
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<i16>, i32)
    %k6 = vm.const.i32 0
    %x7 = vm.optimization_barrier %k6 : i32
    %k8 = vm.const.i32 1234
    %x9 = vm.optimization_barrier %k8 : i32
    vm.list.set.i32 %v3, %x7, %x9 : (!vm.list<i16>, i32, i32)
    %k10 = vm.const.i32 1
    %x11 = vm.optimization_barrier %k10 : i32
    %k12 = vm.const.i32 40000
    %x13 = vm.optimization_barrier %k12 : i32
    vm.list.set.i32 %v3, %x11, %x13 : (!vm.list<i16>, i32, i32)
    %k14 = vm.const.i32 2
    %x15 = vm.optimization_barrier %k14 : i32
    %k16 = vm.const.i32 74565
    %x17 = vm.optimization_barrier %k16 : i32
    vm.list.set.i32 %v3, %x15, %x17 : (!vm.list<i16>, i32, i32)
    %k18 = vm.const.i32 3
    %x19 = vm.optimization_barrier %k18 : i32
    %k20 = vm.const.i64 -2
    %x21 = vm.optimization_barrier %k20 : i64
    vm.list.set.i64 %v3, %x19, %x21 : (!vm.list<i16>, i32, i64)
    %k22 = vm.const.i32 0
    %x23 = vm.optimization_barrier %k22 : i32
    %v24 = vm.list.get.i32 %v3, %x23 : (!vm.list<i16>, i32) -> i32
    %k25 = vm.const.i32 1234
    vm.check.eq %v24, %k25, "list<i16>[0] set.i32 1234 get.i32" : i32
    %k26 = vm.const.i32 1
    %x27 = vm.optimization_barrier %k26 : i32
    %v28 = vm.list.get.i32 %v3, %x27 : (!vm.list<i16>, i32) -> i32
    %k29 = vm.const.i32 -25536
    vm.check.eq %v28, %k29, "list<i16>[1] set.i32 40000 get.i32" : i32
    %k30 = vm.const.i32 2
    %x31 = vm.optimization_barrier %k30 : i32
    %v32 = vm.list.get.i32 %v3, %x31 : (!vm.list<i16>, i32) -> i32
    %k33 = vm.const.i32 9029
    vm.check.eq %v32, %k33, "list<i16>[2] set.i32 74565 get.i32" : i32
    %k34 = vm.const.i32 3
    %x35 = vm.optimization_barrier %k34 : i32
    %v36 = vm.list.get.i64 %v3, %x35 : (!vm.list<i16>, i32) -> i64
    %k37 = vm.const.i64 -2
    vm.check.eq %v36, %k37, "list<i16>[3] set.i64 -2 get.i64" : i64
    vm.return
  }

  vm.export @test_list_i32
  vm.func @test_list_i32() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i32>
    %k4 = vm.const.i32 4
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<i32>, i32)
    %k6 = vm.const.i32 0
    %x7 = vm.optimization_barrier %k6 : i32
    %k8 = vm.const.i32 -5
    %x9 = vm.optimization_barrier %k8 : i32
    vm.list.set.i32 %v3, %x7, %x9 : (!vm.list<i32>, i32, i32)
    %k10 = vm.const.i32 1
    %x11 = vm.optimization_barrier %k10 : i32
    %k12 = vm.const.i64 8589934599
    %x13 = vm.optimization_barrier %k12 : i64
    vm.list.set.i64 %v3, %x11, %x13 : (!vm.list<i32>, i32, i64)
    %k14 = vm.const.i32 2
    %x15 = vm.optimization_barrier %k14 : i32
    %k16 = vm.const.i32 -9
    %x17 = vm.optimization_barrier %k16 : i32
    vm.list.set.i32 %v3, %x15, %x17 : (!vm.list<i32>, i32, i32)
    %k18 = vm.const.i32 3
    %x19 = vm.optimization_barrier %k18 : i32
    %k20 = vm.const.i64 2147483647
    %x21 = vm.optimization_barrier %k20 : i64
    vm.list.set.i64 %v3, %x19, %x21 : (!vm.list<i32>, i32, i64)
    %k22 = vm.const.i32 0
    %x23 = vm.optimization_barrier %k22 : i32
    %v24 = vm.list.get.i32 %v3, %x23 : (!vm.list<i32>, i32) -> i32
    %k25 = vm.const.i32 -5
    vm.check.eq %v24, %k25, "list<i32>[0] set.i32 -5 get.i32" : i32
    %k26 = vm.const.i32 1
    %x27 = vm.optimization_barrier %k26 : i32
    %v28 = vm.list.get.i32 %v3, %x27 : (!vm.list<i32>, i32) -> i32
    %k29 = vm.const.i32 7
    vm.check.eq %v28, %k29, "list<i32>[1] set.i64 8589934599 get.i32" : i32
    %k30 = vm.const.i32 2
    %x31 = vm.optimization_barrier %k30 : i32
    %v32 = vm.list.get.i64 %v3, %x31 : (!vm.list<i32>, i32) -> i64
    %k33 = vm.const.i64 -9
    vm.check.eq %v32, %k33, "list<i32>[2] set.i32 -9 get.i64" : i64
    %k34 = vm.const.i32 3
    %x35 = vm.optimization_barrier %k34 : i32
    %v36 = vm.list.get.i64 %v3, %x35 : (!vm.list<i32>, i32) -> i64
    %k37 = vm.const.i64 2147483647
    vm.check.eq %v36, %k37, "list<i32>[3] set.i64 2147483647 get.i64" : i64
    vm.return
  }

  vm.export @test_list_i64
  vm.func @test_list_i64() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i64>
    %k4 = vm.const.i32 4
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<i64>, i32)
    %k6 = vm.const.i32 0
    %x7 = vm.optimization_barrier %k6 : i32
    %k8 = vm.const.i64 1099511627781
    %x9 = vm.optimization_barrier %k8 : i64
    vm.list.set.i64 %v3, %x7, %x9 : (!vm.list<i64>, i32, i64)
    %k10 = vm.const.i32 1
    %x11 = vm.optimization_barrier %k10 : i32
    %k12 = vm.const.i64 1099511627781
    %x13 = vm.optimization_barrier %k12 : i64
    vm.list.set.i64 %v3, %x11, %x13 : (!vm.list<i64>, i32, i64)
    %k14 = vm.const.i32 2
    %x15 = vm.optimization_barrier %k14 : i32
    %k16 = vm.const.i32 -3
    %x17 = vm.optimization_barrier %k16 : i32
    vm.list.set.i32 %v3, %x15, %x17 : (!vm.list<i64>, i32, i32)
    %k18 = vm.const.i32 3
    %x19 = vm.optimization_barrier %k18 : i32
    %k20 = vm.const.i64 -4611686018427387904
    %x21 = vm.optimization_barrier %k20 : i64
    vm.list.set.i64 %v3, %x19, %x21 : (!vm.list<i64>, i32, i64)
    %k22 = vm.const.i32 0
    %x23 = vm.optimization_barrier %k22 : i32
    %v24 = vm.list.get.i64 %v3, %x23 : (!vm.list<i64>, i32) -> i64
    %k25 = vm.const.i64 1099511627781
    vm.check.eq %v24, %k25, "list<i64>[0] set.i64 1099511627781 get.i64" : i64
    %k26 = vm.const.i32 1
    %x27 = vm.optimization_barrier %k26 : i32
    %v28 = vm.list.get.i32 %v3, %x27 : (!vm.list<i64>, i32) -> i32
    %k29 = vm.const.i32 5
    vm.check.eq %v28, %k29, "list<i64>[1] set.i64 1099511627781 get.i32" : i32
    %k30 = vm.const.i32 2
    %x31 = vm.optimization_barrier %k30 : i32
    %v32 = vm.list.get.i64 %v3, %x31 : (!vm.list<i64>, i32) -> i64
    %k33 = vm.const.i64 -3
    vm.check.eq %v32, %k33, "list<i64>[2] set.i32 -3 get.i64" : i64
    %k34 = vm.const.i32 3
    %x35 = vm.optimization_barrier %k34 : i32
    %v36 = vm.list.get.i64 %v3, %x35 : (!vm.list<i64>, i32) -> i64
    %k37 = vm.const.i64 -4611686018427387904
    vm.check.eq %v36, %k37, "list<i64>[3] set.i64 -4611686018427387904 get.i64" : i64
    vm.return
  }

  vm.export @test_list_f32
  vm.func @test_list_f32() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<f32>
    %k4 = vm.const.i32 2
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<f32>, i32)
    %k6 = vm.const.i32 0
    %x7 = vm.optimization_barrier %k6 : i32
    %k8 = vm.const.f32 0x3FC00000
    %x9 = vm.optimization_barrier %k8 : f32
    vm.list.set.f32 %v3, %x7, %x9 : (!vm.list<f32>, i32, f32)
    %k10 = vm.const.i32 1
    %x11 = vm.optimization_barrier %k10 : i32
    %k12 = vm.const.f32 0xF149F2CA
    %x13 = vm.optimization_barrier %k12 : f32
    vm.list.set.f32 %v3, %x11, %x13 : (!vm.list<f32>, i32, f32)
    %k14 = vm.const.i32 0
    %x15 = vm.optimization_barrier %k14 : i32
    %v16 = vm.list.get.f32 %v3, %x15 : (!vm.list<f32>, i32) -> f32
    %k17 = vm.const.f32 0x3FC00000
    vm.check.eq %v16, %k17, "list<f32>[0] set.f32 1.5 get.f32" : f32
    %k18 = vm.const.i32 1
    %x19 = vm.optimization_barrier %k18 : i32
    %v20 = vm.list.get.f32 %v3, %x19 : (!vm.list<f32>, i32) -> f32
    %k21 = vm.const.f32 0xF149F2CA
    vm.check.eq %v20, %k21, "list<f32>[1] set.f32 -1e+30 get.f32" : f32
    vm.return
  }

  vm.export @test_list_f64
  vm.func @test_list_f64() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<f64>
    %k4 = vm.const.i32 2
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<f64>, i32)
    %k6 = vm.const.i32 0
    %x7 = vm.optimization_barrier %k6 : i32
    %k8 = vm.const.f64 0x7E37E43C8800759C
    %x9 = vm.optimization_barrier %k8 : f64
    vm.list.set.f64 %v3, %x7, %x9 : (!vm.list<f64>, i32, f64)
    %k10 = vm.const.i32 1
    %x11 = vm.optimization_barrier %k10 : i32
    %k12 = vm.const.f64 0xBFC0000000000000
    %x13 = vm.optimization_barrier %k12 : f64
    vm.list.set.f64 %v3, %x11, %x13 : (!vm.list<f64>, i32, f64)
    %k14 = vm.const.i32 0
    %x15 = vm.optimization_barrier %k14 : i32
    %v16 = vm.list.get.f64 %v3, %x15 : (!vm.list<f64>, i32) -> f64
    %k17 = vm.const.f64 0x7E37E43C8800759C
    vm.check.eq %v16, %k17, "list<f64>[0] set.f64 1e+300 get.f64" : f64
    %k18 = vm.const.i32 1
    %x19 = vm.optimization_barrier %k18 : i32
    %v20 = vm.list.get.f64 %v3, %x19 : (!vm.list<f64>, i32) -> f64
    %k21 = vm.const.f64 0xBFC0000000000000
    vm.check.eq %v20, %k21, "list<f64>[1] set.f64 -0.125 get.f64" : f64
    vm.return
  }

  // a typed ref list (iree-compile 3.11 cannot encode vm.list<!vm.buffer>, so the elements are lists); resize fills with null
  vm.export @test_list_ref
  vm.func @test_list_ref() {
    %k1 = vm.const.i32 2
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<!vm.list<i32>>
    %k4 = vm.const.i32 3
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<!vm.list<i32>>, i32)
    %k6 = vm.const.i32 1
    %x7 = vm.optimization_barrier %k6 : i32
    %v8 = vm.list.alloc %x7 : (i32) -> !vm.list<i32>
    %k9 = vm.const.i32 1
    %x10 = vm.optimization_barrier %k9 : i32
    vm.list.resize %v8, %x10 : (!vm.list<i32>, i32)
    %k11 = vm.const.i32 1
    %x12 = vm.optimization_barrier %k11 : i32
    vm.list.set.ref %v3, %x12, %v8 : (!vm.list<!vm.list<i32>>, i32, !vm.list<i32>)
    %v13 = vm.list.get.ref %v3, %x12 : (!vm.list<!vm.list<i32>>, i32) -> !vm.list<i32>
    vm.check.eq %v13, %v8, "[1] is the list" : !vm.list<i32>
    %k14 = vm.const.i32 0
    %x15 = vm.optimization_barrier %k14 : i32
    %v16 = vm.list.get.ref %v3, %x15 : (!vm.list<!vm.list<i32>>, i32) -> !vm.list<i32>
    %v17 = vm.cmp.nz.ref %v16 : !vm.list<i32>
    %k18 = vm.const.i32 0
    vm.check.eq %v17, %k18, "[0] grew as null" : i32
    %n19 = vm.const.ref.zero : !vm.list<i32>
    %x20 = vm.optimization_barrier %n19 : !vm.list<i32>
    vm.list.set.ref %v3, %x12, %x20 : (!vm.list<!vm.list<i32>>, i32, !vm.list<i32>)
    %v21 = vm.list.get.ref %v3, %x12 : (!vm.list<!vm.list<i32>>, i32) -> !vm.list<i32>
    %v22 = vm.cmp.nz.ref %v21 : !vm.list<i32>
    %k23 = vm.const.i32 0
    vm.check.eq %v22, %k23, "[1] overwritten with null" : i32
    vm.return
  }

  // a variant list holds values and refs side by side
  vm.export @test_list_variant
  vm.func @test_list_variant() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<?>
    %k4 = vm.const.i32 4
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<?>, i32)
    %k6 = vm.const.i32 0
    %x7 = vm.optimization_barrier %k6 : i32
    %k8 = vm.const.i32 -12
    %x9 = vm.optimization_barrier %k8 : i32
    vm.list.set.i32 %v3, %x7, %x9 : (!vm.list<?>, i32, i32)
    %k10 = vm.const.i32 1
    %x11 = vm.optimization_barrier %k10 : i32
    %k12 = vm.const.i64 35184372088833
    %x13 = vm.optimization_barrier %k12 : i64
    vm.list.set.i64 %v3, %x11, %x13 : (!vm.list<?>, i32, i64)
    %k14 = vm.const.i32 2
    %x15 = vm.optimization_barrier %k14 : i32
    %k16 = vm.const.f32 0x40200000
    %x17 = vm.optimization_barrier %k16 : f32
    vm.list.set.f32 %v3, %x15, %x17 : (!vm.list<?>, i32, f32)
    %k18 = vm.const.i64 8
    %x19 = vm.optimization_barrier %k18 : i64
    %k20 = vm.const.i32 8
    %x21 = vm.optimization_barrier %k20 : i32
    %v22 = vm.buffer.alloc %x19, %x21 : !vm.buffer
    %k23 = vm.const.i32 3
    %x24 = vm.optimization_barrier %k23 : i32
    vm.list.set.ref %v3, %x24, %v22 : (!vm.list<?>, i32, !vm.buffer)
    %k25 = vm.const.i32 0
    %x26 = vm.optimization_barrier %k25 : i32
    %v27 = vm.list.get.i32 %v3, %x26 : (!vm.list<?>, i32) -> i32
    %k28 = vm.const.i32 -12
    vm.check.eq %v27, %k28, "[0] i32" : i32
    %k29 = vm.const.i32 1
    %x30 = vm.optimization_barrier %k29 : i32
    %v31 = vm.list.get.i64 %v3, %x30 : (!vm.list<?>, i32) -> i64
    %k32 = vm.const.i64 35184372088833
    vm.check.eq %v31, %k32, "[1] i64" : i64
    %k33 = vm.const.i32 2
    %x34 = vm.optimization_barrier %k33 : i32
    %v35 = vm.list.get.f32 %v3, %x34 : (!vm.list<?>, i32) -> f32
    %k36 = vm.const.f32 0x40200000
    vm.check.eq %v35, %k36, "[2] f32" : f32
    %v37 = vm.list.get.ref %v3, %x24 : (!vm.list<?>, i32) -> !vm.buffer
    vm.check.eq %v37, %v22, "[3] buffer" : !vm.buffer
    %v38 = vm.list.get.ref %v3, %x24 : (!vm.list<?>, i32) -> !vm.list<i32>
    %v39 = vm.cmp.nz.ref %v38 : !vm.list<i32>
    %k40 = vm.const.i32 0
    vm.check.eq %v39, %k40, "buffer read as list<i32> is null" : i32
    vm.return
  }

  // lists nest; the inner list is shared, not copied
  vm.export @test_list_of_lists
  vm.func @test_list_of_lists() {
    %k1 = vm.const.i32 1
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<!vm.list<i32>>
    %k4 = vm.const.i32 1
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<!vm.list<i32>>, i32)
    %k6 = vm.const.i32 1
    %x7 = vm.optimization_barrier %k6 : i32
    %v8 = vm.list.alloc %x7 : (i32) -> !vm.list<i32>
    %k9 = vm.const.i32 1
    %x10 = vm.optimization_barrier %k9 : i32
    vm.list.resize %v8, %x10 : (!vm.list<i32>, i32)
    %k11 = vm.const.i32 0
    %x12 = vm.optimization_barrier %k11 : i32
    vm.list.set.ref %v3, %x12, %v8 : (!vm.list<!vm.list<i32>>, i32, !vm.list<i32>)
    %v13 = vm.list.get.ref %v3, %x12 : (!vm.list<!vm.list<i32>>, i32) -> !vm.list<i32>
    %k14 = vm.const.i32 0
    %x15 = vm.optimization_barrier %k14 : i32
    %k16 = vm.const.i32 808
    %x17 = vm.optimization_barrier %k16 : i32
    vm.list.set.i32 %v13, %x15, %x17 : (!vm.list<i32>, i32, i32)
    %k18 = vm.const.i32 0
    %x19 = vm.optimization_barrier %k18 : i32
    %v20 = vm.list.get.i32 %v8, %x19 : (!vm.list<i32>, i32) -> i32
    %k21 = vm.const.i32 808
    vm.check.eq %v20, %k21, "write through the nested ref" : i32
    vm.return
  }

  // out-of-range get is OUT_OF_RANGE
  vm.export @fail_list_get_past_end
  vm.func @fail_list_get_past_end() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i32>
    %k4 = vm.const.i32 3
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<i32>, i32)
    %k6 = vm.const.i32 3
    %x7 = vm.optimization_barrier %k6 : i32
    %v8 = vm.list.get.i32 %v3, %x7 : (!vm.list<i32>, i32) -> i32
    vm.optimization_barrier %v8 : i32
    vm.return
  }

  // out-of-range get is OUT_OF_RANGE
  vm.export @fail_list_get_negative
  vm.func @fail_list_get_negative() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i64>
    %k4 = vm.const.i32 2
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<i64>, i32)
    %k6 = vm.const.i32 -1
    %x7 = vm.optimization_barrier %k6 : i32
    %v8 = vm.list.get.i64 %v3, %x7 : (!vm.list<i64>, i32) -> i64
    vm.optimization_barrier %v8 : i64
    vm.return
  }

  // out-of-range set is OUT_OF_RANGE
  vm.export @fail_list_set_past_end
  vm.func @fail_list_set_past_end() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<f32>
    %k4 = vm.const.i32 2
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<f32>, i32)
    %k6 = vm.const.i32 2
    %x7 = vm.optimization_barrier %k6 : i32
    %k8 = vm.const.f32 0x3F800000
    %x9 = vm.optimization_barrier %k8 : f32
    vm.list.set.f32 %v3, %x7, %x9 : (!vm.list<f32>, i32, f32)
    vm.return
  }

  // out-of-range get is OUT_OF_RANGE
  vm.export @fail_list_get_ref_past_end
  vm.func @fail_list_get_ref_past_end() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<!vm.list<i32>>
    %k4 = vm.const.i32 1
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<!vm.list<i32>>, i32)
    %k6 = vm.const.i32 1
    %x7 = vm.optimization_barrier %k6 : i32
    %v8 = vm.list.get.ref %v3, %x7 : (!vm.list<!vm.list<i32>>, i32) -> !vm.list<i32>
    vm.optimization_barrier %v8 : !vm.list<i32>
    vm.return
  }

  // out-of-range get is OUT_OF_RANGE
  vm.export @fail_list_get_empty
  vm.func @fail_list_get_empty() {
    %k1 = vm.const.i32 4
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.list.alloc %x2 : (i32) -> !vm.list<i8>
    %k4 = vm.const.i32 0
    %x5 = vm.optimization_barrier %k4 : i32
    vm.list.resize %v3, %x5 : (!vm.list<i8>, i32)
    %k6 = vm.const.i32 0
    %x7 = vm.optimization_barrier %k6 : i32
    %v8 = vm.list.get.i32 %v3, %x7 : (!vm.list<i8>, i32) -> i32
    vm.optimization_barrier %v8 : i32
    vm.return
  }
}
