// Ember VM op conformance: loops. These are the shapes that Ember's
// executable copy rewrites (runtime/vm/executable_code.h): loop-carried
// block arguments whose back-edge copies can be coalesced into the
// instruction computing them, copies that must stay (the value is read again
// before the branch, or copies depend on each other), compare-and-branch
// loop heads with each i32 comparison, including a comparison result that is
// used after the branch, latches (an add-immediate right before the back
// edge) into each kind of head, and conditional back edges that carry
// operands.
// op_conformance_test runs every function with and without the rewrites.
vm.module @ops_loops {
  // The shape of bench/vm_loop: an i32 LCG and an f32 recurrence carried
  // around the loop. Expected values from iree-run-module 3.11.
  vm.export @test_loop_carried_i32_f32
  vm.func @test_loop_carried_i32_f32() {
    %kn = vm.const.i32 1000
    %n = vm.optimization_barrier %kn : i32
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
    %ei = vm.const.i32 1870458900
    vm.check.eq %ri, %ei, "i32 accumulator" : i32
    %ef = vm.const.f32 1993.5
    vm.check.eq %rf, %ef, "f32 accumulator" : f32
    vm.return
  }

  // Fibonacci: the back edge passes (b, a + b) for (a, b), so one copy's
  // destination is another copy's source.
  vm.export @test_loop_fibonacci
  vm.func @test_loop_fibonacci() {
    %k0 = vm.const.i32 0
    %a0 = vm.optimization_barrier %k0 : i32
    %k1 = vm.const.i32 1
    %b0 = vm.optimization_barrier %k1 : i32
    %kn = vm.const.i32 30
    %n = vm.optimization_barrier %kn : i32
    %one = vm.const.i32 1
    vm.br ^loop(%k0, %a0, %b0 : i32, i32, i32)
  ^loop(%i: i32, %a: i32, %b: i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body, ^done(%a : i32)
  ^body:
    %c = vm.add.i32 %a, %b : i32
    %i1 = vm.add.i32 %i, %one : i32
    vm.br ^loop(%i1, %b, %c : i32, i32, i32)
  ^done(%r: i32):
    %e = vm.const.i32 832040
    vm.check.eq %r, %e, "fib(30)" : i32
    vm.return
  }

  // The new value of x is read again after it is computed (by the multiply),
  // so its copy must not be folded into the add that computes it.
  vm.export @test_loop_value_read_after_definition
  vm.func @test_loop_value_read_after_definition() {
    %k0 = vm.const.i32 0
    %x0 = vm.optimization_barrier %k0 : i32
    %kn = vm.const.i32 10
    %n = vm.optimization_barrier %kn : i32
    %one = vm.const.i32 1
    %two = vm.const.i32 2
    vm.br ^loop(%k0, %x0, %k0 : i32, i32, i32)
  ^loop(%i: i32, %x: i32, %s: i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body, ^done(%x, %s : i32, i32)
  ^body:
    %x1 = vm.add.i32 %x, %one : i32
    %y1 = vm.mul.i32 %x1, %two : i32
    %s1 = vm.add.i32 %s, %y1 : i32
    %i1 = vm.add.i32 %i, %one : i32
    vm.br ^loop(%i1, %x1, %s1 : i32, i32, i32)
  ^done(%rx: i32, %rs: i32):
    %ex = vm.const.i32 10
    vm.check.eq %rx, %ex, "x" : i32
    %es = vm.const.i32 110
    vm.check.eq %rs, %es, "2 * (1 + ... + 10)" : i32
    vm.return
  }

  // Nested loops: the inner loop's result flows out to the outer back edge.
  vm.export @test_loop_nested
  vm.func @test_loop_nested() {
    %k0 = vm.const.i32 0
    %zero = vm.optimization_barrier %k0 : i32
    %kr = vm.const.i32 20
    %rows = vm.optimization_barrier %kr : i32
    %kc = vm.const.i32 30
    %cols = vm.optimization_barrier %kc : i32
    %one = vm.const.i32 1
    vm.br ^outer(%zero, %zero : i32, i32)
  ^outer(%i: i32, %acc: i32):
    %more_i = vm.cmp.lt.i32.s %i, %rows : i32
    vm.cond_br %more_i, ^inner(%zero, %acc : i32, i32), ^done(%acc : i32)
  ^inner(%j: i32, %a: i32):
    %more_j = vm.cmp.lt.i32.s %j, %cols : i32
    vm.cond_br %more_j, ^inner_body, ^outer_next(%a : i32)
  ^inner_body:
    %p = vm.mul.i32 %i, %j : i32
    %a1 = vm.add.i32 %a, %p : i32
    %j1 = vm.add.i32 %j, %one : i32
    vm.br ^inner(%j1, %a1 : i32, i32)
  ^outer_next(%a2: i32):
    %i1 = vm.add.i32 %i, %one : i32
    vm.br ^outer(%i1, %a2 : i32, i32)
  ^done(%r: i32):
    %e = vm.const.i32 82650
    vm.check.eq %r, %e, "sum of i*j" : i32
    vm.return
  }

  // An f32 recurrence whose every step is exact: acc = acc * 0.5 + (i & 7)
  // for i < 16 is 197633 / 16384.
  vm.export @test_loop_f32_recurrence
  vm.func @test_loop_f32_recurrence() {
    %k0 = vm.const.i32 0
    %zero = vm.optimization_barrier %k0 : i32
    %kn = vm.const.i32 16
    %n = vm.optimization_barrier %kn : i32
    %one = vm.const.i32 1
    %seven = vm.const.i32 7
    %fzero = vm.const.f32 0.0
    %half = vm.const.f32 0.5
    vm.br ^loop(%zero, %fzero : i32, f32)
  ^loop(%i: i32, %acc: f32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body, ^done(%acc : f32)
  ^body:
    %low = vm.and.i32 %i, %seven : i32
    %lf = vm.cast.si32.f32 %low : i32 -> f32
    %h = vm.mul.f32 %acc, %half : f32
    %acc1 = vm.add.f32 %h, %lf : f32
    %i1 = vm.add.i32 %i, %one : i32
    vm.br ^loop(%i1, %acc1 : i32, f32)
  ^done(%r: f32):
    %e = vm.const.f32 12.06256103515625
    vm.check.eq %r, %e, "recurrence" : f32
    vm.return
  }

  // Loop heads built on each fusable i32 comparison. The cmp.nz result is
  // also passed out of the loop, so the fused compare-and-branch must still
  // write it.
  vm.export @test_loop_heads_each_compare
  vm.func @test_loop_heads_each_compare() {
    %k0 = vm.const.i32 0
    %zero = vm.optimization_barrier %k0 : i32
    %k10 = vm.const.i32 10
    %ten = vm.optimization_barrier %k10 : i32
    %one = vm.const.i32 1
    %seven = vm.const.i32 7
    // cmp.nz: count 10 down to 0, summing 10 + ... + 1.
    vm.br ^nz(%ten, %zero : i32, i32)
  ^nz(%k: i32, %acc: i32):
    %c = vm.cmp.nz.i32 %k : i32
    vm.cond_br %c, ^nz_body, ^nz_done(%c, %acc : i32, i32)
  ^nz_body:
    %k1 = vm.sub.i32 %k, %one : i32
    %acc1 = vm.add.i32 %acc, %k : i32
    vm.br ^nz(%k1, %acc1 : i32, i32)
  ^nz_done(%cd: i32, %sum: i32):
    vm.check.eq %cd, %zero, "cmp.nz result after the loop" : i32
    %e55 = vm.const.i32 55
    vm.check.eq %sum, %e55, "countdown sum" : i32
    // cmp.eq: stop when i == 7.
    vm.br ^eq(%zero : i32)
  ^eq(%i: i32):
    %e = vm.cmp.eq.i32 %i, %seven : i32
    vm.cond_br %e, ^eq_done(%i : i32), ^eq_body
  ^eq_body:
    %i1 = vm.add.i32 %i, %one : i32
    vm.br ^eq(%i1 : i32)
  ^eq_done(%ie: i32):
    vm.check.eq %ie, %seven, "cmp.eq loop" : i32
    // cmp.ne: run while j != 10.
    vm.br ^ne(%zero, %zero : i32, i32)
  ^ne(%j: i32, %steps: i32):
    %ne = vm.cmp.ne.i32 %j, %ten : i32
    vm.cond_br %ne, ^ne_body, ^ne_done(%steps : i32)
  ^ne_body:
    %j1 = vm.add.i32 %j, %one : i32
    %steps1 = vm.add.i32 %steps, %one : i32
    vm.br ^ne(%j1, %steps1 : i32, i32)
  ^ne_done(%sn: i32):
    vm.check.eq %sn, %ten, "cmp.ne loop" : i32
    // cmp.lt.u: -3 is not below 10 unsigned, so the loop body never runs.
    %km3 = vm.const.i32 -3
    %m3 = vm.optimization_barrier %km3 : i32
    vm.br ^ltu(%m3, %zero : i32, i32)
  ^ltu(%u: i32, %runs: i32):
    %lt = vm.cmp.lt.i32.u %u, %ten : i32
    vm.cond_br %lt, ^ltu_body, ^ltu_done(%runs : i32)
  ^ltu_body:
    %u1 = vm.add.i32 %u, %one : i32
    %runs1 = vm.add.i32 %runs, %one : i32
    vm.br ^ltu(%u1, %runs1 : i32, i32)
  ^ltu_done(%ru: i32):
    vm.check.eq %ru, %zero, "cmp.lt.u: no iterations" : i32
    vm.return
  }

  // A do-while loop: the conditional back edge itself carries the operands.
  vm.export @test_loop_conditional_back_edge
  vm.func @test_loop_conditional_back_edge() {
    %k0 = vm.const.i32 0
    %zero = vm.optimization_barrier %k0 : i32
    %kn = vm.const.i32 10
    %n = vm.optimization_barrier %kn : i32
    %one = vm.const.i32 1
    vm.br ^loop(%zero, %zero : i32, i32)
  ^loop(%i: i32, %s: i32):
    %s1 = vm.add.i32 %s, %i : i32
    %i1 = vm.add.i32 %i, %one : i32
    %more = vm.cmp.lt.i32.s %i1, %n : i32
    vm.cond_br %more, ^loop(%i1, %s1 : i32, i32), ^done(%s1, %i1 : i32, i32)
  ^done(%r: i32, %ri: i32):
    %e = vm.const.i32 45
    vm.check.eq %r, %e, "0 + ... + 9" : i32
    vm.check.eq %ri, %n, "final counter" : i32
    vm.return
  }

  // i64 and f64 values carried around a loop next to i32 ones (their copies
  // are register pairs and are left alone).
  vm.export @test_loop_wide_values
  vm.func @test_loop_wide_values() {
    %k0 = vm.const.i32 0
    %zero = vm.optimization_barrier %k0 : i32
    %kn = vm.const.i32 5
    %n = vm.optimization_barrier %kn : i32
    %one = vm.const.i32 1
    %big = vm.const.i64 4294967296
    %z64 = vm.const.i64 0
    %dz = vm.const.f64 0.0
    %dq = vm.const.f64 0.25
    vm.br ^loop(%zero, %z64, %dz : i32, i64, f64)
  ^loop(%i: i32, %w: i64, %d: f64):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body, ^done(%w, %d : i64, f64)
  ^body:
    %w1 = vm.add.i64 %w, %big : i64
    %d1 = vm.add.f64 %d, %dq : f64
    %i1 = vm.add.i32 %i, %one : i32
    vm.br ^loop(%i1, %w1, %d1 : i32, i64, f64)
  ^done(%rw: i64, %rd: f64):
    %ew = vm.const.i64 21474836480
    vm.check.eq %rw, %ew, "i64 accumulator" : i64
    %ed = vm.const.f64 1.25
    vm.check.eq %rd, %ed, "f64 accumulator" : f64
    vm.return
  }

  // Loop latches: the last instruction of each body is an add of a small
  // constant, right before a copyless back edge into a fused head whose
  // compare result is dead -- the executable copy runs add, branch and head
  // as one instruction. One loop per comparison, with negative steps, an
  // unsigned compare across the sign boundary, and a loop whose add is not
  // last (no latch: the copy must leave it alone). The compiler reuses the
  // register of the first loop's step (-2) after that loop, so the step is
  // a constant only where it is used (executable_code.cc, ConstantFlow).
  vm.export @test_loop_latches_each_compare
  vm.func @test_loop_latches_each_compare() {
    %k0 = vm.const.i32 0
    %zero = vm.optimization_barrier %k0 : i32
    %one = vm.const.i32 1
    %three = vm.const.i32 3
    %m1 = vm.const.i32 -1
    %m2 = vm.const.i32 -2
    %k10 = vm.const.i32 10
    %k12 = vm.const.i32 12
    %k21 = vm.const.i32 21
    // lt.s, counting down by -2 while -9 < i: 7, 5, ..., -7 (8 iterations).
    %km9 = vm.const.i32 -9
    %k7 = vm.const.i32 7
    vm.br ^lts(%k7, %zero : i32, i32)
  ^lts(%i: i32, %n: i32):
    %lts = vm.cmp.lt.i32.s %km9, %i : i32
    vm.cond_br %lts, ^lts_body, ^lts_done(%i, %n : i32, i32)
  ^lts_body:
    %n1 = vm.add.i32 %n, %one : i32
    %i1 = vm.add.i32 %i, %m2 : i32
    vm.br ^lts(%i1, %n1 : i32, i32)
  ^lts_done(%li: i32, %ln: i32):
    %e_li = vm.const.i32 -9
    vm.check.eq %li, %e_li, "lt.s latch: final i" : i32
    %e_ln = vm.const.i32 8
    vm.check.eq %ln, %e_ln, "lt.s latch: iterations" : i32
    // lt.u from -6 (0xFFFFFFFA) up by 3: -6 and -3 are not below 12
    // unsigned, so the loop does not run; from 0 it runs 0, 3, 6, 9.
    vm.br ^ltu(%zero, %zero : i32, i32)
  ^ltu(%u: i32, %s: i32):
    %ltu = vm.cmp.lt.i32.u %u, %k12 : i32
    vm.cond_br %ltu, ^ltu_body, ^ltu_done(%u, %s : i32, i32)
  ^ltu_body:
    %s1 = vm.add.i32 %s, %u : i32
    %u1 = vm.add.i32 %u, %three : i32
    vm.br ^ltu(%u1, %s1 : i32, i32)
  ^ltu_done(%lu: i32, %ls: i32):
    vm.check.eq %lu, %k12, "lt.u latch: final u" : i32
    %e_ls = vm.const.i32 18
    vm.check.eq %ls, %e_ls, "lt.u latch: 0 + 3 + 6 + 9" : i32
    %km6 = vm.const.i32 -6
    %from = vm.optimization_barrier %km6 : i32
    vm.br ^ltu2(%from, %zero : i32, i32)
  ^ltu2(%v: i32, %r: i32):
    %ltu2 = vm.cmp.lt.i32.u %v, %k12 : i32
    vm.cond_br %ltu2, ^ltu2_body, ^ltu2_done(%r : i32)
  ^ltu2_body:
    %r1 = vm.add.i32 %r, %one : i32
    %v1 = vm.add.i32 %v, %three : i32
    vm.br ^ltu2(%v1, %r1 : i32, i32)
  ^ltu2_done(%lr: i32):
    vm.check.eq %lr, %zero, "lt.u latch: -6 is not below 12" : i32
    // eq: exit when j == 21, stepping by 3 from 0 (7 iterations).
    vm.br ^eq(%zero, %zero : i32, i32)
  ^eq(%j: i32, %t: i32):
    %eq = vm.cmp.eq.i32 %j, %k21 : i32
    vm.cond_br %eq, ^eq_done(%t : i32), ^eq_body
  ^eq_body:
    %t1 = vm.add.i32 %t, %one : i32
    %j1 = vm.add.i32 %j, %three : i32
    vm.br ^eq(%j1, %t1 : i32, i32)
  ^eq_done(%lt: i32):
    %e_lt = vm.const.i32 7
    vm.check.eq %lt, %e_lt, "eq latch: iterations" : i32
    // ne: run while k != 10, counting up from 0 (sum 0..9).
    vm.br ^ne(%zero, %zero : i32, i32)
  ^ne(%k: i32, %q: i32):
    %ne = vm.cmp.ne.i32 %k, %k10 : i32
    vm.cond_br %ne, ^ne_body, ^ne_done(%q : i32)
  ^ne_body:
    %q1 = vm.add.i32 %q, %k : i32
    %k1 = vm.add.i32 %k, %one : i32
    vm.br ^ne(%k1, %q1 : i32, i32)
  ^ne_done(%lq: i32):
    %e_lq = vm.const.i32 45
    vm.check.eq %lq, %e_lq, "ne latch: 0 + ... + 9" : i32
    // nz: count w down from 10 by -1 (sum 10..1).
    vm.br ^nz(%k10, %zero : i32, i32)
  ^nz(%w: i32, %acc: i32):
    %nz = vm.cmp.nz.i32 %w : i32
    vm.cond_br %nz, ^nz_body, ^nz_done(%acc : i32)
  ^nz_body:
    %acc1 = vm.add.i32 %acc, %w : i32
    %w1 = vm.add.i32 %w, %m1 : i32
    vm.br ^nz(%w1, %acc1 : i32, i32)
  ^nz_done(%la: i32):
    %e_la = vm.const.i32 55
    vm.check.eq %la, %e_la, "nz latch: 10 + ... + 1" : i32
    // The add is not last: a multiply follows it, so no latch form.
    vm.br ^nl(%zero, %one : i32, i32)
  ^nl(%h: i32, %p: i32):
    %nl = vm.cmp.lt.i32.s %h, %k10 : i32
    vm.cond_br %nl, ^nl_body, ^nl_done(%p : i32)
  ^nl_body:
    %h1 = vm.add.i32 %h, %one : i32
    %p1 = vm.mul.i32 %p, %three : i32
    vm.br ^nl(%h1, %p1 : i32, i32)
  ^nl_done(%lp: i32):
    %e_lp = vm.const.i32 59049
    vm.check.eq %lp, %e_lp, "3^10" : i32
    vm.return
  }
}
