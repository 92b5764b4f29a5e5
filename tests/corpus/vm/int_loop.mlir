// Ember VM corpus: i32/i64 integer arithmetic and loops built from raw
// vm.br / vm.cond_br blocks, plus a mutable i32 module global.
//   sum_to(n: i32) -> i32           0 + 1 + ... + n (loop)
//   factorial_i64(n: i64) -> i64    n! computed with i64 multiply (loop)
//   gcd(a: i32, b: i32) -> i32      Euclid with vm.rem.i32.u
//   mix_i64(a: i64, b: i32) -> i64  shifts, xor, sign extension, min/max
//   bump() -> i32                   increments a mutable global and returns it
vm.module @int_loop {
  vm.global.i32 private mutable @calls = 0 : i32

  vm.export @sum_to
  vm.func @sum_to(%n: i32) -> i32 {
    %zero = vm.const.i32 0
    %one = vm.const.i32 1
    vm.br ^head(%zero, %zero : i32, i32)
  ^head(%i: i32, %acc: i32):
    %done = vm.cmp.gt.i32.s %i, %n : i32
    vm.cond_br %done, ^exit(%acc : i32), ^body(%i, %acc : i32, i32)
  ^body(%bi: i32, %bacc: i32):
    %nacc = vm.add.i32 %bacc, %bi : i32
    %ni = vm.add.i32 %bi, %one : i32
    vm.br ^head(%ni, %nacc : i32, i32)
  ^exit(%result: i32):
    vm.return %result : i32
  }

  vm.export @factorial_i64
  vm.func @factorial_i64(%n: i64) -> i64 {
    %one = vm.const.i64 1
    vm.br ^head(%n, %one : i64, i64)
  ^head(%k: i64, %acc: i64):
    %more = vm.cmp.gt.i64.s %k, %one : i64
    vm.cond_br %more, ^body(%k, %acc : i64, i64), ^exit(%acc : i64)
  ^body(%bk: i64, %bacc: i64):
    %nacc = vm.mul.i64 %bacc, %bk : i64
    %nk = vm.sub.i64 %bk, %one : i64
    vm.br ^head(%nk, %nacc : i64, i64)
  ^exit(%result: i64):
    vm.return %result : i64
  }

  vm.export @gcd
  vm.func @gcd(%a: i32, %b: i32) -> i32 {
    vm.br ^head(%a, %b : i32, i32)
  ^head(%x: i32, %y: i32):
    %nz = vm.cmp.nz.i32 %y : i32
    vm.cond_br %nz, ^body(%x, %y : i32, i32), ^exit(%x : i32)
  ^body(%bx: i32, %by: i32):
    %r = vm.rem.i32.u %bx, %by : i32
    vm.br ^head(%by, %r : i32, i32)
  ^exit(%g: i32):
    vm.return %g : i32
  }

  vm.export @mix_i64
  vm.func @mix_i64(%a: i64, %b: i32) -> i64 {
    %c3 = vm.const.i32 3
    %wide = vm.ext.i32.i64.s %b : i32 -> i64
    %shl = vm.shl.i64 %a, %c3 : i64
    %x = vm.xor.i64 %shl, %wide : i64
    %lo = vm.min.i64.s %x, %a : i64
    %hi = vm.max.i64.s %x, %a : i64
    %r = vm.sub.i64 %hi, %lo : i64
    vm.return %r : i64
  }

  vm.export @bump
  vm.func @bump() -> i32 {
    %one = vm.const.i32 1
    %old = vm.global.load.i32 @calls : i32
    %new = vm.add.i32 %old, %one : i32
    vm.global.store.i32 %new, @calls : i32
    vm.return %new : i32
  }
}
