// Ember VM op conformance: i32 arithmetic with constant operands. Ember's
// executable copy turns an operand that holds a constant of 16 signed bits
// where it is read into an immediate (runtime/vm/executable_code.h); these
// functions check every such form, the sign extension of negative values,
// constants that do not fit (left as registers), and a constant left
// operand of a non-commutative op (kept as a register).
// (executable_code_test checks which forms the copy chose.)
//
// The operands x and y come from a vm.list, which the compiler cannot
// fold, so they are not constants (vm.optimization_barrier is dropped in
// --compile-mode=vm, which made them constants before). The compiler puts
// a commutative op's constant operand on the right itself, so a constant
// on the left is only seen in a non-commutative op here.
vm.module @ops_constants {
  vm.export @test_constant_operands
  vm.func @test_constant_operands() {
    %i0 = vm.const.i32 0
    %i1 = vm.const.i32 1
    %i2 = vm.const.i32 2
    %inputs = vm.list.alloc %i2 : (i32) -> !vm.list<i32>
    vm.list.resize %inputs, %i2 : (!vm.list<i32>, i32)
    %kx = vm.const.i32 1000
    %ky = vm.const.i32 -7
    vm.list.set.i32 %inputs, %i0, %kx : (!vm.list<i32>, i32, i32)
    vm.list.set.i32 %inputs, %i1, %ky : (!vm.list<i32>, i32, i32)
    %x = vm.list.get.i32 %inputs, %i0 : (!vm.list<i32>, i32) -> i32
    %y = vm.list.get.i32 %inputs, %i1 : (!vm.list<i32>, i32) -> i32

    %cm5 = vm.const.i32 -5
    %a1 = vm.add.i32 %x, %cm5 : i32
    %e1 = vm.const.i32 995
    vm.check.eq %a1, %e1, "add -5" : i32
    %cmax = vm.const.i32 32767
    %a2 = vm.add.i32 %y, %cmax : i32
    %e2 = vm.const.i32 32760
    vm.check.eq %a2, %e2, "add 32767" : i32
    %cmin = vm.const.i32 -32768
    %a3 = vm.add.i32 %x, %cmin : i32
    %e3 = vm.const.i32 -31768
    vm.check.eq %a3, %e3, "add -32768" : i32
    %cbig = vm.const.i32 100000
    %a4 = vm.add.i32 %x, %cbig : i32
    %e4 = vm.const.i32 101000
    vm.check.eq %a4, %e4, "add 100000 (no immediate)" : i32

    %c3 = vm.const.i32 3
    %s1 = vm.sub.i32 %x, %c3 : i32
    %e5 = vm.const.i32 997
    vm.check.eq %s1, %e5, "sub 3" : i32
    %c10 = vm.const.i32 10
    %s2 = vm.sub.i32 %c10, %x : i32
    %e6 = vm.const.i32 -990
    vm.check.eq %s2, %e6, "10 - x (constant on the left)" : i32

    %cm3 = vm.const.i32 -3
    %m1 = vm.mul.i32 %x, %cm3 : i32
    %e7 = vm.const.i32 -3000
    vm.check.eq %m1, %e7, "mul -3" : i32
    %c300 = vm.const.i32 300
    %m2 = vm.mul.i32 %c300, %y : i32
    %e8 = vm.const.i32 -2100
    vm.check.eq %m2, %e8, "300 * y" : i32

    %c255 = vm.const.i32 255
    %n1 = vm.and.i32 %y, %c255 : i32
    %e9 = vm.const.i32 249
    vm.check.eq %n1, %e9, "and 255" : i32
    %cm16 = vm.const.i32 -16
    %n2 = vm.and.i32 %x, %cm16 : i32
    %e10 = vm.const.i32 992
    vm.check.eq %n2, %e10, "and -16" : i32

    %c7 = vm.const.i32 7
    %o1 = vm.or.i32 %x, %c7 : i32
    %e11 = vm.const.i32 1007
    vm.check.eq %o1, %e11, "or 7" : i32
    %o2 = vm.or.i32 %y, %cmin : i32
    vm.check.eq %o2, %ky, "or -32768" : i32

    %cm1 = vm.const.i32 -1
    %x1 = vm.xor.i32 %x, %cm1 : i32
    %e13 = vm.const.i32 -1001
    vm.check.eq %x1, %e13, "xor -1" : i32
    %x2 = vm.xor.i32 %y, %cmax : i32
    %e14 = vm.const.i32 -32762
    vm.check.eq %x2, %e14, "xor 32767" : i32

    %c4 = vm.const.i32 4
    %h1 = vm.shl.i32 %y, %c4 : i32
    %e15 = vm.const.i32 -112
    vm.check.eq %h1, %e15, "shl 4" : i32
    %c1 = vm.const.i32 1
    %h2 = vm.shr.i32.s %y, %c1 : i32
    %e16 = vm.const.i32 -4
    vm.check.eq %h2, %e16, "shr.s 1" : i32
    %c28 = vm.const.i32 28
    %h3 = vm.shr.i32.u %y, %c28 : i32
    %e17 = vm.const.i32 15
    vm.check.eq %h3, %e17, "shr.u 28" : i32
    vm.return
  }

  // A register that holds a constant only until a loop overwrites it must
  // not become an immediate: %acc starts as the constant 0 and changes.
  vm.export @test_register_constant_only_at_first
  vm.func @test_register_constant_only_at_first() {
    %k0 = vm.const.i32 0
    %k1 = vm.const.i32 1
    %inputs = vm.list.alloc %k1 : (i32) -> !vm.list<i32>
    vm.list.resize %inputs, %k1 : (!vm.list<i32>, i32)
    %kn = vm.const.i32 5
    vm.list.set.i32 %inputs, %k0, %kn : (!vm.list<i32>, i32, i32)
    %n = vm.list.get.i32 %inputs, %k0 : (!vm.list<i32>, i32) -> i32
    %zero = vm.const.i32 0
    %one = vm.const.i32 1
    vm.br ^loop(%zero, %zero : i32, i32)
  ^loop(%i: i32, %acc: i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body, ^done(%acc : i32)
  ^body:
    %t = vm.add.i32 %i, %acc : i32
    %acc1 = vm.add.i32 %t, %one : i32
    %i1 = vm.add.i32 %i, %one : i32
    vm.br ^loop(%i1, %acc1 : i32, i32)
  ^done(%r: i32):
    %e = vm.const.i32 15
    vm.check.eq %r, %e, "sum of (i + 1)" : i32
    vm.return
  }
}
