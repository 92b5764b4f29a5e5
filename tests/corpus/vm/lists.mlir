// Ember VM corpus: vm.list of primitives, of variants and of lists; lists
// crossing the export boundary as arguments and results.
//   make_range(n: i32) -> !vm.list<i32>          [0, 1, ..., n-1]
//   sum_list(l: !vm.list<i32>) -> i32            sum of the elements
//   range_sum(n: i32) -> i32                     sum_list(make_range(n))
//   pack(a: i32, b: f32, c: i64) -> !vm.list<?>  variant list [a, b, c]
//   pack_pair(n: i32) -> !vm.list<!vm.list<i32>> [range(n), range(n+1)]
//   list_size(l: !vm.list<?>) -> i32             size of any list
vm.module @lists {
  vm.export @make_range
  vm.func @make_range(%n: i32) -> !vm.list<i32> {
    %zero = vm.const.i32 0
    %one = vm.const.i32 1
    %list = vm.list.alloc %n : (i32) -> !vm.list<i32>
    vm.list.resize %list, %n : (!vm.list<i32>, i32)
    vm.br ^head(%zero : i32)
  ^head(%i: i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body(%i : i32), ^exit
  ^body(%bi: i32):
    vm.list.set.i32 %list, %bi, %bi : (!vm.list<i32>, i32, i32)
    %ni = vm.add.i32 %bi, %one : i32
    vm.br ^head(%ni : i32)
  ^exit:
    vm.return %list : !vm.list<i32>
  }

  vm.export @sum_list
  vm.func @sum_list(%list: !vm.list<i32>) -> i32 {
    %zero = vm.const.i32 0
    %one = vm.const.i32 1
    %n = vm.list.size %list : (!vm.list<i32>) -> i32
    vm.br ^head(%zero, %zero : i32, i32)
  ^head(%i: i32, %acc: i32):
    %more = vm.cmp.lt.i32.s %i, %n : i32
    vm.cond_br %more, ^body(%i, %acc : i32, i32), ^exit(%acc : i32)
  ^body(%bi: i32, %bacc: i32):
    %v = vm.list.get.i32 %list, %bi : (!vm.list<i32>, i32) -> i32
    %nacc = vm.add.i32 %bacc, %v : i32
    %ni = vm.add.i32 %bi, %one : i32
    vm.br ^head(%ni, %nacc : i32, i32)
  ^exit(%r: i32):
    vm.return %r : i32
  }

  vm.export @range_sum
  vm.func @range_sum(%n: i32) -> i32 {
    %l = vm.call @make_range(%n) : (i32) -> !vm.list<i32>
    %s = vm.call @sum_list(%l) : (!vm.list<i32>) -> i32
    vm.return %s : i32
  }

  vm.export @pack
  vm.func @pack(%a: i32, %b: f32, %c: i64) -> !vm.list<?> {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %c3 = vm.const.i32 3
    %list = vm.list.alloc %c3 : (i32) -> !vm.list<?>
    vm.list.resize %list, %c3 : (!vm.list<?>, i32)
    vm.list.set.i32 %list, %c0, %a : (!vm.list<?>, i32, i32)
    vm.list.set.f32 %list, %c1, %b : (!vm.list<?>, i32, f32)
    vm.list.set.i64 %list, %c2, %c : (!vm.list<?>, i32, i64)
    vm.return %list : !vm.list<?>
  }

  vm.export @pack_pair
  vm.func @pack_pair(%n: i32) -> !vm.list<!vm.list<i32>> {
    %c0 = vm.const.i32 0
    %c1 = vm.const.i32 1
    %c2 = vm.const.i32 2
    %n1 = vm.add.i32 %n, %c1 : i32
    %a = vm.call @make_range(%n) : (i32) -> !vm.list<i32>
    %b = vm.call @make_range(%n1) : (i32) -> !vm.list<i32>
    %outer = vm.list.alloc %c2 : (i32) -> !vm.list<!vm.list<i32>>
    vm.list.resize %outer, %c2 : (!vm.list<!vm.list<i32>>, i32)
    vm.list.set.ref %outer, %c0, %a : (!vm.list<!vm.list<i32>>, i32, !vm.list<i32>)
    vm.list.set.ref %outer, %c1, %b : (!vm.list<!vm.list<i32>>, i32, !vm.list<i32>)
    vm.return %outer : !vm.list<!vm.list<i32>>
  }

  vm.export @list_size
  vm.func @list_size(%list: !vm.list<?>) -> i32 {
    %n = vm.list.size %list : (!vm.list<?>) -> i32
    vm.return %n : i32
  }
}
