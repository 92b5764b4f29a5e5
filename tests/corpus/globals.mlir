// Ember corpus: mutable module globals that keep state across calls, plus an
// immutable global initialized by a util.initializer.
//   counter() -> i32                   increments @count and returns the new value
//   accumulate(x: 4xf32) -> 4xf32      @acc += x; returns the running sum
//   get_acc() -> 4xf32                 reads @acc without changing it
//   reset() -> ()                      @count = 0, @acc = 0
//   scaled(x: 4xf32) -> 4xf32          x * @scale (set once by the initializer)
//   total_calls() -> i64               @count widened to i64 plus @acc_calls
util.global private mutable @count = 0 : i32
util.global private mutable @acc_calls = 0 : i64
util.global private mutable @acc = dense<0.0> : tensor<4xf32>
util.global private @scale : tensor<4xf32>

util.initializer {
  %s = arith.constant dense<[1.0, 10.0, 100.0, 1000.0]> : tensor<4xf32>
  util.global.store %s, @scale : tensor<4xf32>
  util.return
}

func.func @counter() -> i32 {
  %one = arith.constant 1 : i32
  %old = util.global.load @count : i32
  %new = arith.addi %old, %one : i32
  util.global.store %new, @count : i32
  return %new : i32
}

func.func @accumulate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant 1 : i64
  %old = util.global.load @acc : tensor<4xf32>
  %new = arith.addf %old, %x : tensor<4xf32>
  util.global.store %new, @acc : tensor<4xf32>
  %n = util.global.load @acc_calls : i64
  %n1 = arith.addi %n, %one : i64
  util.global.store %n1, @acc_calls : i64
  return %new : tensor<4xf32>
}

func.func @get_acc() -> tensor<4xf32> {
  %v = util.global.load @acc : tensor<4xf32>
  return %v : tensor<4xf32>
}

func.func @reset() {
  %zero_i = arith.constant 0 : i32
  %zero_t = arith.constant dense<0.0> : tensor<4xf32>
  util.global.store %zero_i, @count : i32
  util.global.store %zero_t, @acc : tensor<4xf32>
  return
}

func.func @scaled(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = util.global.load @scale : tensor<4xf32>
  %r = arith.mulf %x, %s : tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @total_calls() -> i64 {
  %c = util.global.load @count : i32
  %cw = arith.extsi %c : i32 to i64
  %a = util.global.load @acc_calls : i64
  %r = arith.addi %cw, %a : i64
  return %r : i64
}
