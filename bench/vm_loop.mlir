// Ember VM benchmark: a tight scalar loop of i32 and f32 arithmetic.
//   loop(n: i32) -> (i32, f32)
// Runs n iterations (the benchmark passes 10000000) of
//   acc_i = ((acc_i * 1103515245 + 12345) ^ (i >> 3)) + (i & 255)
//   acc_f = acc_f * 0.5 + float(i & 1023) - 1.25
// so every iteration executes ten i32 ops, four f32 ops, one i32->f32 cast,
// a compare and two branches with register remapping. The results depend
// on every iteration, so nothing can be skipped.
vm.module @vm_loop {
  vm.export @loop
  vm.func @loop(%n: i32) -> (i32, f32) {
    %zero = vm.const.i32 0
    %one = vm.const.i32 1
    %three = vm.const.i32 3
    %mask_i = vm.const.i32 255
    %mask_f = vm.const.i32 1023
    %mul = vm.const.i32 1103515245
    %inc = vm.const.i32 12345
    %fzero = vm.const.f32 0.0
    %half = vm.const.f32 0.5
    %bias = vm.const.f32 1.25
    vm.br ^head(%zero, %zero, %fzero : i32, i32, f32)
  ^head(%i: i32, %ai: i32, %af: f32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body(%i, %ai, %af : i32, i32, f32), ^exit(%ai, %af : i32, f32)
  ^body(%bi: i32, %bai: i32, %baf: f32):
    %m = vm.mul.i32 %bai, %mul : i32
    %a = vm.add.i32 %m, %inc : i32
    %s = vm.shr.i32.u %bi, %three : i32
    %x = vm.xor.i32 %a, %s : i32
    %lo = vm.and.i32 %bi, %mask_i : i32
    %nai = vm.add.i32 %x, %lo : i32
    %fi = vm.and.i32 %bi, %mask_f : i32
    %ff = vm.cast.si32.f32 %fi : i32 -> f32
    %fm = vm.mul.f32 %baf, %half : f32
    %fa = vm.add.f32 %fm, %ff : f32
    %naf = vm.sub.f32 %fa, %bias : f32
    %ni = vm.add.i32 %bi, %one : i32
    vm.br ^head(%ni, %nai, %naf : i32, i32, f32)
  ^exit(%ri: i32, %rf: f32):
    vm.return %ri, %rf : i32, f32
  }
}
