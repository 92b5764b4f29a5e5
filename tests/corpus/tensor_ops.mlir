// Ember corpus: data movement on tensors (no arithmetic): transpose,
// concatenation, slicing, padding, broadcasting, reshapes and a gather.
//   transpose(x: 3x5xf32) -> 5x3xf32
//   concat(a: 2x3xf32, b: 4x3xf32) -> 6x3xf32
//   middle(x: 8x8xi32) -> 4x2xi32          rows 2..5, columns 1 and 4 (stride 3)
//   pad(x: 2x2xf32) -> 4x4xf32              one element of -1 padding around x
//   broadcast_rows(v: 4xf32) -> 3x4xf32     v repeated on every row
//   reshape(x: 2x3x4xi64) -> 6x4xi64 and flatten(x: 6x4xi64) -> 24xi64
//   gather(table: 10xf32, idx: 4xi32) -> 4xf32   table[idx[i]]
func.func @transpose(%x: tensor<3x5xf32>) -> tensor<5x3xf32> {
  %empty = tensor.empty() : tensor<5x3xf32>
  %r = linalg.transpose ins(%x : tensor<3x5xf32>) outs(%empty : tensor<5x3xf32>) permutation = [1, 0]
  return %r : tensor<5x3xf32>
}

func.func @concat(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  %r = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

func.func @middle(%x: tensor<8x8xi32>) -> tensor<4x2xi32> {
  %r = tensor.extract_slice %x[2, 1] [4, 2] [1, 3] : tensor<8x8xi32> to tensor<4x2xi32>
  return %r : tensor<4x2xi32>
}

func.func @pad(%x: tensor<2x2xf32>) -> tensor<4x4xf32> {
  %m1 = arith.constant -1.0 : f32
  %r = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %m1 : f32
  } : tensor<2x2xf32> to tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

func.func @broadcast_rows(%v: tensor<4xf32>) -> tensor<3x4xf32> {
  %empty = tensor.empty() : tensor<3x4xf32>
  %r = linalg.broadcast ins(%v : tensor<4xf32>) outs(%empty : tensor<3x4xf32>) dimensions = [0]
  return %r : tensor<3x4xf32>
}

func.func @reshape(%x: tensor<2x3x4xi64>) -> tensor<6x4xi64> {
  %r = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xi64> into tensor<6x4xi64>
  return %r : tensor<6x4xi64>
}

func.func @flatten(%x: tensor<6x4xi64>) -> tensor<24xi64> {
  %r = tensor.collapse_shape %x [[0, 1]] : tensor<6x4xi64> into tensor<24xi64>
  return %r : tensor<24xi64>
}

func.func @gather(%table: tensor<10xf32>, %idx: tensor<4xi32>) -> tensor<4xf32> {
  %empty = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}
      ins(%idx : tensor<4xi32>) outs(%empty : tensor<4xf32>) {
  ^bb0(%i: i32, %out: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<10xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
