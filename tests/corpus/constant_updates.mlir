// Ember corpus: programs whose kernels write into the storage of an
// imported constant (the compiler imports rodata with SHARING_IMMUTABLE and
// updates it in place), which must neither crash on a read-only module
// mapping nor change the module's bytes.
//   insert_into_constant(x: 2xf32) -> 4xf32     [1, x0, x1, 4]
//   insert_rows(x: 1x3xi32) -> 3x3xi32           row 1 of a constant replaced
func.func @insert_into_constant(%x: tensor<2xf32>) -> tensor<4xf32> {
  %c = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = tensor.insert_slice %x into %c[1] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @insert_rows(%x: tensor<1x3xi32>) -> tensor<3x3xi32> {
  %c = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %r = tensor.insert_slice %x into %c[1, 0] [1, 3] [1, 1] : tensor<1x3xi32> into tensor<3x3xi32>
  return %r : tensor<3x3xi32>
}
