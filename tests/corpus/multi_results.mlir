// Ember corpus: several results from one function, mixing tensors, scalars
// and a pass-through argument.
//   sum_diff_prod(a, b: 8xf32) -> (8xf32, 8xf32, 8xf32)   a+b, a-b, a*b
//   split_stats(x: 2x4xf32) -> (4xf32, 4xf32, f32)         the two rows and the
//                                                           sum of row 0 as a scalar
//   passthrough(x: 3xi32, k: i64) -> (i64, 3xi32, i64)      args echoed back; k+1
func.func @sum_diff_prod(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %s = arith.addf %a, %b : tensor<8xf32>
  %d = arith.subf %a, %b : tensor<8xf32>
  %p = arith.mulf %a, %b : tensor<8xf32>
  return %s, %d, %p : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

func.func @split_stats(%x: tensor<2x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, f32) {
  %r0 = tensor.extract_slice %x[0, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
  %r1 = tensor.extract_slice %x[1, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%r0 : tensor<4xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %s = tensor.extract %sum[] : tensor<f32>
  return %r0, %r1, %s : tensor<4xf32>, tensor<4xf32>, f32
}

func.func @passthrough(%x: tensor<3xi32>, %k: i64) -> (i64, tensor<3xi32>, i64) {
  %c1 = arith.constant 1 : i64
  %k1 = arith.addi %k, %c1 : i64
  return %k, %x, %k1 : i64, tensor<3xi32>, i64
}
