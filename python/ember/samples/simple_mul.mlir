// Ember sample module: the smallest useful program for smoke tests and docs.
//   simple_mul(a, b) -> a * b          elementwise f32 multiply on 4 elements
//   add_one(x: i32)  -> x + 1          a host-side scalar function
func.func @simple_mul(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.mulf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @add_one(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  return %0 : i32
}
