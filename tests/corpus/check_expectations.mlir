// Ember corpus: a program with check.expect_* ops for ember-check-module.
//   add_passes       f32 add, near-equality against a constant
//   int_eq_passes    i32 multiply, exact equality
//   wrong_fails      a deliberately wrong expectation (proves the check
//                    module is registered: without it this would pass)
func.func @add_passes() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = util.unfoldable_constant dense<[0.5, 0.5, 0.5, 0.5]> : tensor<4xf32>
  %r = arith.addf %a, %b : tensor<4xf32>
  check.expect_almost_eq_const(%r, dense<[1.5, 2.5, 3.5, 4.5]> : tensor<4xf32>) : tensor<4xf32>
  return
}
func.func @int_eq_passes() {
  %a = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %r = arith.muli %a, %a : tensor<3xi32>
  check.expect_eq_const(%r, dense<[1, 4, 9]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @wrong_fails() {
  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = arith.mulf %a, %a : tensor<2xf32>
  check.expect_almost_eq_const(%r, dense<[1.0, 5.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
