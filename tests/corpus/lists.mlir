// Ember corpus: !util.list values crossing the ABI (lists of tensors and
// scalars as arguments and results; they become !vm.list<?> at runtime, with
// tensors stored as hal.buffer_view refs). Core iree-compile has no tuple
// support in signatures, so lists are the list/tuple coverage.
//   list_size(l: list<?>) -> index
//   sum_pair(l: list<?>) -> 4xf32        l[0] + l[1], both 4xf32 tensors
//   make_list(a: 4xf32, n: i32) -> list<?>   [a, a * 2, n, n as i64]
//   scalar_list(a: i64, b: i64) -> list<i64>  typed list [a, b, a + b]
//   nested(a: 4xf32) -> list<?>          [[a], 7] (a list inside a list)
func.func @list_size(%l: !util.list<?>) -> index {
  %n = util.list.size %l : !util.list<?>
  return %n : index
}

func.func @sum_pair(%l: !util.list<?>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // Tensors cannot be read straight out of a list (the stream conversion
  // fails); read the buffer views and import them explicitly instead.
  %va = util.list.get %l[%c0] : !util.list<?> -> !hal.buffer_view
  %vb = util.list.get %l[%c1] : !util.list<?> -> !hal.buffer_view
  %a = hal.tensor.import %va "l[0]" : !hal.buffer_view -> tensor<4xf32>
  %b = hal.tensor.import %vb "l[1]" : !hal.buffer_view -> tensor<4xf32>
  %s = arith.addf %a, %b : tensor<4xf32>
  return %s : tensor<4xf32>
}

func.func @make_list(%a: tensor<4xf32>, %n: i32) -> !util.list<?> {
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %a2 = arith.mulf %a, %two : tensor<4xf32>
  %wide = arith.extsi %n : i32 to i64
  // Likewise tensors are exported to buffer views before entering a list.
  %va = hal.tensor.export %a "a" : tensor<4xf32> -> !hal.buffer_view
  %va2 = hal.tensor.export %a2 "a2" : tensor<4xf32> -> !hal.buffer_view
  %l = util.list.construct [%va : !hal.buffer_view, %va2 : !hal.buffer_view, %n : i32, %wide : i64] : !util.list<?>
  return %l : !util.list<?>
}

func.func @scalar_list(%a: i64, %b: i64) -> !util.list<i64> {
  %s = arith.addi %a, %b : i64
  %l = util.list.construct [%a : i64, %b : i64, %s : i64] : !util.list<i64>
  return %l : !util.list<i64>
}

func.func @nested(%a: tensor<4xf32>) -> !util.list<?> {
  %c7 = arith.constant 7 : i32
  %va = hal.tensor.export %a "a" : tensor<4xf32> -> !hal.buffer_view
  %inner = util.list.construct [%va : !hal.buffer_view] : !util.list<?>
  %outer = util.list.construct [%inner : !util.list<?>, %c7 : i32] : !util.list<?>
  return %outer : !util.list<?>
}
