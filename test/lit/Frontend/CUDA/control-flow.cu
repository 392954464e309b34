// RUN: tessel-cc %s --emit=mlir | tessel-opt | FileCheck %s
//
// Structured control flow: if/else is scf.if, every loop is scf.while whose
// "before" region tests the exit flags and then the condition; break,
// continue and early return store 1 into i8 flag slots, and the statements
// after one that may exit run under an scf.if of "no flag set". switch is a
// chain of guarded statements with a "matched" flag.

// Early return from a kernel.
// CHECK-LABEL: func.func @_Z5earlyPii(
// CHECK: %[[RET:.*]] = llvm.alloca %{{.*}} x i8 {alignment = 1 : i64}
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-NEXT: llvm.store %[[ZERO]], %[[RET]] : i8, !llvm.ptr
// CHECK: %[[CMP:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: scf.if %[[CMP]] {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i8
// CHECK-NEXT: llvm.store %[[ONE]], %[[RET]] : i8, !llvm.ptr
// CHECK-NEXT: }
// CHECK: %[[FLAG:.*]] = llvm.load %[[RET]] : !llvm.ptr -> i8
// CHECK: %[[SET:.*]] = arith.cmpi ne, %[[FLAG]], %{{.*}} : i8
// CHECK: %[[NOTSET:.*]] = arith.xori %[[SET]], %{{.*}} : i1
// CHECK-NEXT: %[[GO:.*]] = arith.andi %{{.*}}, %[[NOTSET]] : i1
// CHECK-NEXT: scf.if %[[GO]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-NEXT: {{^ *\}$}}
// CHECK-NEXT: return
__global__ void early(int *a, int n) {
  int i = threadIdx.x;
  if (i >= n)
    return;
  a[i] = 1;
}

// if / else if / else: nested scf.if with else regions; no flags.
// CHECK-LABEL: func.func @_Z6ifelsePii(
// CHECK-NOT: x i8
// CHECK: %[[POS:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: scf.if %[[POS]] {
// CHECK: } else {
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: scf.if %[[NEG]] {
// CHECK: } else {
// CHECK: llvm.store
// CHECK-NEXT: {{^ *\}$}}
// CHECK-NEXT: {{^ *\}$}}
// CHECK-NEXT: return
__global__ void ifelse(int *a, int n) {
  if (n > 0)
    a[0] = 1;
  else if (n < 0)
    a[0] = -1;
  else
    a[0] = 0;
}

// for with continue and break.
// CHECK-LABEL: func.func @_Z7forloopPii(
// CHECK: llvm.alloca %{{.*}} x !llvm.ptr
// CHECK-NEXT: llvm.alloca %{{.*}} x i32
// CHECK-NEXT: %[[S:.*]] = llvm.alloca %{{.*}} x i32
// CHECK-NEXT: %[[J:.*]] = llvm.alloca %{{.*}} x i32
// CHECK-NEXT: %[[BROKE:.*]] = llvm.alloca %{{.*}} x i8
// CHECK-NEXT: %[[CONT:.*]] = llvm.alloca %{{.*}} x i8
// The init statement, then the break flag is cleared once.
// CHECK: llvm.store %{{.*}}, %[[J]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT: llvm.store %[[Z]], %[[BROKE]] : i8, !llvm.ptr
// CHECK-NEXT: scf.while : () -> () {
// Before: not broken, then (only then) j < n.
// CHECK: llvm.load %[[BROKE]] : !llvm.ptr -> i8
// CHECK: %[[GO:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT: %[[C:.*]] = scf.if %[[GO]] -> (i1) {
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: scf.condition(%[[C]])
// CHECK-NEXT: } do {
// The continue flag is cleared on every iteration.
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : i8
// CHECK-NEXT: llvm.store %[[Z2]], %[[CONT]] : i8, !llvm.ptr
// continue:
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: arith.constant 1 : i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[CONT]] : i8, !llvm.ptr
// The rest of the body runs when neither flag is set.
// CHECK: llvm.load %[[BROKE]] : !llvm.ptr -> i8
// CHECK: llvm.load %[[CONT]] : !llvm.ptr -> i8
// CHECK: scf.if %{{.*}} {
// break:
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: arith.constant 1 : i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[BROKE]] : i8, !llvm.ptr
// CHECK: arith.addi
// CHECK-NEXT: llvm.store %{{.*}}, %[[S]]
// The increment runs unless the loop broke (after a continue too).
// CHECK: llvm.load %[[BROKE]] : !llvm.ptr -> i8
// CHECK-NOT: llvm.load %[[CONT]]
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: llvm.load %[[J]]
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.addi
// CHECK-NEXT: llvm.store %{{.*}}, %[[J]]
// CHECK-NEXT: {{^ *\}$}}
// CHECK-NEXT: scf.yield
__global__ void forloop(int *a, int n) {
  int s = 0;
  for (int j = 0; j < n; ++j) {
    if (a[j] < 0)
      continue;
    if (a[j] > 100)
      break;
    s += a[j];
  }
  a[0] = s;
}

// while, and do-while: a "first" flag makes the first test pass without
// evaluating the condition.
// CHECK-LABEL: func.func @_Z6whilesPi(
// CHECK: llvm.alloca %{{.*}} x i32
// CHECK-NEXT: llvm.alloca %{{.*}} x i8
// CHECK-NEXT: llvm.alloca %{{.*}} x i8
// CHECK-NEXT: llvm.alloca %{{.*}} x i8
// CHECK-NEXT: llvm.alloca %{{.*}} x i8
// CHECK-NEXT: %[[FIRST:.*]] = llvm.alloca %{{.*}} x i8
// CHECK-NEXT: llvm.store %arg0
// CHECK: scf.while : () -> () {
// CHECK: arith.cmpi sgt
// CHECK: } do {
// CHECK: arith.divsi
// CHECK: scf.yield
// CHECK-NEXT: {{^ *\}$}}
// CHECK: %[[T:.*]] = arith.constant 1 : i8
// CHECK-NEXT: llvm.store %[[T]], %[[FIRST]] : i8, !llvm.ptr
// CHECK-NEXT: scf.while : () -> () {
// CHECK: %[[F:.*]] = llvm.load %[[FIRST]] : !llvm.ptr -> i8
// CHECK-NEXT: %{{.*}} = arith.constant 0 : i8
// CHECK-NEXT: %[[ISFIRST:.*]] = arith.cmpi ne, %[[F]], %{{.*}} : i8
// CHECK-NEXT: scf.if %[[ISFIRST]] -> (i1) {
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: scf.yield %[[TRUE]] : i1
// CHECK-NEXT: } else {
// CHECK: arith.cmpi sgt
// CHECK: } do {
// CHECK-NEXT: arith.constant 0 : i8
// CHECK-NEXT: llvm.store
// CHECK-NEXT: %[[NF:.*]] = arith.constant 0 : i8
// CHECK-NEXT: llvm.store %[[NF]], %[[FIRST]] : i8, !llvm.ptr
// CHECK: arith.subi
__global__ void whiles(int *a) {
  int s = a[0];
  while (s > 10)
    s /= 2;
  do {
    s--;
  } while (s > 0);
  a[0] = s;
}

// switch with break, a shared body for two labels, fallthrough into default.
// CHECK-LABEL: func.func @_Z8selectorPii(
// CHECK: %[[MATCHED:.*]] = llvm.alloca %{{.*}} x i8
// CHECK-NEXT: %[[SWBROKE:.*]] = llvm.alloca %{{.*}} x i8
// The value is evaluated once; "no case matches" (for default) up front.
// CHECK: %[[K:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: arith.cmpi eq, %[[K]], %{{.*}} : i32
// CHECK: arith.cmpi eq, %[[K]], %{{.*}} : i32
// CHECK: arith.cmpi eq, %[[K]], %{{.*}} : i32
// CHECK: %[[NOCASE:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: llvm.store %{{.*}}, %[[MATCHED]] : i8, !llvm.ptr
// case 1: sets matched.
// CHECK: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[IS1:.*]] = arith.cmpi eq, %[[K]], %[[C1]] : i32
// CHECK-NEXT: %[[HIT1:.*]] = arith.ori %{{.*}}, %[[IS1]] : i1
// CHECK-NEXT: scf.if %[[HIT1]] {
// CHECK-NEXT: arith.constant 1 : i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[MATCHED]]
// s = 10 runs when matched and not broken.
// CHECK: llvm.load %[[SWBROKE]]
// CHECK: llvm.load %[[MATCHED]]
// CHECK: scf.if
// CHECK-NEXT: arith.constant 10 : i32
// break
// CHECK: scf.if
// CHECK-NEXT: arith.constant 1 : i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[SWBROKE]]
// case 2: case 3:
// CHECK: arith.cmpi eq, %[[K]], %{{.*}} : i32
// CHECK-NEXT: arith.ori
// CHECK: arith.cmpi eq, %[[K]], %{{.*}} : i32
// CHECK-NEXT: %[[HIT23:.*]] = arith.ori
// CHECK-NEXT: scf.if %[[HIT23]] {
// CHECK: arith.constant 20 : i32
// default: matched when no case matched; s += 1 also runs after case 2/3.
// CHECK: scf.if %[[NOCASE]] {
// CHECK-NEXT: arith.constant 1 : i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[MATCHED]]
// CHECK: llvm.load %[[SWBROKE]]
// CHECK: llvm.load %[[MATCHED]]
// CHECK: scf.if
// CHECK: arith.addi
__global__ void selector(int *a, int k) {
  int s = 0;
  switch (k) {
  case 1:
    s = 10;
    break;
  case 2:
  case 3:
    s = 20;
  default:
    s += 1;
  }
  a[0] = s;
}

// A __device__ function returning from inside a loop: a return slot and a
// returned flag, which also ends the loop. It is emitted when its first
// caller (search, below) calls it, after that kernel.
// CHECK-LABEL: func.func @_Z6searchPii(
// CHECK: call @_Z4findPKiii(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, i32) -> i32
// CHECK-LABEL: func.func private @_Z4findPKiii(%arg0: !llvm.ptr, %arg1: i32, %arg2: i32) -> i32
// CHECK: llvm.alloca %{{.*}} x !llvm.ptr
// CHECK-NEXT: llvm.alloca %{{.*}} x i32
// CHECK-NEXT: llvm.alloca %{{.*}} x i32
// CHECK-NEXT: %[[RESULT:.*]] = llvm.alloca %{{.*}} x i32
// CHECK-NEXT: %[[RETURNED:.*]] = llvm.alloca %{{.*}} x i8
// CHECK: scf.while
// CHECK: llvm.load %[[RETURNED]] : !llvm.ptr -> i8
// CHECK: scf.condition
// CHECK: } do {
// CHECK: arith.cmpi eq
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: %[[I:.*]] = llvm.load
// CHECK-NEXT: llvm.store %[[I]], %[[RESULT]]
// CHECK-NEXT: arith.constant 1 : i8
// CHECK-NEXT: llvm.store %{{.*}}, %[[RETURNED]]
// The increment is skipped once returned.
// CHECK: llvm.load %[[RETURNED]] : !llvm.ptr -> i8
// CHECK: scf.yield
// return -1 only if the loop did not return.
// CHECK: llvm.load %[[RETURNED]] : !llvm.ptr -> i8
// CHECK: scf.if %{{.*}} {
// CHECK: arith.subi
// CHECK-NEXT: llvm.store %{{.*}}, %[[RESULT]]
// CHECK: %[[V:.*]] = llvm.load %[[RESULT]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: return %[[V]] : i32
__device__ int find(const int *a, int n, int key) {
  for (int i = 0; i < n; i++)
    if (a[i] == key)
      return i;
  return -1;
}

__global__ void search(int *a, int n) { a[0] = find(a, n, 7); }
