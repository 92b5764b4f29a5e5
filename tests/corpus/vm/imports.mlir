// Ember VM corpus: calls into another module through imports.
//   call_add(x: i32) -> i32          native.add_one(x) * 2
//   sum_span(a, b, c: i32) -> i32    native.sum(a, [b, c]) through a variadic
//                                    import (cconv 0iCiD_i)
//   has_optional() -> i32            vm.import.resolved of an optional import
//   __init / __deinit                call native.note(1) / native.note(2)
vm.module @importer {
  vm.import private @native.add_one(%x : i32) -> i32
  vm.import private @native.sum(%a : i32, %rest : i32 ...) -> i32
  vm.import private @native.note(%x : i32)
  vm.import private optional @native.missing(%x : i32) -> i32
  vm.export @call_add
  vm.func @call_add(%x: i32) -> i32 {
    %r = vm.call @native.add_one(%x) : (i32) -> i32
    %c2 = vm.const.i32 2
    %s = vm.mul.i32 %r, %c2 : i32
    vm.return %s : i32
  }
  vm.export @sum_span
  vm.func @sum_span(%a: i32, %b: i32, %c: i32) -> i32 {
    %r = vm.call.variadic @native.sum(%a, [%b, %c]) : (i32, i32 ...) -> i32
    vm.return %r : i32
  }
  vm.export @has_optional
  vm.func @has_optional() -> i32 {
    %r = vm.import.resolved @native.missing : i32
    vm.return %r : i32
  }
  vm.export @__init
  vm.func @__init() {
    %c1 = vm.const.i32 1
    vm.call @native.note(%c1) : (i32) -> ()
    vm.return
  }
  vm.export @__deinit
  vm.func @__deinit() {
    %c2 = vm.const.i32 2
    vm.call @native.note(%c2) : (i32) -> ()
    vm.return
  }
}
