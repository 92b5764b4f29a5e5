// Ember corpus: the coarse-fences invocation model. A function marked with
// iree.abi.model = "coarse-fences" is exported as an async entry point that
// takes two extra !hal.fence arguments (wait fence, signal fence) after the
// normal ones; no synchronous variant is emitted for it. These are
// written as util.func because the func.func -> util.func import drops every
// function attr except an allowlist (iree.reflection, ...) that does not
// include iree.abi.model.
//   add_async(a, b: 16xf32) -> 16xf32     a + b, with fences
//   scale_async(a: 16xf32, s: f32) -> 16xf32   a * s, with fences
//   add_sync(a, b: 16xf32) -> 16xf32      the same as add_async, default model
util.func public @add_async(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> attributes {
  iree.abi.model = "coarse-fences"
} {
  %0 = arith.addf %a, %b : tensor<16xf32>
  util.return %0 : tensor<16xf32>
}

util.func public @scale_async(%a: tensor<16xf32>, %s: f32) -> tensor<16xf32> attributes {
  iree.abi.model = "coarse-fences"
} {
  %empty = tensor.empty() : tensor<16xf32>
  %splat = linalg.fill ins(%s : f32) outs(%empty : tensor<16xf32>) -> tensor<16xf32>
  %0 = arith.mulf %a, %splat : tensor<16xf32>
  util.return %0 : tensor<16xf32>
}

func.func @add_sync(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %0 = arith.addf %a, %b : tensor<16xf32>
  return %0 : tensor<16xf32>
}
