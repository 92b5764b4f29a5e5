// Ember VM corpus: runtime failures raised by the program itself.
//   checked_div(a: i32, b: i32) -> i32  vm.fail with INVALID_ARGUMENT (3) and
//                                        a message when b == 0, else a / b
//   must_be_positive(x: i64) -> i64     vm.cond_fail (OUT_OF_RANGE, 11) when
//                                        x <= 0, else returns x
//   nested_fail(x: i32) -> i32          fails two frames deep (FAILED_PRECONDITION,
//                                        9) when x is odd, else returns x / 2
//   always_fail() -> ()                 unconditional vm.fail (INTERNAL, 13)
vm.module @fail {
  vm.export @checked_div
  vm.func @checked_div(%a: i32, %b: i32) -> i32 {
    %zero = vm.cmp.nz.i32 %b : i32
    vm.cond_br %zero, ^ok, ^bad
  ^ok:
    %q = vm.div.i32.s %a, %b : i32
    vm.return %q : i32
  ^bad:
    %code = vm.const.i32 3
    vm.fail %code, "checked_div: division by zero"
  }

  vm.export @must_be_positive
  vm.func @must_be_positive(%x: i64) -> i64 {
    %c0 = vm.const.i64 0
    %bad = vm.cmp.lte.i64.s %x, %c0 : i64
    %code = vm.const.i32 11
    vm.cond_fail %bad, %code, "must_be_positive: value out of range"
    vm.return %x : i64
  }

  vm.func private @require_even(%x: i32) -> i32 {
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %odd = vm.and.i32 %x, %c1 : i32
    vm.cond_br %odd, ^bad, ^ok
  ^ok:
    %h = vm.div.i32.s %x, %c2 : i32
    vm.return %h : i32
  ^bad:
    %code = vm.const.i32 9
    vm.fail %code, "require_even: odd input"
  }

  vm.func private @middle(%x: i32) -> i32 {
    %r = vm.call @require_even(%x) : (i32) -> i32
    vm.return %r : i32
  }

  vm.export @nested_fail
  vm.func @nested_fail(%x: i32) -> i32 {
    %r = vm.call @middle(%x) : (i32) -> i32
    vm.return %r : i32
  }

  vm.export @always_fail
  vm.func @always_fail() {
    %code = vm.const.i32 13
    vm.fail %code, "always_fail: as designed"
  }
}
