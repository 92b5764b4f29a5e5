// Ember VM op conformance: vm.buffer. alloc/length, load and store of every
// element type (offsets are ELEMENT indices; i8/i16 loads zero- or sign-
// extend; little-endian), fill (offset and length in elements), clone/copy/
// compare/hash (offsets and lengths in bytes), overlapping copy, rodata
// buffers (readable, immutable), and out-of-range or read-only accesses
// (fail_*). The hash values were computed with the official runtime.
vm.module @ops_buffers {
  vm.rodata private @ro_bytes dense<[3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4]> : tensor<20xi8>
  vm.rodata private @ro_i32 dense<[-2, 1000, 65536, 7]> : tensor<4xi32>
  // a new buffer is zeroed; length counts bytes
  vm.export @test_buffer_alloc_length
  vm.func @test_buffer_alloc_length() {
    %k1 = vm.const.i64 37
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 16
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %v6 = vm.buffer.length %v5 : !vm.buffer -> i64
    %k7 = vm.const.i64 37
    vm.check.eq %v6, %k7, "length" : i64
    %k8 = vm.const.i64 36
    %x9 = vm.optimization_barrier %k8 : i64
    %v10 = vm.buffer.load.i8.u %v5[%x9] : !vm.buffer -> i32
    %k11 = vm.const.i32 0
    vm.check.eq %v10, %k11, "last byte zero" : i32
    %k12 = vm.const.i64 3
    %x13 = vm.optimization_barrier %k12 : i64
    %v14 = vm.buffer.load.i64 %v5[%x13] : !vm.buffer -> i64
    %k15 = vm.const.i64 0
    vm.check.eq %v14, %k15, "i64 element 3 zero" : i64
    %k16 = vm.const.i64 0
    %x17 = vm.optimization_barrier %k16 : i64
    %k18 = vm.const.i32 1
    %x19 = vm.optimization_barrier %k18 : i32
    %v20 = vm.buffer.alloc %x17, %x19 : !vm.buffer
    %v21 = vm.buffer.length %v20 : !vm.buffer -> i64
    %k22 = vm.const.i64 0
    vm.check.eq %v21, %k22, "empty buffer" : i64
    vm.return
  }

  // load/store offsets are ELEMENT indices, not bytes; little-endian layout
  vm.export @test_buffer_store_load_elements
  vm.func @test_buffer_store_load_elements() {
    %k1 = vm.const.i64 64
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 3
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i32 287454020
    %x9 = vm.optimization_barrier %k8 : i32
    vm.buffer.store.i32 %x9, %v5[%x7] : i32 -> !vm.buffer
    %k10 = vm.const.i64 12
    %x11 = vm.optimization_barrier %k10 : i64
    %v12 = vm.buffer.load.i8.u %v5[%x11] : !vm.buffer -> i32
    %k13 = vm.const.i32 68
    vm.check.eq %v12, %k13, "byte 12 (LE low byte)" : i32
    %k14 = vm.const.i64 15
    %x15 = vm.optimization_barrier %k14 : i64
    %v16 = vm.buffer.load.i8.u %v5[%x15] : !vm.buffer -> i32
    %k17 = vm.const.i32 17
    vm.check.eq %v16, %k17, "byte 15" : i32
    %k18 = vm.const.i64 6
    %x19 = vm.optimization_barrier %k18 : i64
    %v20 = vm.buffer.load.i16.u %v5[%x19] : !vm.buffer -> i32
    %k21 = vm.const.i32 13124
    vm.check.eq %v20, %k21, "i16 element 6 = bytes 12..13" : i32
    %k22 = vm.const.i64 3
    %x23 = vm.optimization_barrier %k22 : i64
    %v24 = vm.buffer.load.i32 %v5[%x23] : !vm.buffer -> i32
    %k25 = vm.const.i32 287454020
    vm.check.eq %v24, %k25, "i32 element 3" : i32
    %k26 = vm.const.i64 0
    %x27 = vm.optimization_barrier %k26 : i64
    %k28 = vm.const.i32 496
    %x29 = vm.optimization_barrier %k28 : i32
    vm.buffer.store.i8 %x29, %v5[%x27] : i32 -> !vm.buffer
    %k30 = vm.const.i64 0
    %x31 = vm.optimization_barrier %k30 : i64
    %v32 = vm.buffer.load.i8.u %v5[%x31] : !vm.buffer -> i32
    %k33 = vm.const.i32 240
    vm.check.eq %v32, %k33, "i8.u" : i32
    %k34 = vm.const.i64 0
    %x35 = vm.optimization_barrier %k34 : i64
    %v36 = vm.buffer.load.i8.s %v5[%x35] : !vm.buffer -> i32
    %k37 = vm.const.i32 -16
    vm.check.eq %v36, %k37, "i8.s sign-extends" : i32
    %k38 = vm.const.i64 1
    %x39 = vm.optimization_barrier %k38 : i64
    %k40 = vm.const.i32 98305
    %x41 = vm.optimization_barrier %k40 : i32
    vm.buffer.store.i16 %x41, %v5[%x39] : i32 -> !vm.buffer
    %k42 = vm.const.i64 1
    %x43 = vm.optimization_barrier %k42 : i64
    %v44 = vm.buffer.load.i16.u %v5[%x43] : !vm.buffer -> i32
    %k45 = vm.const.i32 32769
    vm.check.eq %v44, %k45, "i16.u" : i32
    %k46 = vm.const.i64 1
    %x47 = vm.optimization_barrier %k46 : i64
    %v48 = vm.buffer.load.i16.s %v5[%x47] : !vm.buffer -> i32
    %k49 = vm.const.i32 -32767
    vm.check.eq %v48, %k49, "i16.s sign-extends" : i32
    %k50 = vm.const.i64 5
    %x51 = vm.optimization_barrier %k50 : i64
    %k52 = vm.const.i64 -1099511627779
    %x53 = vm.optimization_barrier %k52 : i64
    vm.buffer.store.i64 %x53, %v5[%x51] : i64 -> !vm.buffer
    %k54 = vm.const.i64 5
    %x55 = vm.optimization_barrier %k54 : i64
    %v56 = vm.buffer.load.i64 %v5[%x55] : !vm.buffer -> i64
    %k57 = vm.const.i64 -1099511627779
    vm.check.eq %v56, %k57, "i64 element 5" : i64
    %k58 = vm.const.i64 11
    %x59 = vm.optimization_barrier %k58 : i64
    %v60 = vm.buffer.load.i32 %v5[%x59] : !vm.buffer -> i32
    %k61 = vm.const.i32 -257
    vm.check.eq %v60, %k61, "high word of element 5 as i32 element 11" : i32
    %k62 = vm.const.i64 12
    %x63 = vm.optimization_barrier %k62 : i64
    %k64 = vm.const.f32 0xC0700000
    %x65 = vm.optimization_barrier %k64 : f32
    vm.buffer.store.f32 %x65, %v5[%x63] : f32 -> !vm.buffer
    %k66 = vm.const.i64 12
    %x67 = vm.optimization_barrier %k66 : i64
    %v68 = vm.buffer.load.f32 %v5[%x67] : !vm.buffer -> f32
    %k69 = vm.const.f32 0xC0700000
    vm.check.eq %v68, %k69, "f32 element 12" : f32
    %k70 = vm.const.i64 12
    %x71 = vm.optimization_barrier %k70 : i64
    %v72 = vm.buffer.load.i32 %v5[%x71] : !vm.buffer -> i32
    %k73 = vm.const.i32 -1066401792
    vm.check.eq %v72, %k73, "f32 bits" : i32
    %k74 = vm.const.i64 7
    %x75 = vm.optimization_barrier %k74 : i64
    %k76 = vm.const.f64 0x01A56E1FC2F8F359
    %x77 = vm.optimization_barrier %k76 : f64
    vm.buffer.store.f64 %x77, %v5[%x75] : f64 -> !vm.buffer
    %k78 = vm.const.i64 7
    %x79 = vm.optimization_barrier %k78 : i64
    %v80 = vm.buffer.load.f64 %v5[%x79] : !vm.buffer -> f64
    %k81 = vm.const.f64 0x01A56E1FC2F8F359
    vm.check.eq %v80, %k81, "f64 element 7" : f64
    vm.return
  }

  // fill offsets and lengths count elements of the fill type
  vm.export @test_buffer_fill
  vm.func @test_buffer_fill() {
    %k1 = vm.const.i64 32
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 1
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i64 3
    %x9 = vm.optimization_barrier %k8 : i64
    %k10 = vm.const.i32 427
    %x11 = vm.optimization_barrier %k10 : i32
    vm.buffer.fill.i8 %v5, %x7, %x9, %x11 : i32 -> !vm.buffer
    %k12 = vm.const.i64 3
    %x13 = vm.optimization_barrier %k12 : i64
    %k14 = vm.const.i64 2
    %x15 = vm.optimization_barrier %k14 : i64
    %k16 = vm.const.i32 32495
    %x17 = vm.optimization_barrier %k16 : i32
    vm.buffer.fill.i16 %v5, %x13, %x15, %x17 : i32 -> !vm.buffer
    %k18 = vm.const.i64 3
    %x19 = vm.optimization_barrier %k18 : i64
    %k20 = vm.const.i64 1
    %x21 = vm.optimization_barrier %k20 : i64
    %k22 = vm.const.i32 -2
    %x23 = vm.optimization_barrier %k22 : i32
    vm.buffer.fill.i32 %v5, %x19, %x21, %x23 : i32 -> !vm.buffer
    %k24 = vm.const.i64 2
    %x25 = vm.optimization_barrier %k24 : i64
    %k26 = vm.const.i64 2
    %x27 = vm.optimization_barrier %k26 : i64
    %k28 = vm.const.i64 72623859790382856
    %x29 = vm.optimization_barrier %k28 : i64
    vm.buffer.fill.i64 %v5, %x25, %x27, %x29 : i64 -> !vm.buffer
    %k30 = vm.const.i64 0
    %x31 = vm.optimization_barrier %k30 : i64
    %v32 = vm.buffer.load.i8.u %v5[%x31] : !vm.buffer -> i32
    %k33 = vm.const.i32 0
    vm.check.eq %v32, %k33, "byte 0" : i32
    %k34 = vm.const.i64 1
    %x35 = vm.optimization_barrier %k34 : i64
    %v36 = vm.buffer.load.i8.u %v5[%x35] : !vm.buffer -> i32
    %k37 = vm.const.i32 171
    vm.check.eq %v36, %k37, "byte 1" : i32
    %k38 = vm.const.i64 3
    %x39 = vm.optimization_barrier %k38 : i64
    %v40 = vm.buffer.load.i8.u %v5[%x39] : !vm.buffer -> i32
    %k41 = vm.const.i32 171
    vm.check.eq %v40, %k41, "byte 3" : i32
    %k42 = vm.const.i64 4
    %x43 = vm.optimization_barrier %k42 : i64
    %v44 = vm.buffer.load.i8.u %v5[%x43] : !vm.buffer -> i32
    %k45 = vm.const.i32 0
    vm.check.eq %v44, %k45, "byte 4" : i32
    %k46 = vm.const.i64 5
    %x47 = vm.optimization_barrier %k46 : i64
    %v48 = vm.buffer.load.i8.u %v5[%x47] : !vm.buffer -> i32
    %k49 = vm.const.i32 0
    vm.check.eq %v48, %k49, "byte 5" : i32
    %k50 = vm.const.i64 6
    %x51 = vm.optimization_barrier %k50 : i64
    %v52 = vm.buffer.load.i8.u %v5[%x51] : !vm.buffer -> i32
    %k53 = vm.const.i32 239
    vm.check.eq %v52, %k53, "byte 6" : i32
    %k54 = vm.const.i64 7
    %x55 = vm.optimization_barrier %k54 : i64
    %v56 = vm.buffer.load.i8.u %v5[%x55] : !vm.buffer -> i32
    %k57 = vm.const.i32 126
    vm.check.eq %v56, %k57, "byte 7" : i32
    %k58 = vm.const.i64 9
    %x59 = vm.optimization_barrier %k58 : i64
    %v60 = vm.buffer.load.i8.u %v5[%x59] : !vm.buffer -> i32
    %k61 = vm.const.i32 126
    vm.check.eq %v60, %k61, "byte 9" : i32
    %k62 = vm.const.i64 10
    %x63 = vm.optimization_barrier %k62 : i64
    %v64 = vm.buffer.load.i8.u %v5[%x63] : !vm.buffer -> i32
    %k65 = vm.const.i32 0
    vm.check.eq %v64, %k65, "byte 10" : i32
    %k66 = vm.const.i64 12
    %x67 = vm.optimization_barrier %k66 : i64
    %v68 = vm.buffer.load.i8.u %v5[%x67] : !vm.buffer -> i32
    %k69 = vm.const.i32 254
    vm.check.eq %v68, %k69, "byte 12" : i32
    %k70 = vm.const.i64 15
    %x71 = vm.optimization_barrier %k70 : i64
    %v72 = vm.buffer.load.i8.u %v5[%x71] : !vm.buffer -> i32
    %k73 = vm.const.i32 255
    vm.check.eq %v72, %k73, "byte 15" : i32
    %k74 = vm.const.i64 16
    %x75 = vm.optimization_barrier %k74 : i64
    %v76 = vm.buffer.load.i8.u %v5[%x75] : !vm.buffer -> i32
    %k77 = vm.const.i32 8
    vm.check.eq %v76, %k77, "byte 16" : i32
    %k78 = vm.const.i64 23
    %x79 = vm.optimization_barrier %k78 : i64
    %v80 = vm.buffer.load.i8.u %v5[%x79] : !vm.buffer -> i32
    %k81 = vm.const.i32 1
    vm.check.eq %v80, %k81, "byte 23" : i32
    %k82 = vm.const.i64 24
    %x83 = vm.optimization_barrier %k82 : i64
    %v84 = vm.buffer.load.i8.u %v5[%x83] : !vm.buffer -> i32
    %k85 = vm.const.i32 8
    vm.check.eq %v84, %k85, "byte 24" : i32
    %k86 = vm.const.i64 31
    %x87 = vm.optimization_barrier %k86 : i64
    %v88 = vm.buffer.load.i8.u %v5[%x87] : !vm.buffer -> i32
    %k89 = vm.const.i32 1
    vm.check.eq %v88, %k89, "byte 31" : i32
    %k90 = vm.const.i64 24
    %x91 = vm.optimization_barrier %k90 : i64
    %k92 = vm.const.i32 8
    %x93 = vm.optimization_barrier %k92 : i32
    %v94 = vm.buffer.alloc %x91, %x93 : !vm.buffer
    %k95 = vm.const.i64 1
    %x96 = vm.optimization_barrier %k95 : i64
    %k97 = vm.const.i64 2
    %x98 = vm.optimization_barrier %k97 : i64
    %k99 = vm.const.f32 0x3F000000
    %x100 = vm.optimization_barrier %k99 : f32
    vm.buffer.fill.f32 %v94, %x96, %x98, %x100 : f32 -> !vm.buffer
    %k101 = vm.const.i64 2
    %x102 = vm.optimization_barrier %k101 : i64
    %k103 = vm.const.i64 1
    %x104 = vm.optimization_barrier %k103 : i64
    %k105 = vm.const.f64 0xC000000000000000
    %x106 = vm.optimization_barrier %k105 : f64
    vm.buffer.fill.f64 %v94, %x102, %x104, %x106 : f64 -> !vm.buffer
    %k107 = vm.const.i64 0
    %x108 = vm.optimization_barrier %k107 : i64
    %v109 = vm.buffer.load.f32 %v94[%x108] : !vm.buffer -> f32
    %k110 = vm.const.f32 0x00000000
    vm.check.eq %v109, %k110, "f32 element 0 untouched" : f32
    %k111 = vm.const.i64 2
    %x112 = vm.optimization_barrier %k111 : i64
    %v113 = vm.buffer.load.f32 %v94[%x112] : !vm.buffer -> f32
    %k114 = vm.const.f32 0x3F000000
    vm.check.eq %v113, %k114, "f32 element 2" : f32
    %k115 = vm.const.i64 3
    %x116 = vm.optimization_barrier %k115 : i64
    %v117 = vm.buffer.load.f32 %v94[%x116] : !vm.buffer -> f32
    %k118 = vm.const.f32 0x00000000
    vm.check.eq %v117, %k118, "f32 element 3 untouched" : f32
    %k119 = vm.const.i64 2
    %x120 = vm.optimization_barrier %k119 : i64
    %v121 = vm.buffer.load.f64 %v94[%x120] : !vm.buffer -> f64
    %k122 = vm.const.f64 0xC000000000000000
    vm.check.eq %v121, %k122, "f64 element 2" : f64
    vm.return
  }

  // rodata buffers are readable module data
  vm.export @test_buffer_rodata
  vm.func @test_buffer_rodata() {
    %v1 = vm.const.ref.rodata @ro_i32 : !vm.buffer
    %v2 = vm.buffer.length %v1 : !vm.buffer -> i64
    %k3 = vm.const.i64 16
    vm.check.eq %v2, %k3, "rodata length" : i64
    %k4 = vm.const.i64 0
    %x5 = vm.optimization_barrier %k4 : i64
    %v6 = vm.buffer.load.i32 %v1[%x5] : !vm.buffer -> i32
    %k7 = vm.const.i32 -2
    vm.check.eq %v6, %k7, "ro_i32[0]" : i32
    %k8 = vm.const.i64 1
    %x9 = vm.optimization_barrier %k8 : i64
    %v10 = vm.buffer.load.i32 %v1[%x9] : !vm.buffer -> i32
    %k11 = vm.const.i32 1000
    vm.check.eq %v10, %k11, "ro_i32[1]" : i32
    %k12 = vm.const.i64 2
    %x13 = vm.optimization_barrier %k12 : i64
    %v14 = vm.buffer.load.i32 %v1[%x13] : !vm.buffer -> i32
    %k15 = vm.const.i32 65536
    vm.check.eq %v14, %k15, "ro_i32[2]" : i32
    %k16 = vm.const.i64 3
    %x17 = vm.optimization_barrier %k16 : i64
    %v18 = vm.buffer.load.i32 %v1[%x17] : !vm.buffer -> i32
    %k19 = vm.const.i32 7
    vm.check.eq %v18, %k19, "ro_i32[3]" : i32
    %v20 = vm.const.ref.rodata @ro_bytes : !vm.buffer
    %k21 = vm.const.i64 5
    %x22 = vm.optimization_barrier %k21 : i64
    %v23 = vm.buffer.load.i8.u %v20[%x22] : !vm.buffer -> i32
    %k24 = vm.const.i32 9
    vm.check.eq %v23, %k24, "ro_bytes[5]" : i32
    %k25 = vm.const.i64 2
    %x26 = vm.optimization_barrier %k25 : i64
    %v27 = vm.buffer.load.i16.u %v20[%x26] : !vm.buffer -> i32
    %k28 = vm.const.i32 2309
    vm.check.eq %v27, %k28, "ro_bytes as i16 element 2" : i32
    vm.return
  }

  // clone/copy/compare offsets and lengths count bytes; a clone is mutable and independent
  vm.export @test_buffer_clone_copy_compare
  vm.func @test_buffer_clone_copy_compare() {
    %v1 = vm.const.ref.rodata @ro_bytes : !vm.buffer
    %k2 = vm.const.i64 4
    %x3 = vm.optimization_barrier %k2 : i64
    %k4 = vm.const.i64 8
    %x5 = vm.optimization_barrier %k4 : i64
    %k6 = vm.const.i32 16
    %x7 = vm.optimization_barrier %k6 : i32
    %v8 = vm.buffer.clone %v1, %x3, %x5, %x7 : !vm.buffer -> !vm.buffer
    %v9 = vm.buffer.length %v8 : !vm.buffer -> i64
    %k10 = vm.const.i64 8
    vm.check.eq %v9, %k10, "clone length" : i64
    %k11 = vm.const.i64 0
    %x12 = vm.optimization_barrier %k11 : i64
    %v13 = vm.buffer.load.i8.u %v8[%x12] : !vm.buffer -> i32
    %k14 = vm.const.i32 5
    vm.check.eq %v13, %k14, "clone[0] = ro[4]" : i32
    %k15 = vm.const.i64 7
    %x16 = vm.optimization_barrier %k15 : i64
    %v17 = vm.buffer.load.i8.u %v8[%x16] : !vm.buffer -> i32
    %k18 = vm.const.i32 8
    vm.check.eq %v17, %k18, "clone[7] = ro[11]" : i32
    %k19 = vm.const.i64 0
    %x20 = vm.optimization_barrier %k19 : i64
    %k21 = vm.const.i32 77
    %x22 = vm.optimization_barrier %k21 : i32
    vm.buffer.store.i8 %x22, %v8[%x20] : i32 -> !vm.buffer
    %k23 = vm.const.i64 4
    %x24 = vm.optimization_barrier %k23 : i64
    %v25 = vm.buffer.load.i8.u %v1[%x24] : !vm.buffer -> i32
    %k26 = vm.const.i32 5
    vm.check.eq %v25, %k26, "rodata unchanged by the clone's store" : i32
    %k27 = vm.const.i64 16
    %x28 = vm.optimization_barrier %k27 : i64
    %k29 = vm.const.i32 8
    %x30 = vm.optimization_barrier %k29 : i32
    %v31 = vm.buffer.alloc %x28, %x30 : !vm.buffer
    %k32 = vm.const.i64 2
    %x33 = vm.optimization_barrier %k32 : i64
    %k34 = vm.const.i64 9
    %x35 = vm.optimization_barrier %k34 : i64
    %k36 = vm.const.i64 5
    %x37 = vm.optimization_barrier %k36 : i64
    vm.buffer.copy %v1, %x33, %v31, %x35, %x37 : !vm.buffer -> !vm.buffer
    %k38 = vm.const.i64 8
    %x39 = vm.optimization_barrier %k38 : i64
    %v40 = vm.buffer.load.i8.u %v31[%x39] : !vm.buffer -> i32
    %k41 = vm.const.i32 0
    vm.check.eq %v40, %k41, "copy dst byte 8" : i32
    %k42 = vm.const.i64 9
    %x43 = vm.optimization_barrier %k42 : i64
    %v44 = vm.buffer.load.i8.u %v31[%x43] : !vm.buffer -> i32
    %k45 = vm.const.i32 4
    vm.check.eq %v44, %k45, "copy dst byte 9" : i32
    %k46 = vm.const.i64 10
    %x47 = vm.optimization_barrier %k46 : i64
    %v48 = vm.buffer.load.i8.u %v31[%x47] : !vm.buffer -> i32
    %k49 = vm.const.i32 1
    vm.check.eq %v48, %k49, "copy dst byte 10" : i32
    %k50 = vm.const.i64 13
    %x51 = vm.optimization_barrier %k50 : i64
    %v52 = vm.buffer.load.i8.u %v31[%x51] : !vm.buffer -> i32
    %k53 = vm.const.i32 2
    vm.check.eq %v52, %k53, "copy dst byte 13" : i32
    %k54 = vm.const.i64 14
    %x55 = vm.optimization_barrier %k54 : i64
    %v56 = vm.buffer.load.i8.u %v31[%x55] : !vm.buffer -> i32
    %k57 = vm.const.i32 0
    vm.check.eq %v56, %k57, "copy dst byte 14" : i32
    %k58 = vm.const.i64 2
    %x59 = vm.optimization_barrier %k58 : i64
    %k60 = vm.const.i64 9
    %x61 = vm.optimization_barrier %k60 : i64
    %k62 = vm.const.i64 5
    %x63 = vm.optimization_barrier %k62 : i64
    %v64 = vm.buffer.compare %v1, %x59, %v31, %x61, %x63 : !vm.buffer, !vm.buffer
    %k65 = vm.const.i32 1
    vm.check.eq %v64, %k65, "compare equal ranges" : i32
    %k66 = vm.const.i64 6
    %x67 = vm.optimization_barrier %k66 : i64
    %v68 = vm.buffer.compare %v1, %x59, %v31, %x61, %x67 : !vm.buffer, !vm.buffer
    %k69 = vm.const.i32 0
    vm.check.eq %v68, %k69, "compare one byte further" : i32
    %k70 = vm.const.i64 0
    %x71 = vm.optimization_barrier %k70 : i64
    %v72 = vm.buffer.compare %v1, %x71, %v31, %x71, %x71 : !vm.buffer, !vm.buffer
    %k73 = vm.const.i32 1
    vm.check.eq %v72, %k73, "empty ranges compare equal" : i32
    vm.return
  }

  // copy within one buffer with overlapping ranges behaves like memmove
  vm.export @test_buffer_copy_overlapping
  vm.func @test_buffer_copy_overlapping() {
    %k1 = vm.const.i64 8
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 0
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i32 1
    %x9 = vm.optimization_barrier %k8 : i32
    vm.buffer.store.i8 %x9, %v5[%x7] : i32 -> !vm.buffer
    %k10 = vm.const.i64 1
    %x11 = vm.optimization_barrier %k10 : i64
    %k12 = vm.const.i32 2
    %x13 = vm.optimization_barrier %k12 : i32
    vm.buffer.store.i8 %x13, %v5[%x11] : i32 -> !vm.buffer
    %k14 = vm.const.i64 2
    %x15 = vm.optimization_barrier %k14 : i64
    %k16 = vm.const.i32 3
    %x17 = vm.optimization_barrier %k16 : i32
    vm.buffer.store.i8 %x17, %v5[%x15] : i32 -> !vm.buffer
    %k18 = vm.const.i64 3
    %x19 = vm.optimization_barrier %k18 : i64
    %k20 = vm.const.i32 4
    %x21 = vm.optimization_barrier %k20 : i32
    vm.buffer.store.i8 %x21, %v5[%x19] : i32 -> !vm.buffer
    %k22 = vm.const.i64 4
    %x23 = vm.optimization_barrier %k22 : i64
    %k24 = vm.const.i32 5
    %x25 = vm.optimization_barrier %k24 : i32
    vm.buffer.store.i8 %x25, %v5[%x23] : i32 -> !vm.buffer
    %k26 = vm.const.i64 5
    %x27 = vm.optimization_barrier %k26 : i64
    %k28 = vm.const.i32 6
    %x29 = vm.optimization_barrier %k28 : i32
    vm.buffer.store.i8 %x29, %v5[%x27] : i32 -> !vm.buffer
    %k30 = vm.const.i64 6
    %x31 = vm.optimization_barrier %k30 : i64
    %k32 = vm.const.i32 7
    %x33 = vm.optimization_barrier %k32 : i32
    vm.buffer.store.i8 %x33, %v5[%x31] : i32 -> !vm.buffer
    %k34 = vm.const.i64 7
    %x35 = vm.optimization_barrier %k34 : i64
    %k36 = vm.const.i32 8
    %x37 = vm.optimization_barrier %k36 : i32
    vm.buffer.store.i8 %x37, %v5[%x35] : i32 -> !vm.buffer
    %k38 = vm.const.i64 0
    %x39 = vm.optimization_barrier %k38 : i64
    %k40 = vm.const.i64 2
    %x41 = vm.optimization_barrier %k40 : i64
    %k42 = vm.const.i64 5
    %x43 = vm.optimization_barrier %k42 : i64
    vm.buffer.copy %v5, %x39, %v5, %x41, %x43 : !vm.buffer -> !vm.buffer
    %k44 = vm.const.i64 0
    %x45 = vm.optimization_barrier %k44 : i64
    %v46 = vm.buffer.load.i8.u %v5[%x45] : !vm.buffer -> i32
    %k47 = vm.const.i32 1
    vm.check.eq %v46, %k47, "byte 0" : i32
    %k48 = vm.const.i64 1
    %x49 = vm.optimization_barrier %k48 : i64
    %v50 = vm.buffer.load.i8.u %v5[%x49] : !vm.buffer -> i32
    %k51 = vm.const.i32 2
    vm.check.eq %v50, %k51, "byte 1" : i32
    %k52 = vm.const.i64 2
    %x53 = vm.optimization_barrier %k52 : i64
    %v54 = vm.buffer.load.i8.u %v5[%x53] : !vm.buffer -> i32
    %k55 = vm.const.i32 1
    vm.check.eq %v54, %k55, "byte 2" : i32
    %k56 = vm.const.i64 3
    %x57 = vm.optimization_barrier %k56 : i64
    %v58 = vm.buffer.load.i8.u %v5[%x57] : !vm.buffer -> i32
    %k59 = vm.const.i32 2
    vm.check.eq %v58, %k59, "byte 3" : i32
    %k60 = vm.const.i64 4
    %x61 = vm.optimization_barrier %k60 : i64
    %v62 = vm.buffer.load.i8.u %v5[%x61] : !vm.buffer -> i32
    %k63 = vm.const.i32 3
    vm.check.eq %v62, %k63, "byte 4" : i32
    %k64 = vm.const.i64 5
    %x65 = vm.optimization_barrier %k64 : i64
    %v66 = vm.buffer.load.i8.u %v5[%x65] : !vm.buffer -> i32
    %k67 = vm.const.i32 4
    vm.check.eq %v66, %k67, "byte 5" : i32
    %k68 = vm.const.i64 6
    %x69 = vm.optimization_barrier %k68 : i64
    %v70 = vm.buffer.load.i8.u %v5[%x69] : !vm.buffer -> i32
    %k71 = vm.const.i32 5
    vm.check.eq %v70, %k71, "byte 6" : i32
    %k72 = vm.const.i64 7
    %x73 = vm.optimization_barrier %k72 : i64
    %v74 = vm.buffer.load.i8.u %v5[%x73] : !vm.buffer -> i32
    %k75 = vm.const.i32 8
    vm.check.eq %v74, %k75, "byte 7" : i32
    vm.return
  }

  // vm.buffer.hash over byte ranges; expected values computed with the official runtime
  vm.export @test_buffer_hash
  vm.func @test_buffer_hash() {
    %v1 = vm.const.ref.rodata @ro_bytes : !vm.buffer
    %k2 = vm.const.i64 0
    %x3 = vm.optimization_barrier %k2 : i64
    %k4 = vm.const.i64 20
    %x5 = vm.optimization_barrier %k4 : i64
    %v6 = vm.buffer.hash %v1, %x3, %x5 : !vm.buffer -> i64
    %k7 = vm.const.i64 -2441684508389702214
    vm.check.eq %v6, %k7, "hash(ro_bytes[0:+20])" : i64
    %k8 = vm.const.i64 5
    %x9 = vm.optimization_barrier %k8 : i64
    %k10 = vm.const.i64 7
    %x11 = vm.optimization_barrier %k10 : i64
    %v12 = vm.buffer.hash %v1, %x9, %x11 : !vm.buffer -> i64
    %k13 = vm.const.i64 -8596493648669383315
    vm.check.eq %v12, %k13, "hash(ro_bytes[5:+7])" : i64
    %k14 = vm.const.i64 5
    %x15 = vm.optimization_barrier %k14 : i64
    %k16 = vm.const.i64 0
    %x17 = vm.optimization_barrier %k16 : i64
    %v18 = vm.buffer.hash %v1, %x15, %x17 : !vm.buffer -> i64
    %k19 = vm.const.i64 8246050544436514353
    vm.check.eq %v18, %k19, "hash(ro_bytes[5:+0])" : i64
    %k20 = vm.const.i64 20
    %x21 = vm.optimization_barrier %k20 : i64
    %k22 = vm.const.i32 8
    %x23 = vm.optimization_barrier %k22 : i32
    %v24 = vm.buffer.alloc %x21, %x23 : !vm.buffer
    %k25 = vm.const.i64 0
    %x26 = vm.optimization_barrier %k25 : i64
    %k27 = vm.const.i64 20
    %x28 = vm.optimization_barrier %k27 : i64
    vm.buffer.copy %v1, %x26, %v24, %x26, %x28 : !vm.buffer -> !vm.buffer
    %v29 = vm.buffer.hash %v24, %x26, %x28 : !vm.buffer -> i64
    %k30 = vm.const.i64 -2441684508389702214
    vm.check.eq %v29, %k30, "hash depends on contents only" : i64
    vm.return
  }

  // i32 element 4 of a 16-byte buffer is out of range
  vm.export @fail_buffer_load_past_end
  vm.func @fail_buffer_load_past_end() {
    %k1 = vm.const.i64 16
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 4
    %x7 = vm.optimization_barrier %k6 : i64
    %v8 = vm.buffer.load.i32 %v5[%x7] : !vm.buffer -> i32
    vm.optimization_barrier %v8 : i32
    vm.return
  }

  // i64 element 1 of a 12-byte buffer needs bytes 8..15
  vm.export @fail_buffer_load_straddling_end
  vm.func @fail_buffer_load_straddling_end() {
    %k1 = vm.const.i64 12
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 1
    %x7 = vm.optimization_barrier %k6 : i64
    %v8 = vm.buffer.load.i64 %v5[%x7] : !vm.buffer -> i64
    vm.optimization_barrier %v8 : i64
    vm.return
  }

  vm.export @fail_buffer_store_past_end
  vm.func @fail_buffer_store_past_end() {
    %k1 = vm.const.i64 8
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 4
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i32 1
    %x9 = vm.optimization_barrier %k8 : i32
    vm.buffer.store.i16 %x9, %v5[%x7] : i32 -> !vm.buffer
    vm.return
  }

  // element index -1 is out of range. IREE 3.11 checks (offset + count) * size <= length in unsigned arithmetic, where -1 + 1 wraps to 0, so it accepts the store and writes the byte before the buffer; Ember only
  vm.export @fail_ember_only_buffer_store_negative
  vm.func @fail_ember_only_buffer_store_negative() {
    %k1 = vm.const.i64 8
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 -1
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i32 1
    %x9 = vm.optimization_barrier %k8 : i32
    vm.buffer.store.i8 %x9, %v5[%x7] : i32 -> !vm.buffer
    vm.return
  }

  // 3 i32 elements from element 2 need bytes 8..19 of 16
  vm.export @fail_buffer_fill_past_end
  vm.func @fail_buffer_fill_past_end() {
    %k1 = vm.const.i64 16
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 2
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i64 3
    %x9 = vm.optimization_barrier %k8 : i64
    %k10 = vm.const.i32 9
    %x11 = vm.optimization_barrier %k10 : i32
    vm.buffer.fill.i32 %v5, %x7, %x9, %x11 : i32 -> !vm.buffer
    vm.return
  }

  // the source range 4..8 runs past an 8-byte buffer
  vm.export @fail_buffer_copy_past_end
  vm.func @fail_buffer_copy_past_end() {
    %k1 = vm.const.i64 8
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 8
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i32 8
    %x9 = vm.optimization_barrier %k8 : i32
    %v10 = vm.buffer.alloc %x7, %x9 : !vm.buffer
    %k11 = vm.const.i64 4
    %x12 = vm.optimization_barrier %k11 : i64
    %k13 = vm.const.i64 0
    %x14 = vm.optimization_barrier %k13 : i64
    %k15 = vm.const.i64 5
    %x16 = vm.optimization_barrier %k15 : i64
    vm.buffer.copy %v5, %x12, %v10, %x14, %x16 : !vm.buffer -> !vm.buffer
    vm.return
  }

  vm.export @fail_buffer_clone_past_end
  vm.func @fail_buffer_clone_past_end() {
    %k1 = vm.const.i64 8
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 2
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i64 7
    %x9 = vm.optimization_barrier %k8 : i64
    %k10 = vm.const.i32 8
    %x11 = vm.optimization_barrier %k10 : i32
    %v12 = vm.buffer.clone %v5, %x7, %x9, %x11 : !vm.buffer -> !vm.buffer
    vm.optimization_barrier %v12 : !vm.buffer
    vm.return
  }

  vm.export @fail_buffer_compare_past_end
  vm.func @fail_buffer_compare_past_end() {
    %k1 = vm.const.i64 8
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 4
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i32 8
    %x9 = vm.optimization_barrier %k8 : i32
    %v10 = vm.buffer.alloc %x7, %x9 : !vm.buffer
    %k11 = vm.const.i64 0
    %x12 = vm.optimization_barrier %k11 : i64
    %k13 = vm.const.i64 6
    %x14 = vm.optimization_barrier %k13 : i64
    %v15 = vm.buffer.compare %v5, %x12, %v10, %x12, %x14 : !vm.buffer, !vm.buffer
    vm.optimization_barrier %v15 : i32
    vm.return
  }

  vm.export @fail_buffer_hash_past_end
  vm.func @fail_buffer_hash_past_end() {
    %k1 = vm.const.i64 8
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i64 4
    %x7 = vm.optimization_barrier %k6 : i64
    %k8 = vm.const.i64 5
    %x9 = vm.optimization_barrier %k8 : i64
    %v10 = vm.buffer.hash %v5, %x7, %x9 : !vm.buffer -> i64
    vm.optimization_barrier %v10 : i64
    vm.return
  }

  // rodata buffers are immutable
  vm.export @fail_buffer_store_rodata
  vm.func @fail_buffer_store_rodata() {
    %v1 = vm.const.ref.rodata @ro_i32 : !vm.buffer
    %k2 = vm.const.i64 0
    %x3 = vm.optimization_barrier %k2 : i64
    %k4 = vm.const.i32 5
    %x5 = vm.optimization_barrier %k4 : i32
    vm.buffer.store.i32 %x5, %v1[%x3] : i32 -> !vm.buffer
    vm.return
  }

  vm.export @fail_buffer_fill_rodata
  vm.func @fail_buffer_fill_rodata() {
    %v1 = vm.const.ref.rodata @ro_bytes : !vm.buffer
    %k2 = vm.const.i64 0
    %x3 = vm.optimization_barrier %k2 : i64
    %k4 = vm.const.i64 1
    %x5 = vm.optimization_barrier %k4 : i64
    %k6 = vm.const.i32 0
    %x7 = vm.optimization_barrier %k6 : i32
    vm.buffer.fill.i8 %v1, %x3, %x5, %x7 : i32 -> !vm.buffer
    vm.return
  }

  vm.export @fail_buffer_copy_into_rodata
  vm.func @fail_buffer_copy_into_rodata() {
    %k1 = vm.const.i64 8
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %v6 = vm.const.ref.rodata @ro_bytes : !vm.buffer
    %k7 = vm.const.i64 0
    %x8 = vm.optimization_barrier %k7 : i64
    %k9 = vm.const.i64 4
    %x10 = vm.optimization_barrier %k9 : i64
    vm.buffer.copy %v5, %x8, %v6, %x8, %x10 : !vm.buffer -> !vm.buffer
    vm.return
  }

  // a null buffer operand is an error
  vm.export @fail_buffer_length_null
  vm.func @fail_buffer_length_null() {
    %n1 = vm.const.ref.zero : !vm.buffer
    %x2 = vm.optimization_barrier %n1 : !vm.buffer
    %v3 = vm.buffer.length %x2 : !vm.buffer -> i64
    vm.optimization_barrier %v3 : i64
    vm.return
  }
}
