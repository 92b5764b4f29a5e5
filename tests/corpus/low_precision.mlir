// Ember corpus: narrow element types in tensors: bf16, f16, i8 and i1
// (i1 tensors are stored one byte per element at the ABI).
//   add_bf16(a, b: 8xbf16) -> 8xbf16
//   mul_f16(a, b: 8xf16) -> 8xf16
//   f16_to_f32(a: 8xf16) -> 8xf32 and f32_to_bf16(a: 8xf32) -> 8xbf16
//   add_i8(a, b: 8xi8) -> 8xi8         wrapping add
//   widen_i8(a: 8xi8) -> 8xi32          sign extension
//   greater(a, b: 8xf32) -> 8xi1        elementwise a > b
//   logic_i1(a, b: 8xi1) -> (8xi1, 8xi1)   a & b and a ^ b
//   select_i1(m: 8xi1, a, b: 8xf16) -> 8xf16  m ? a : b
func.func @add_bf16(%a: tensor<8xbf16>, %b: tensor<8xbf16>) -> tensor<8xbf16> {
  %0 = arith.addf %a, %b : tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

func.func @mul_f16(%a: tensor<8xf16>, %b: tensor<8xf16>) -> tensor<8xf16> {
  %0 = arith.mulf %a, %b : tensor<8xf16>
  return %0 : tensor<8xf16>
}

func.func @f16_to_f32(%a: tensor<8xf16>) -> tensor<8xf32> {
  %0 = arith.extf %a : tensor<8xf16> to tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @f32_to_bf16(%a: tensor<8xf32>) -> tensor<8xbf16> {
  %0 = arith.truncf %a : tensor<8xf32> to tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

func.func @add_i8(%a: tensor<8xi8>, %b: tensor<8xi8>) -> tensor<8xi8> {
  %0 = arith.addi %a, %b : tensor<8xi8>
  return %0 : tensor<8xi8>
}

func.func @widen_i8(%a: tensor<8xi8>) -> tensor<8xi32> {
  %0 = arith.extsi %a : tensor<8xi8> to tensor<8xi32>
  return %0 : tensor<8xi32>
}

func.func @greater(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xi1> {
  %0 = arith.cmpf ogt, %a, %b : tensor<8xf32>
  return %0 : tensor<8xi1>
}

func.func @logic_i1(%a: tensor<8xi1>, %b: tensor<8xi1>) -> (tensor<8xi1>, tensor<8xi1>) {
  %0 = arith.andi %a, %b : tensor<8xi1>
  %1 = arith.xori %a, %b : tensor<8xi1>
  return %0, %1 : tensor<8xi1>, tensor<8xi1>
}

func.func @select_i1(%m: tensor<8xi1>, %a: tensor<8xf16>, %b: tensor<8xf16>) -> tensor<8xf16> {
  %0 = arith.select %m, %a, %b : tensor<8xi1>, tensor<8xf16>
  return %0 : tensor<8xf16>
}
