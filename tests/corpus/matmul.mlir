// Ember corpus: matrix products with linalg named ops (static shapes).
//   matmul(a: 4x8xf32, b: 8x16xf32) -> 4x16xf32        zero-filled accumulator
//   matmul_acc(a: 4x8, b: 8x16, c: 4x16 f32) -> 4x16   c + a @ b
//   matvec(m: 8x8xf32, v: 8xf32) -> 8xf32
//   batch_matmul(a: 2x3x4xf32, b: 2x4x5xf32) -> 2x3x5xf32
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

func.func @matmul_acc(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

func.func @matvec(%m: tensor<8x8xf32>, %v: tensor<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.matvec ins(%m, %v : tensor<8x8xf32>, tensor<8xf32>)
                     outs(%acc : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x3x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>)
                           outs(%acc : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}
