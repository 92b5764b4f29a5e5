// Ember corpus: host-side control flow driven by values read back from
// device tensors (tensor.extract -> scalar -> scf.if / scf.while / scf.for).
//   pick(flag: tensor<i32>, a: 4xf32, b: 4xf32) -> 4xf32
//       scf.if on flag[] != 0: a + b, else a - b
//   halve_until(x: tensor<f32>, limit: f32) -> (tensor<f32>, i32)
//       scf.while: halve x while x > limit; also returns the iteration count
//   repeat_add(x: 4xf32, n: i32) -> 4xf32     scf.for adding x to itself n times
//   sign(x: tensor<i64>) -> i64              nested scf.if: -1, 0 or 1
func.func @pick(%flag: tensor<i32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0 : i32
  %f = tensor.extract %flag[] : tensor<i32>
  %cond = arith.cmpi ne, %f, %zero : i32
  %r = scf.if %cond -> tensor<4xf32> {
    %s = arith.addf %a, %b : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    %d = arith.subf %a, %b : tensor<4xf32>
    scf.yield %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @halve_until(%x: tensor<f32>, %limit: f32) -> (tensor<f32>, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %half = arith.constant dense<0.5> : tensor<f32>
  %r:2 = scf.while (%v = %x, %n = %c0) : (tensor<f32>, i32) -> (tensor<f32>, i32) {
    %s = tensor.extract %v[] : tensor<f32>
    %more = arith.cmpf ogt, %s, %limit : f32
    scf.condition(%more) %v, %n : tensor<f32>, i32
  } do {
  ^bb0(%bv: tensor<f32>, %bn: i32):
    %nv = arith.mulf %bv, %half : tensor<f32>
    %nn = arith.addi %bn, %c1 : i32
    scf.yield %nv, %nn : tensor<f32>, i32
  }
  return %r#0, %r#1 : tensor<f32>, i32
}

func.func @repeat_add(%x: tensor<4xf32>, %n: i32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %count = arith.index_cast %n : i32 to index
  %r = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %zero) -> (tensor<4xf32>) {
    %s = arith.addf %acc, %x : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @sign(%x: tensor<i64>) -> i64 {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %mone = arith.constant -1 : i64
  %v = tensor.extract %x[] : tensor<i64>
  %neg = arith.cmpi slt, %v, %zero : i64
  %r = scf.if %neg -> i64 {
    scf.yield %mone : i64
  } else {
    %pos = arith.cmpi sgt, %v, %zero : i64
    %inner = scf.if %pos -> i64 {
      scf.yield %one : i64
    } else {
      scf.yield %zero : i64
    }
    scf.yield %inner : i64
  }
  return %r : i64
}
