// Ember sample VM-only module (no tensors, so no `hal` module needed):
//   fib(n: i32) -> i32     the n-th Fibonacci number, iteratively
vm.module @sample {
  vm.export @fib
  vm.func @fib(%n: i32) -> i32 {
    %zero = vm.const.i32 0
    %one = vm.const.i32 1
    vm.br ^loop(%n, %zero, %one : i32, i32, i32)
  ^loop(%k: i32, %a: i32, %b: i32):
    %more = vm.cmp.gt.i32.s %k, %zero : i32
    vm.cond_br %more, ^step(%k, %a, %b : i32, i32, i32), ^done(%a : i32)
  ^step(%sk: i32, %sa: i32, %sb: i32):
    %next = vm.add.i32 %sa, %sb : i32
    %left = vm.sub.i32 %sk, %one : i32
    vm.br ^loop(%left, %sb, %next : i32, i32, i32)
  ^done(%result: i32):
    vm.return %result : i32
  }
}
