// Ember corpus: reflection metadata. iree.reflection dictionaries on the
// module and on functions become string attrs in the compiled module (module
// attrs / per-export reflection attrs, next to the compiler's own
// iree.abi.declaration), and iree.abi.name renames arguments/results inside
// the generated declaration. @version is a util.func because only that keeps
// an iree.abi.declaration override (func.func drops it on import).
//   describe(x: 4xf32) -> 4xf32   x * 3; reflection attrs + named arg/result
//   version() -> i32              returns 7; reflection attr + custom declaration
//   plain(x: i32) -> i32          x; only the generated declaration
module @reflection attributes {
  iree.reflection = {ember.corpus = "reflection", ember.module_version = "1.2.3"}
} {
  func.func @describe(%x: tensor<4xf32> {iree.abi.name = "distance"})
      -> (tensor<4xf32> {iree.abi.name = "tripled"}) attributes {
    iree.reflection = {ember.doc = "triples its input", ember.units = "meters"}
  } {
    %three = arith.constant dense<3.0> : tensor<4xf32>
    %r = arith.mulf %x, %three : tensor<4xf32>
    return %r : tensor<4xf32>
  }

  util.func public @version() -> i32 attributes {
    iree.abi.declaration = "version() -> int",
    iree.reflection = {ember.doc = "module version"}
  } {
    %v = arith.constant 7 : i32
    util.return %v : i32
  }

  func.func @plain(%x: i32) -> i32 {
    return %x : i32
  }
}
