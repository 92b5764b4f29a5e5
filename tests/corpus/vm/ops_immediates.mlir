// Ember VM op conformance: constant operands of vm.fma.i32 and of f32
// arithmetic. Ember's executable copy (runtime/vm/executable_code.h) puts a
// 16-bit i32 constant into an fma.i32 operand slot (addend first, else the
// factor, moved to the middle when it is on the left), and an f32 constant
// whose bit pattern is a bfloat16 (low 16 bits zero) into the slot of
// add/sub/mul.f32 and of the fma.f32 factor, as its high half. These
// functions check each form, the values that must stay in registers (too
// large, not bfloat16-exact), constants on the left, and bit patterns that
// are easy to get wrong: infinity, NaN, and a fused multiply-add whose
// product is not exact.
//
// Shape: the copy only treats a register as a constant when the function
// writes it once, by vm.const, in the entry block. The compiler reuses a
// register once its value is dead, so each function runs its checks inside
// a two-iteration loop, which keeps every constant live (and so in its own
// register) throughout. The operands x, y, ... come from a vm.list, which
// the compiler cannot fold, so they are not constants.
vm.module @ops_immediates {
  vm.export @test_fma_i32_constant_operands
  vm.func @test_fma_i32_constant_operands() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %c3 = vm.const.i32 3
    %list = vm.list.alloc %c3 : (i32) -> !vm.list<i32>
    vm.list.resize %list, %c3 : (!vm.list<i32>, i32)
    %kx = vm.const.i32 1000
    %ky = vm.const.i32 -7
    %kz = vm.const.i32 123456
    vm.list.set.i32 %list, %c0, %kx : (!vm.list<i32>, i32, i32)
    vm.list.set.i32 %list, %c1, %ky : (!vm.list<i32>, i32, i32)
    vm.list.set.i32 %list, %c2, %kz : (!vm.list<i32>, i32, i32)
    %x = vm.list.get.i32 %list, %c0 : (!vm.list<i32>, i32) -> i32
    %y = vm.list.get.i32 %list, %c1 : (!vm.list<i32>, i32) -> i32
    %z = vm.list.get.i32 %list, %c2 : (!vm.list<i32>, i32) -> i32
    %c12345 = vm.const.i32 12345
    %cmin = vm.const.i32 -32768
    %cm3 = vm.const.i32 -3
    %c300 = vm.const.i32 300
    %c5 = vm.const.i32 5
    %c9 = vm.const.i32 9
    %cbig = vm.const.i32 100000
    %cbig2 = vm.const.i32 70000
    %clcg = vm.const.i32 1103515245
    %e1 = vm.const.i32 5345
    %e2 = vm.const.i32 -39768
    %e3 = vm.const.i32 120456
    %e4 = vm.const.i32 121356
    %e5 = vm.const.i32 5009
    %e6 = vm.const.i32 100070000
    %e7 = vm.const.i32 -784530055
    vm.br ^loop(%c0 : i32)
  ^loop(%i: i32):
    %more = vm.cmp.lt.i32.s %i, %c2 : i32
    vm.cond_br %more, ^body, ^done
  ^body:
    // x * y + 12345: constant addend.
    %f1 = vm.fma.i32 %x, %y, %c12345 : i32
    vm.check.eq %f1, %e1, "x * y + 12345" : i32
    // x * y - 32768: the most negative addend.
    %f2 = vm.fma.i32 %x, %y, %cmin : i32
    vm.check.eq %f2, %e2, "x * y - 32768" : i32
    // x * -3 + z: constant factor.
    %f3 = vm.fma.i32 %x, %cm3, %z : i32
    vm.check.eq %f3, %e3, "x * -3 + z" : i32
    // 300 * y + z: constant factor on the left.
    %f4 = vm.fma.i32 %c300, %y, %z : i32
    vm.check.eq %f4, %e4, "300 * y + z" : i32
    // x * 5 + 9: both constant (the addend is taken, 5 stays a register).
    %f5 = vm.fma.i32 %x, %c5, %c9 : i32
    vm.check.eq %f5, %e5, "x * 5 + 9" : i32
    // x * 100000 + 70000: neither fits in 16 bits.
    %f6 = vm.fma.i32 %x, %cbig, %cbig2 : i32
    vm.check.eq %f6, %e6, "x * 100000 + 70000" : i32
    // Wrap-around: z * 1103515245 + 12345 modulo 2^32.
    %f7 = vm.fma.i32 %z, %clcg, %c12345 : i32
    vm.check.eq %f7, %e7, "LCG step" : i32
    %i1 = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%i1 : i32)
  ^done:
    vm.return
  }

  vm.export @test_f32_constant_operands
  vm.func @test_f32_constant_operands() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %list = vm.list.alloc %c2 : (i32) -> !vm.list<f32>
    vm.list.resize %list, %c2 : (!vm.list<f32>, i32)
    %kx = vm.const.f32 3.0
    %ky = vm.const.f32 -0.75
    vm.list.set.f32 %list, %c0, %kx : (!vm.list<f32>, i32, f32)
    vm.list.set.f32 %list, %c1, %ky : (!vm.list<f32>, i32, f32)
    %x = vm.list.get.f32 %list, %c0 : (!vm.list<f32>, i32) -> f32
    %y = vm.list.get.f32 %list, %c1 : (!vm.list<f32>, i32) -> f32
    %half = vm.const.f32 0.5
    %c125 = vm.const.f32 1.25
    %cm2 = vm.const.f32 -2.0
    %tenth = vm.const.f32 0.1
    %big = vm.const.f32 1.0e10
    %inf = vm.const.f32 0x7F800000
    %nan = vm.const.f32 0x7FC00000
    %e1 = vm.const.f32 3.5
    %e2 = vm.const.f32 -0.25
    %e3 = vm.const.f32 1.75
    %e4 = vm.const.f32 -1.75
    %e5 = vm.const.f32 1.5
    %e6 = vm.const.f32 -6.0
    %e7 = vm.const.f32 3.0999999046325684
    %e8 = vm.const.f32 3.0e10
    %einf = vm.const.i32 2139095040
    %mask = vm.const.i32 2147483647
    vm.br ^loop(%c0 : i32)
  ^loop(%i: i32):
    %more = vm.cmp.lt.i32.s %i, %c2 : i32
    vm.cond_br %more, ^body, ^done
  ^body:
    %a1 = vm.add.f32 %x, %half : f32
    vm.check.eq %a1, %e1, "x + 0.5" : f32
    %a2 = vm.add.f32 %half, %y : f32
    vm.check.eq %a2, %e2, "0.5 + y (constant on the left)" : f32
    %s1 = vm.sub.f32 %x, %c125 : f32
    vm.check.eq %s1, %e3, "x - 1.25" : f32
    %s2 = vm.sub.f32 %c125, %x : f32
    vm.check.eq %s2, %e4, "1.25 - x (constant on the left, kept)" : f32
    %m1 = vm.mul.f32 %y, %cm2 : f32
    vm.check.eq %m1, %e5, "y * -2" : f32
    %m2 = vm.mul.f32 %cm2, %x : f32
    vm.check.eq %m2, %e6, "-2 * x (constant on the left)" : f32
    // 0.1 is not a bfloat16: it stays a register, and the sum is rounded
    // once, from the exact f32 value of 0.1.
    %a3 = vm.add.f32 %x, %tenth : f32
    vm.check.eq %a3, %e7, "x + 0.1" : f32
    // 1e10 is exact in f32 (0x501502F9) but not a bfloat16.
    %m3 = vm.mul.f32 %x, %big : f32
    vm.check.eq %m3, %e8, "x * 1e10" : f32
    // Bit patterns: y + inf is inf (0x7F800000), x * NaN is a NaN. (-0.0
    // cannot be tested this way: the compiler turns vm.const.f32 -0.0 into
    // vm.const.f32.zero and folds y * 0.0 to +0.0.)
    %i1v = vm.add.f32 %y, %inf : f32
    %i1b = vm.bitcast.f32.i32 %i1v : f32 -> i32
    vm.check.eq %i1b, %einf, "y + inf" : i32
    %n1 = vm.mul.f32 %x, %nan : f32
    %n1b = vm.bitcast.f32.i32 %n1 : f32 -> i32
    %n1m = vm.and.i32 %n1b, %mask : i32
    %isnan = vm.cmp.lt.i32.s %einf, %n1m : i32
    vm.check.eq %isnan, %c1, "x * NaN is a NaN" : i32
    %i1 = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%i1 : i32)
  ^done:
    vm.return
  }

  // fma.f32 with a constant factor, on products that are exact (so one
  // rounding and two agree).
  vm.export @test_fma_f32_constant_factor
  vm.func @test_fma_f32_constant_factor() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %list = vm.list.alloc %c2 : (i32) -> !vm.list<f32>
    vm.list.resize %list, %c2 : (!vm.list<f32>, i32)
    %kx = vm.const.f32 3.0
    %kc = vm.const.f32 -1.25
    vm.list.set.f32 %list, %c0, %kx : (!vm.list<f32>, i32, f32)
    vm.list.set.f32 %list, %c1, %kc : (!vm.list<f32>, i32, f32)
    %x = vm.list.get.f32 %list, %c0 : (!vm.list<f32>, i32) -> f32
    %c = vm.list.get.f32 %list, %c1 : (!vm.list<f32>, i32) -> f32
    %half = vm.const.f32 0.5
    %cm4 = vm.const.f32 -4.0
    // 0.75 + 2^-20 is not a bfloat16: it stays a register.
    %k = vm.const.f32 0.75000095367431640625
    %e1 = vm.const.f32 0.25
    %e2 = vm.const.f32 -13.25
    %e3 = vm.const.f32 1.00000286102294921875
    vm.br ^loop(%c0 : i32)
  ^loop(%i: i32):
    %more = vm.cmp.lt.i32.s %i, %c2 : i32
    vm.cond_br %more, ^body, ^done
  ^body:
    %f1 = vm.fma.f32 %x, %half, %c : f32
    vm.check.eq %f1, %e1, "x * 0.5 - 1.25 (factor on the right)" : f32
    %f2 = vm.fma.f32 %cm4, %x, %c : f32
    vm.check.eq %f2, %e2, "-4 * x - 1.25 (factor on the left)" : f32
    %f3 = vm.fma.f32 %x, %k, %c : f32
    vm.check.eq %f3, %e3, "x * (0.75 + 2^-20) - 1.25" : f32
    %i1 = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%i1 : i32)
  ^done:
    vm.return
  }

  // The same with a product that is not exact. vm.fma.f32 is defined as
  // fused (one rounding): with p = 1 + 2^-23, 1.5 * p needs 25 significant
  // bits, and 1.5 * p - 1.5 is exactly 1.5 * 2^-23. The iree-base-runtime
  // 3.11 wheel rounds the product first (its vm_fma_f32 is fused only when
  // the C library defines FP_FAST_FMAF) and returns 2^-22, hence ember_only.
  vm.export @test_ember_only_fma_f32_fused_constant_factor
  vm.func @test_ember_only_fma_f32_fused_constant_factor() {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %list = vm.list.alloc %c2 : (i32) -> !vm.list<f32>
    vm.list.resize %list, %c2 : (!vm.list<f32>, i32)
    %kp = vm.const.f32 1.00000011920928955078125
    %kc = vm.const.f32 -1.5
    vm.list.set.f32 %list, %c0, %kp : (!vm.list<f32>, i32, f32)
    vm.list.set.f32 %list, %c1, %kc : (!vm.list<f32>, i32, f32)
    %p = vm.list.get.f32 %list, %c0 : (!vm.list<f32>, i32) -> f32
    %c = vm.list.get.f32 %list, %c1 : (!vm.list<f32>, i32) -> f32
    %k15 = vm.const.f32 1.5
    %e1 = vm.const.f32 1.78813934326171875e-07
    vm.br ^loop(%c0 : i32)
  ^loop(%i: i32):
    %more = vm.cmp.lt.i32.s %i, %c2 : i32
    vm.cond_br %more, ^body, ^done
  ^body:
    %f1 = vm.fma.f32 %p, %k15, %c : f32
    vm.check.eq %f1, %e1, "p * 1.5 - 1.5 (factor on the right)" : f32
    %f2 = vm.fma.f32 %k15, %p, %c : f32
    vm.check.eq %f2, %e1, "1.5 * p - 1.5 (factor on the left)" : f32
    %i1 = vm.add.i32 %i, %c1 : i32
    vm.br ^loop(%i1 : i32)
  ^done:
    vm.return
  }
}
