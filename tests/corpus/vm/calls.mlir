// Ember VM corpus: calls between functions inside one module: a helper with
// multiple results called in a loop, a chain of nested calls, private
// helpers, a void call, and an export whose name differs from its function.
// NOTE: no recursion on purpose: iree-compile 3.11.0 hangs forever (in
// Util::GlobalTable's reachability walk) on any recursive call cycle that is
// reachable from a public function.
//   fib(n: i32) -> i32                   iterative Fibonacci via @fib_step
//   divmod(a: i32, b: i32) -> (i32, i32) signed quotient and remainder
//   sum_sq(a: i64, b: i64) -> i64        calls the private @square twice
//   chain(x: i32) -> i32                 @chain -> @stage1 -> @stage2 -> @stage3
//   alias(a: i32) -> i32                 export "alias" of function @twice_impl
//   no_args() -> ()                      calls a void helper; returns nothing
vm.module @calls {
  vm.func private @fib_step(%a: i32, %b: i32) -> (i32, i32) {
    %s = vm.add.i32 %a, %b : i32
    vm.return %b, %s : i32, i32
  }

  vm.export @fib
  vm.func @fib(%n: i32) -> i32 {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    vm.br ^head(%c0, %c0, %c1 : i32, i32, i32)
  ^head(%i: i32, %a: i32, %b: i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body(%i, %a, %b : i32, i32, i32), ^exit(%a : i32)
  ^body(%bi: i32, %ba: i32, %bb: i32):
    %na, %nb = vm.call @fib_step(%ba, %bb) : (i32, i32) -> (i32, i32)
    %ni = vm.add.i32 %bi, %c1 : i32
    vm.br ^head(%ni, %na, %nb : i32, i32, i32)
  ^exit(%r: i32):
    vm.return %r : i32
  }

  vm.func private @divmod_impl(%a: i32, %b: i32) -> (i32, i32) {
    %q = vm.div.i32.s %a, %b : i32
    %r = vm.rem.i32.s %a, %b : i32
    vm.return %q, %r : i32, i32
  }

  vm.export @divmod
  vm.func @divmod(%a: i32, %b: i32) -> (i32, i32) {
    %q, %r = vm.call @divmod_impl(%a, %b) : (i32, i32) -> (i32, i32)
    vm.return %q, %r : i32, i32
  }

  vm.func private @square(%x: i64) -> i64 {
    %r = vm.mul.i64 %x, %x : i64
    vm.return %r : i64
  }

  vm.export @sum_sq
  vm.func @sum_sq(%a: i64, %b: i64) -> i64 {
    %a2 = vm.call @square(%a) : (i64) -> i64
    %b2 = vm.call @square(%b) : (i64) -> i64
    %r = vm.add.i64 %a2, %b2 : i64
    vm.return %r : i64
  }

  vm.func private @stage3(%x: i32) -> i32 {
    %c7 = vm.const.i32 7
    %r = vm.mul.i32 %x, %c7 : i32
    vm.return %r : i32
  }

  vm.func private @stage2(%x: i32) -> i32 {
    %c1 = vm.const.i32 1
    %y = vm.add.i32 %x, %c1 : i32
    %r = vm.call @stage3(%y) : (i32) -> i32
    vm.return %r : i32
  }

  vm.func private @stage1(%x: i32) -> i32 {
    %c2 = vm.const.i32 2
    %y = vm.mul.i32 %x, %c2 : i32
    %r = vm.call @stage2(%y) : (i32) -> i32
    vm.return %r : i32
  }

  vm.export @chain
  vm.func @chain(%x: i32) -> i32 {
    %r = vm.call @stage1(%x) : (i32) -> i32
    vm.return %r : i32
  }

  vm.export @twice_impl as("alias")
  vm.func @twice_impl(%a: i32) -> i32 {
    %r = vm.add.i32 %a, %a : i32
    vm.return %r : i32
  }

  vm.func private @nothing() {
    vm.return
  }

  vm.export @no_args
  vm.func @no_args() {
    vm.call @nothing() : () -> ()
    vm.return
  }
}
