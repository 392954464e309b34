// RUN: tessel-cc %s --emit=mlir | tessel-opt | FileCheck %s
//
// Memory: pointers are !llvm.ptr, element access is llvm.getelementptr over
// the element type with an i64 index, loads and stores carry the C type's
// alignment. Records are packed LLVM structs with clang's padding spelled
// out as i8 arrays; fields are getelementptr [0, field].

// Pointer arithmetic: p + n, p -= 2 (a negated index), p++, and the
// difference of two pointers (bytes divided by the element size).
// CHECK-LABEL: func.func @_Z8pointersPfPKflt(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i16)
// CHECK-SAME: tessel.cuda_parameter_sizes = array<i64: 8, 8, 8, 2>
// CHECK: %[[P:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[N:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK-NEXT: llvm.getelementptr %[[P]][%[[N]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// q[3]
// CHECK: %[[THREE:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[Q3:.*]] = llvm.getelementptr %{{.*}}[%[[THREE]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT: llvm.load %[[Q3]] {alignment = 4 : i64} : !llvm.ptr -> f32
// r -= 2
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[NEG64:.*]] = arith.extsi %[[NEG]] : i32 to i64
// CHECK-NEXT: llvm.getelementptr %{{.*}}[%[[NEG64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// r++
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT: llvm.getelementptr %{{.*}}[%[[ONE]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// r - p
// CHECK: %[[A:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
// CHECK-NEXT: %[[B:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[A]], %[[B]] : i64
// CHECK-NEXT: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK-NEXT: arith.divsi %[[D]], %[[FOUR]] : i64
// *(q + s): the unsigned short is promoted to int, then widened.
// CHECK: arith.extui %{{.*}} : i16 to i32
// CHECK-NEXT: arith.extsi %{{.*}} : i32 to i64
// *p++ = ...: the store goes to the old pointer.
// CHECK: %[[ONEF:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[OLDP:.*]] = llvm.load %[[PSLOT:.*]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: arith.constant 1 : i64
// CHECK-NEXT: %[[INC:.*]] = llvm.getelementptr %[[OLDP]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT: llvm.store %[[INC]], %[[PSLOT]]
// CHECK-NEXT: llvm.store %[[ONEF]], %[[OLDP]] {alignment = 4 : i64} : f32, !llvm.ptr
// if (p): compared with null.
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: %[[NONNULL:.*]] = llvm.icmp "ne" %{{.*}}, %[[NULL]] : !llvm.ptr
// CHECK-NEXT: scf.if %[[NONNULL]]
// CHECK: llvm.store volatile %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr
__global__ void pointers(float *p, const float *q, long n, unsigned short s) {
  float *r = p + n;
  *r = q[3];
  r -= 2;
  r++;
  long d = r - p;
  p[d] = *(q + s);
  float *w = p;
  *w++ = 1.0f;
  if (p) {
    volatile float *v = p;
    v[1] = 2.0f;
  }
}

// Local arrays: one alloca of the array type; a short initializer list
// zero-fills with llvm.intr.memset first; a 2-D access indexes the row
// array, then the element.
// CHECK-LABEL: func.func @_Z6arraysPii(
// CHECK-DAG: %[[LOCAL:.*]] = llvm.alloca %{{.*}} x !llvm.array<4 x i32> {alignment = 4 : i64}
// CHECK-DAG: %[[GRID:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x array<3 x f32>> {alignment = 4 : i64}
// CHECK: %[[BYTES:.*]] = arith.constant 16 : i64
// CHECK-NEXT: "llvm.intr.memset"(%[[LOCAL]], %{{.*}}, %[[BYTES]]) <{isVolatile = false}>
// CHECK: %[[IDX1:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[E1:.*]] = llvm.getelementptr %[[LOCAL]][%[[IDX1]]] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT: %[[SEVEN:.*]] = arith.constant 7 : i32
// CHECK-NEXT: llvm.store %[[SEVEN]], %[[E1]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %[[ROW:.*]] = llvm.getelementptr %[[GRID]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<3 x f32>
// CHECK: llvm.getelementptr %[[ROW]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// local[i] with a run-time index.
// CHECK: %[[I:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[I64:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK-NEXT: llvm.getelementptr %[[LOCAL]][%[[I64]]] : (!llvm.ptr, i64) -> !llvm.ptr, i32
__global__ void arrays(int *out, int i) {
  int local[4] = {5, 7};
  float grid[2][3];
  grid[1][2] = 4.0f;
  out[0] = local[i] + (int)grid[1][2];
}

// Structs of scalars, laid out as clang lays them out: int at 0, 4 bytes of
// padding, double at 8, char at 16, 7 bytes of tail padding (24 bytes).
struct Pair {
  int a;
  double b;
  char c;
};
struct Vec3 {
  float v[3];
  int tag;
};
// CHECK-LABEL: func.func @_Z7structsP4PairS_P4Vec3(%arg0: !llvm.ptr, %arg1: !llvm.struct<packed (i32, array<4 x i8>, f64, i8, array<7 x i8>)>, %arg2: !llvm.ptr)
// CHECK-SAME: tessel.cuda_parameter_sizes = array<i64: 8, 24, 8>
// The by-value struct lives in a slot of its own type.
// CHECK: %[[BYVAL:.*]] = llvm.alloca %{{.*}} x !llvm.struct<packed (i32, array<4 x i8>, f64, i8, array<7 x i8>)> {alignment = 8 : i64}
// CHECK: llvm.store %arg1, %[[BYVAL]] {alignment = 8 : i64} : !llvm.struct<packed (i32, array<4 x i8>, f64, i8, array<7 x i8>)>, !llvm.ptr
// pp->a
// CHECK: %[[PP:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[FA:.*]] = llvm.getelementptr %[[PP]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<packed (i32, array<4 x i8>, f64, i8, array<7 x i8>)>
// CHECK-NEXT: llvm.load %[[FA]] {alignment = 4 : i64} : !llvm.ptr -> i32
// byval.b: field 2 (after the padding).
// CHECK: %[[FB:.*]] = llvm.getelementptr %[[BYVAL]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<packed (i32, array<4 x i8>, f64, i8, array<7 x i8>)>
// CHECK-NEXT: llvm.load %[[FB]] {alignment = 8 : i64} : !llvm.ptr -> f64
// pp[1].c = byval.c
// CHECK: %[[FC:.*]] = llvm.getelementptr %[[BYVAL]][0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<packed (i32, array<4 x i8>, f64, i8, array<7 x i8>)>
// CHECK-NEXT: %[[C:.*]] = llvm.load %[[FC]] {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK: %[[PP1:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<packed (i32, array<4 x i8>, f64, i8, array<7 x i8>)>
// CHECK-NEXT: %[[PP1C:.*]] = llvm.getelementptr %[[PP1]][0, 3]
// CHECK-NEXT: llvm.store %[[C]], %[[PP1C]] {alignment = 1 : i64} : i8, !llvm.ptr
// A local initialized from a list: zero-filled, then each field stored.
// CHECK: %[[SIZE:.*]] = arith.constant 24 : i64
// CHECK-NEXT: "llvm.intr.memset"(%{{.*}}, %{{.*}}, %[[SIZE]])
// CHECK: llvm.getelementptr %{{.*}}[0, 0]
// CHECK-NEXT: %[[FIVE:.*]] = arith.constant 5 : i32
// CHECK-NEXT: llvm.store %[[FIVE]]
// CHECK: llvm.getelementptr %{{.*}}[0, 2]
// CHECK-NEXT: %[[HALF:.*]] = arith.constant 2.500000e+00 : f64
// CHECK-NEXT: llvm.store %[[HALF]]
// &pp->b is the field's address.
// CHECK: %[[PPB:.*]] = llvm.getelementptr %{{.*}}[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<packed (i32, array<4 x i8>, f64, i8, array<7 x i8>)>
// CHECK-NEXT: llvm.store %[[PPB]], %{{.*}} {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// A struct holding an array: vs[1].v[2] = vs[0].v[1].
// CHECK: %[[VS0:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<packed (array<3 x f32>, i32)>
// CHECK-NEXT: %[[V0:.*]] = llvm.getelementptr %[[VS0]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<packed (array<3 x f32>, i32)>
// CHECK: llvm.getelementptr %[[V0]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: return
__global__ void structs(Pair *pp, Pair byval, Vec3 *vs) {
  int a = pp->a;
  pp[1].b = byval.b + a;
  pp[1].c = byval.c;
  Pair t = {5, 2.5, 'x'};
  pp[2].a = t.a;
  double *bp = &pp->b;
  *bp = 1.0;
  vs[1].v[2] = vs[0].v[1];
}

// __ldg is a plain load (in the header's wrapper).
// CHECK-LABEL: func.func @_Z3ldgPKfPf(
// CHECK: call @_Z5__ldgPKf(%{{.*}}) : (!llvm.ptr) -> f32
// CHECK-LABEL: func.func private @_Z5__ldgPKf(%arg0: !llvm.ptr) -> f32
// CHECK: %[[PTR:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr -> f32
__global__ void ldg(const float *__restrict__ in, float *out) {
  out[0] = __ldg(in);
}
