// The module writer lowers host control flow to the program of schema 6:
// scf.for to a compare, a conditional branch and a back edge, scf.if to
// two arms joined by register moves, tensor.extract to a Read at the
// element's byte offset (here element 1 of a 3xi1: offset 1 x 1 byte).
// RUN: tessel-compile %s --target=cpu -o %t.tmod
// RUN: tessel-run %t.tmod --print-module | FileCheck %s
// Two trips (0, 2 < 3) double x twice; p[1] is set, so the product arm runs.
// RUN: tessel-run %t.tmod --input=6xi32=1,2,3,4,5,6 --input=i64=3 --input=3xi1=0,1,0 | FileCheck %s --check-prefix=RUN1
// RUN1: result[0]: 6xi32=[16 64 144 256 400 576]
// No trips (n = 0) and p[1] unset: a comes back unchanged.
// RUN: tessel-run %t.tmod --input=6xi32=1,2,3,4,5,6 --input=i64=0 --input=3xi1=1,0,1 | FileCheck %s --check-prefix=RUN2
// RUN2: result[0]: 6xi32=[1 2 3 4 5 6]

// CHECK: function for_if(6xi32, i64, 3xi1) -> (6xi32): {{[0-9]+}} instructions, 2 dispatches, control flow
// CHECK: Read [[N:i[0-9]+]], b1, [[OFF:i[0-9]+]], #4
// CHECK: [[HEAD:[0-9]+]]: CmpLt [[C:i[0-9]+]], [[IV:i[0-9]+]], [[UB:i[0-9]+]]
// CHECK-NEXT: CondBranch [[C]], @{{[0-9]+}}, @[[EXIT:[0-9]+]]
// CHECK: Dispatch #0, [[X:b[0-9]+]], [[Y:b[0-9]+]]
// CHECK-NEXT: MoveBuffer [[T:b[0-9]+]], [[Y]]
// CHECK-NEXT: MoveBuffer [[X]], [[T]]
// CHECK-NEXT: Add [[IV]], [[IV]], {{i[0-9]+}}
// CHECK-NEXT: Branch @[[HEAD]]
// CHECK-NEXT: [[EXIT]]: Int
// CHECK: Read [[P:i[0-9]+]], b2, {{i[0-9]+}}, #8
// CHECK-NEXT: CondBranch [[P]], @{{[0-9]+}}, @[[ELSE:[0-9]+]]
// CHECK: Dispatch #1, [[X]], {{b[0-9]+}}
// CHECK: Branch @[[JOIN:[0-9]+]]
// CHECK-NEXT: [[ELSE]]: MoveBuffer {{b[0-9]+}}, b0
// CHECK-NEXT: MoveBuffer [[R:b[0-9]+]],
// CHECK-NEXT: [[JOIN]]: Return [[R]]
func.func @for_if(%a: tensor<6xi32>, %n: tensor<i64>, %p: tensor<3xi1>) -> tensor<6xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ni = tensor.extract %n[] : tensor<i64>
  %count = arith.index_cast %ni : i64 to index
  %r = scf.for %i = %c0 to %count step %c2 iter_args(%x = %a) -> tensor<6xi32> {
    %y = arith.addi %x, %x : tensor<6xi32>
    scf.yield %y : tensor<6xi32>
  }
  %b = tensor.extract %p[%c1] : tensor<3xi1>
  %s = scf.if %b -> tensor<6xi32> {
    %m = arith.muli %r, %r : tensor<6xi32>
    scf.yield %m : tensor<6xi32>
  } else {
    scf.yield %a : tensor<6xi32>
  }
  return %s : tensor<6xi32>
}
