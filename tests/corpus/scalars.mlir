// Ember corpus: scalar arguments and results of every primitive ABI type,
// handled on the host (no dispatches), plus scalar <-> tensor conversion.
// By default iree-compile demotes every f64 to f32 (public signatures
// included), so this program opts out with an extra flag that
// tools/ember_corpus.py appends to every form:
// ember-corpus-flags: --iree-input-demote-f64-to-f32=false
//   add_i32(a, b: i32) -> i32           wrapping add
//   mul_i64(a, b: i64) -> i64
//   fma_f32(a, b, c: f32) -> f32         a * b + c
//   div_f64(a, b: f64) -> f64            needs the VM f64 extension
//   convert(x: i64) -> (i32, f32, f64)   truncation and int->float casts
//   select_i64(c: i32, a: i64, b: i64) -> i64   c != 0 ? a : b
//   splat_f32(x: f32) -> 4xf32            scalar into a tensor (linalg.fill)
//   extract_f64(t: 3xf64, i: index) -> f64   element of a tensor as a scalar
//   no_io() -> ()                         no arguments and no results
func.func @add_i32(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}

func.func @mul_i64(%a: i64, %b: i64) -> i64 {
  %0 = arith.muli %a, %b : i64
  return %0 : i64
}

func.func @fma_f32(%a: f32, %b: f32, %c: f32) -> f32 {
  %0 = arith.mulf %a, %b : f32
  %1 = arith.addf %0, %c : f32
  return %1 : f32
}

func.func @div_f64(%a: f64, %b: f64) -> f64 {
  %0 = arith.divf %a, %b : f64
  return %0 : f64
}

func.func @convert(%x: i64) -> (i32, f32, f64) {
  // Takes i64 on purpose: the VM has a si64->f64 cast opcode but no
  // si32->f64 one, and the canonicalizer folds sitofp(extsi(i32)) back.
  %0 = arith.trunci %x : i64 to i32
  %1 = arith.sitofp %x : i64 to f32
  %2 = arith.sitofp %x : i64 to f64
  return %0, %1, %2 : i32, f32, f64
}

func.func @select_i64(%c: i32, %a: i64, %b: i64) -> i64 {
  %zero = arith.constant 0 : i32
  %nz = arith.cmpi ne, %c, %zero : i32
  %0 = arith.select %nz, %a, %b : i64
  return %0 : i64
}

func.func @splat_f32(%x: f32) -> tensor<4xf32> {
  %empty = tensor.empty() : tensor<4xf32>
  %0 = linalg.fill ins(%x : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @extract_f64(%t: tensor<3xf64>, %i: index) -> f64 {
  %0 = tensor.extract %t[%i] : tensor<3xf64>
  return %0 : f64
}

func.func @no_io() {
  return
}
