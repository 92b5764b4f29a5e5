// Ember VM corpus: internal calls that survive inlining (noinline helpers),
// with i64 arguments and results and refs crossing frames.
//   sum_sq(a: i64, b: i64) -> i64     square(a) + square(b) via calls
//   swap_add(a: i32, b: i64) -> (i64, i32)   helper returning mixed widths
//   list_len_plus(n: i32) -> i32      helper makes a list, caller sizes it
//   deep(x: i32) -> i32               three nested noinline calls, fails
//                                     (ABORTED, 10) in the innermost when x < 0
vm.module @internal_calls {
  vm.func private @square(%x: i64) -> i64 attributes {inlining_policy = #util.inline.never} {
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
  vm.func private @mixed(%a: i32, %b: i64) -> (i64, i32) attributes {inlining_policy = #util.inline.never} {
    %w = vm.ext.i32.i64.s %a : i32 -> i64
    %s = vm.add.i64 %w, %b : i64
    %t = vm.trunc.i64.i32 %b : i64 -> i32
    vm.return %s, %t : i64, i32
  }
  vm.export @swap_add
  vm.func @swap_add(%a: i32, %b: i64) -> (i64, i32) {
    %s, %t = vm.call @mixed(%a, %b) : (i32, i64) -> (i64, i32)
    vm.return %s, %t : i64, i32
  }
  vm.func private @make(%n: i32) -> !vm.list<i32> attributes {inlining_policy = #util.inline.never} {
    %l = vm.list.alloc %n : (i32) -> !vm.list<i32>
    vm.list.resize %l, %n : (!vm.list<i32>, i32)
    vm.return %l : !vm.list<i32>
  }
  vm.export @list_len_plus
  vm.func @list_len_plus(%n: i32) -> i32 {
    %l = vm.call @make(%n) : (i32) -> !vm.list<i32>
    %s = vm.list.size %l : (!vm.list<i32>) -> i32
    %c1 = vm.const.i32 1
    %r = vm.add.i32 %s, %c1 : i32
    vm.return %r : i32
  }
  vm.func private @inner(%x: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c0 = vm.const.i32 0
    %neg = vm.cmp.lt.i32.s %x, %c0 : i32
    %code = vm.const.i32 10
    vm.cond_fail %neg, %code, "inner: negative"
    %c3 = vm.const.i32 3
    %r = vm.mul.i32 %x, %c3 : i32
    vm.return %r : i32
  }
  vm.func private @outer(%x: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %r = vm.call @inner(%x) : (i32) -> i32
    %c1 = vm.const.i32 1
    %s = vm.add.i32 %r, %c1 : i32
    vm.return %s : i32
  }
  vm.export @deep
  vm.func @deep(%x: i32) -> i32 {
    %r = vm.call @outer(%x) : (i32) -> i32
    vm.return %r : i32
  }
}
