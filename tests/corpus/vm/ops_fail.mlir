// Ember VM op conformance: failures. vm.fail with several status codes and
// with no message, vm.cond_fail with true/false conditions, status 0 (vm.fail
// then does nothing and execution falls through to the next block in layout;
// vm.cond_fail with status 0 is not tested because its fail block comes last), failures raised in nested
// frames and failures while refs are live.
vm.module @ops_fail {
  vm.global.i32 private mutable @counter : i32
  // Status 0 read at run time: iree-compile rejects a vm.fail whose status it
  // can prove to be 0.
  vm.global.i32 private mutable @status_zero : i32
  // vm.fail with status 1
  vm.export @fail_code_cancelled
  vm.func @fail_code_cancelled() {
    %k1 = vm.const.i32 1
    %x2 = vm.optimization_barrier %k1 : i32
    vm.fail %x2, "raised cancelled"
  }

  // vm.fail with status 3
  vm.export @fail_code_invalid_argument
  vm.func @fail_code_invalid_argument() {
    %k1 = vm.const.i32 3
    %x2 = vm.optimization_barrier %k1 : i32
    vm.fail %x2, "raised invalid_argument"
  }

  // vm.fail with status 9
  vm.export @fail_code_failed_precondition
  vm.func @fail_code_failed_precondition() {
    %k1 = vm.const.i32 9
    %x2 = vm.optimization_barrier %k1 : i32
    vm.fail %x2, "raised failed_precondition"
  }

  // vm.fail with status 11
  vm.export @fail_code_out_of_range
  vm.func @fail_code_out_of_range() {
    %k1 = vm.const.i32 11
    %x2 = vm.optimization_barrier %k1 : i32
    vm.fail %x2, "raised out_of_range"
  }

  // vm.fail with status 13
  vm.export @fail_code_internal
  vm.func @fail_code_internal() {
    %k1 = vm.const.i32 13
    %x2 = vm.optimization_barrier %k1 : i32
    vm.fail %x2, "raised internal"
  }

  // vm.fail with status 16
  vm.export @fail_code_unauthenticated
  vm.func @fail_code_unauthenticated() {
    %k1 = vm.const.i32 16
    %x2 = vm.optimization_barrier %k1 : i32
    vm.fail %x2, "raised unauthenticated"
  }

  // vm.fail with status 18
  vm.export @fail_code_incompatible
  vm.func @fail_code_incompatible() {
    %k1 = vm.const.i32 18
    %x2 = vm.optimization_barrier %k1 : i32
    vm.fail %x2, "raised incompatible"
  }

  // vm.fail with no message
  vm.export @fail_without_message
  vm.func @fail_without_message() {
    %k1 = vm.const.i32 2
    %x2 = vm.optimization_barrier %k1 : i32
    vm.fail %x2
  }

  // cond_fail with a non-zero condition (-1) fails
  vm.export @fail_cond_fail_true
  vm.func @fail_cond_fail_true() {
    %k1 = vm.const.i32 -1
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 10
    %x4 = vm.optimization_barrier %k3 : i32
    vm.cond_fail %x2, %x4, "condition set"
    vm.return
  }

  // cond_fail with a zero condition does nothing
  vm.export @test_cond_fail_false
  vm.func @test_cond_fail_false() {
    %k1 = vm.const.i32 0
    %x2 = vm.optimization_barrier %k1 : i32
    %k3 = vm.const.i32 10
    %x4 = vm.optimization_barrier %k3 : i32
    vm.cond_fail %x2, %x4, "condition clear"
    %k5 = vm.const.i32 5
    %x6 = vm.optimization_barrier %k5 : i32
    %k7 = vm.const.i32 5
    vm.check.eq %x6, %k7, "execution continues" : i32
    vm.return
  }

  // a failure after side effects on globals still fails the call
  vm.export @fail_after_work
  vm.func @fail_after_work() {
    %k1 = vm.const.i32 41
    %x2 = vm.optimization_barrier %k1 : i32
    vm.global.store.i32 %x2, @counter : i32
    %k3 = vm.const.i32 1
    %x4 = vm.optimization_barrier %k3 : i32
    %k5 = vm.const.i32 6
    %x6 = vm.optimization_barrier %k5 : i32
    vm.cond_fail %x4, %x6, "late failure"
    vm.return
  }

  // vm.fail with status 0 does nothing: execution continues with the next
  // instruction, which here is the block laid out after the fail, ^next.
  vm.export @test_fail_code_zero_is_noop
  vm.func @test_fail_code_zero_is_noop() {
    %k1 = vm.const.i32 1
    %one = vm.optimization_barrier %k1 : i32
    %zero = vm.global.load.i32 @status_zero : i32
    vm.cond_br %one, ^fail_zero, ^next
  ^fail_zero:
    vm.fail %zero, "status 0 is not an error"
  ^next:
    vm.return
  }

  vm.func private @fails_when_odd(%x: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %c1 = vm.const.i32 1
    %odd = vm.and.i32 %x, %c1 : i32
    %code = vm.const.i32 9
    vm.cond_fail %odd, %code, "odd"
    vm.return %x : i32
  }
  vm.func private @middle(%x: i32) -> i32 attributes {inlining_policy = #util.inline.never} {
    %r = vm.call @fails_when_odd(%x) : (i32) -> i32
    %c2 = vm.const.i32 2
    %s = vm.mul.i32 %r, %c2 : i32
    vm.return %s : i32
  }

  // a failure two frames down unwinds to the host
  vm.export @fail_nested
  vm.func @fail_nested() {
    %k1 = vm.const.i32 7
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.call @middle(%x2) : (i32) -> i32
    vm.optimization_barrier %v3 : i32
    vm.return
  }

  vm.export @test_nested_no_failure
  vm.func @test_nested_no_failure() {
    %k1 = vm.const.i32 8
    %x2 = vm.optimization_barrier %k1 : i32
    %v3 = vm.call @middle(%x2) : (i32) -> i32
    %k4 = vm.const.i32 16
    vm.check.eq %v3, %k4, "middle(8)" : i32
    vm.return
  }

  // failing while refs are live must still fail cleanly (and release them)
  vm.export @fail_with_live_refs
  vm.func @fail_with_live_refs() {
    %k1 = vm.const.i64 32
    %x2 = vm.optimization_barrier %k1 : i64
    %k3 = vm.const.i32 8
    %x4 = vm.optimization_barrier %k3 : i32
    %v5 = vm.buffer.alloc %x2, %x4 : !vm.buffer
    %k6 = vm.const.i32 2
    %x7 = vm.optimization_barrier %k6 : i32
    %v8 = vm.list.alloc %x7 : (i32) -> !vm.list<?>
    vm.list.resize %v8, %x7 : (!vm.list<?>, i32)
    %k9 = vm.const.i32 0
    %x10 = vm.optimization_barrier %k9 : i32
    vm.list.set.ref %v8, %x10, %v5 : (!vm.list<?>, i32, !vm.buffer)
    %k11 = vm.const.i32 14
    %x12 = vm.optimization_barrier %k11 : i32
    vm.fail %x12, "with refs held"
  }
}
