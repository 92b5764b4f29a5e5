// Ember VM benchmark: vm.list traffic.
//   lists(n: i32) -> i32
// Runs n outer iterations (the benchmark passes 200000). Each allocates a
// fresh !vm.list<i32> of capacity 16, pushes 16 elements (resize by one,
// then set), reads them back while summing, overwrites every element in
// place with list.set.i32 and reads it again, and stores the finished list
// into slot (k & 7) of a long-lived !vm.list<!vm.list<i32>> (which frees the
// list that held the slot before). Per outer iteration: 1 list.alloc, 16
// list.resize, 64 list get/set, 1 list.set.ref, plus loop arithmetic.
vm.module @vm_lists {
  vm.export @lists
  vm.func @lists(%n: i32) -> i32 {
    %zero = vm.const.i32 0
    %one = vm.const.i32 1
    %seven = vm.const.i32 7
    %eight = vm.const.i32 8
    %sixteen = vm.const.i32 16
    %keep = vm.list.alloc %eight : (i32) -> !vm.list<!vm.list<i32>>
    vm.list.resize %keep, %eight : (!vm.list<!vm.list<i32>>, i32)
    vm.br ^outer(%zero, %zero : i32, i32)
  ^outer(%k: i32, %acc: i32):
    %more = vm.cmp.lt.i32.s %k, %n : i32
    vm.cond_br %more, ^alloc(%k, %acc : i32, i32), ^exit(%acc : i32)
  ^alloc(%ak: i32, %aacc: i32):
    %l = vm.list.alloc %sixteen : (i32) -> !vm.list<i32>
    vm.br ^push(%zero, %ak, %aacc : i32, i32, i32)
  ^push(%j: i32, %pk: i32, %pacc: i32):
    %pmore = vm.cmp.lt.i32.s %j, %sixteen : i32
    vm.cond_br %pmore, ^push_body(%j, %pk, %pacc : i32, i32, i32), ^sum(%zero, %pk, %pacc : i32, i32, i32)
  ^push_body(%pj: i32, %ppk: i32, %ppacc: i32):
    %size = vm.add.i32 %pj, %one : i32
    vm.list.resize %l, %size : (!vm.list<i32>, i32)
    %v = vm.add.i32 %pj, %ppk : i32
    vm.list.set.i32 %l, %pj, %v : (!vm.list<i32>, i32, i32)
    vm.br ^push(%size, %ppk, %ppacc : i32, i32, i32)
  ^sum(%sj: i32, %sk: i32, %sacc: i32):
    %smore = vm.cmp.lt.i32.s %sj, %sixteen : i32
    vm.cond_br %smore, ^sum_body(%sj, %sk, %sacc : i32, i32, i32), ^store(%sk, %sacc : i32, i32)
  ^sum_body(%bj: i32, %bk: i32, %bacc: i32):
    %e = vm.list.get.i32 %l, %bj : (!vm.list<i32>, i32) -> i32
    %e2 = vm.add.i32 %e, %bacc : i32
    vm.list.set.i32 %l, %bj, %e2 : (!vm.list<i32>, i32, i32)
    %e3 = vm.list.get.i32 %l, %bj : (!vm.list<i32>, i32) -> i32
    %nacc = vm.xor.i32 %bacc, %e3 : i32
    %nj = vm.add.i32 %bj, %one : i32
    vm.br ^sum(%nj, %bk, %nacc : i32, i32, i32)
  ^store(%tk: i32, %tacc: i32):
    %slot = vm.and.i32 %tk, %seven : i32
    vm.list.set.ref %keep, %slot, %l : (!vm.list<!vm.list<i32>>, i32, !vm.list<i32>)
    %nk = vm.add.i32 %tk, %one : i32
    vm.br ^outer(%nk, %tacc : i32, i32)
  ^exit(%r: i32):
    vm.return %r : i32
  }
}
