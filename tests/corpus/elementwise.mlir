// Ember corpus: elementwise f32 tensor ops (arith + math) on static shapes.
//   add / sub / mul / div (a, b: 4x8xf32) -> 4x8xf32
//   fused(a, b: 4x8xf32) -> 4x8xf32       tanh(a * b + exp(-|a|)) clamped to >= 0
//   scale_bias(x: 16xf32, s: f32, b: f32) -> 16xf32   x * s + b (scalars splat)
func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = arith.addf %a, %b : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @sub(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = arith.subf %a, %b : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @mul(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = arith.mulf %a, %b : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @div(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = arith.divf %a, %b : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @fused(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant dense<0.0> : tensor<4x8xf32>
  %abs = math.absf %a : tensor<4x8xf32>
  %neg = arith.negf %abs : tensor<4x8xf32>
  %e = math.exp %neg : tensor<4x8xf32>
  %p = arith.mulf %a, %b : tensor<4x8xf32>
  %s = arith.addf %p, %e : tensor<4x8xf32>
  %t = math.tanh %s : tensor<4x8xf32>
  %r = arith.maximumf %t, %zero : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @scale_bias(%x: tensor<16xf32>, %s: f32, %b: f32) -> tensor<16xf32> {
  %empty = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%empty : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    %a = arith.addf %m, %b : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
