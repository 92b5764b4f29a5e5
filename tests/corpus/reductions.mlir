// Ember corpus: reductions with linalg.reduce / linalg.generic.
//   row_sum(x: 4x8xf32) -> 4xf32          sum along the innermost axis
//   col_max(x: 4x8xf32) -> 8xf32          max along the outer axis
//   total(x: 4x8xf32) -> tensor<f32>      sum of everything (rank-0 result)
//   mean_var(x: 64xf32) -> (tensor<f32>, tensor<f32>)   mean and variance
//   argmax(x: 16xf32) -> tensor<i32>      index of the largest element
func.func @row_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

func.func @col_max(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%init : tensor<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<8xf32>
}

func.func @total(%x: tensor<4x8xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

func.func @mean_var(%x: tensor<64xf32>) -> (tensor<f32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %empty = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%x : tensor<64xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %sum_s = tensor.extract %sum[] : tensor<f32>
  %mean_s = arith.divf %sum_s, %n : f32
  %sq = linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
      iterator_types = ["reduction"]}
      ins(%x : tensor<64xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %d = arith.subf %in, %mean_s : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %sq_s = tensor.extract %sq[] : tensor<f32>
  %var_s = arith.divf %sq_s, %n : f32
  %mean = tensor.from_elements %mean_s : tensor<f32>
  %var = tensor.from_elements %var_s : tensor<f32>
  return %mean, %var : tensor<f32>, tensor<f32>
}

func.func @argmax(%x: tensor<16xf32>) -> tensor<i32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<f32>
  %ei = tensor.empty() : tensor<i32>
  %iv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<f32>) -> tensor<f32>
  %ii = linalg.fill ins(%c0 : i32) outs(%ei : tensor<i32>) -> tensor<i32>
  %r:2 = linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>],
      iterator_types = ["reduction"]}
      ins(%x : tensor<16xf32>) outs(%iv, %ii : tensor<f32>, tensor<i32>) {
  ^bb0(%in: f32, %best: f32, %besti: i32):
    %idx = linalg.index 0 : index
    %i = arith.index_cast %idx : index to i32
    %gt = arith.cmpf ogt, %in, %best : f32
    %nb = arith.select %gt, %in, %best : f32
    %ni = arith.select %gt, %i, %besti : i32
    linalg.yield %nb, %ni : f32, i32
  } -> (tensor<f32>, tensor<i32>)
  return %r#1 : tensor<i32>
}
