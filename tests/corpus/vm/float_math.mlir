// Ember VM corpus: f32 and f64 scalar math. Using f64 opcodes makes the
// module declare the EXT_F64 requirement (EXT_F32 for the f32 opcodes).
//   hypot_f32(x, y: f32) -> f32       sqrt(fma(x, x, y*y))
//   poly_f64(x: f64) -> f64           3x^2 - 2x + 0.5 with f64 fma
//   softplus_f32(x: f32) -> f32       log1p(exp(x))
//   round_trip(x: f32) -> (f64, i32)  f32->f64 widening and f32->i32 cast
//                                     (the IREE runtime rounds to nearest,
//                                     lroundf, not C truncation: -2.75 -> -3)
//   int_to_f64(x: i64) -> f64         signed i64 -> f64 conversion
//   clamp_f64(x, lo, hi: f64) -> f64  vm.max.f64 then vm.min.f64
vm.module @float_math {
  vm.export @hypot_f32
  vm.func @hypot_f32(%x: f32, %y: f32) -> f32 {
    %yy = vm.mul.f32 %y, %y : f32
    %s = vm.fma.f32 %x, %x, %yy : f32
    %r = vm.sqrt.f32 %s : f32
    vm.return %r : f32
  }

  vm.export @poly_f64
  vm.func @poly_f64(%x: f64) -> f64 {
    %c3 = vm.const.f64 3.0
    %cm2 = vm.const.f64 -2.0
    %chalf = vm.const.f64 0.5
    %t = vm.fma.f64 %c3, %x, %cm2 : f64
    %r = vm.fma.f64 %t, %x, %chalf : f64
    vm.return %r : f64
  }

  vm.export @softplus_f32
  vm.func @softplus_f32(%x: f32) -> f32 {
    %e = vm.exp.f32 %x : f32
    %r = vm.log1p.f32 %e : f32
    vm.return %r : f32
  }

  vm.export @round_trip
  vm.func @round_trip(%x: f32) -> (f64, i32) {
    %w = vm.ext.f32.f64 %x : f32 -> f64
    %i = vm.cast.f32.si32 %x : f32 -> i32
    vm.return %w, %i : f64, i32
  }

  vm.export @int_to_f64
  vm.func @int_to_f64(%x: i64) -> f64 {
    %r = vm.cast.si64.f64 %x : i64 -> f64
    vm.return %r : f64
  }

  vm.export @clamp_f64
  vm.func @clamp_f64(%x: f64, %lo: f64, %hi: f64) -> f64 {
    %a = vm.max.f64 %x, %lo : f64
    %r = vm.min.f64 %a, %hi : f64
    vm.return %r : f64
  }
}
