// Ember VM corpus: one function exported under several names, with
// reflection attrs. Export lookup goes by name through an index, and the
// attrs are built once per function however many exports share it (a
// hostile file can point thousands of exports at one signature).
//   first / second / third(a: i32) -> i32    2 * a, attrs {owner, purpose}
//   other() -> i32                           7, no attrs
vm.module @exports {
  vm.export @twice as("first")
  vm.export @twice as("second")
  vm.export @twice as("third")
  vm.func @twice(%a: i32) -> i32 attributes {iree.reflection = {purpose = "testing", owner = "ember"}} {
    %r = vm.add.i32 %a, %a : i32
    vm.return %r : i32
  }
  vm.export @other
  vm.func @other() -> i32 {
    %c = vm.const.i32 7
    vm.return %c : i32
  }
}
