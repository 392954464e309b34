// RUN: tessel-cc %s --emit=mlir | tessel-opt | FileCheck %s
//
// Atomics: the headers' atomicAdd/atomicMax/atomicCAS wrappers call
// __nvvm_atom_* builtins, which become llvm.atomicrmw (add/fadd, max/umax)
// and llvm.cmpxchg (its old value, extractvalue [0]), all monotonic.

// CHECK-LABEL: func.func @_Z3addPiPjPyPfPd(
// The old value of atomicAdd is a value like any other.
// CHECK: %[[OLD:.*]] = call @_ZL9atomicAddPii(%{{.*}}, %{{.*}}) : (!llvm.ptr, i32) -> i32
// CHECK: llvm.store %[[OLD]]
// CHECK: call @_ZL9atomicAddPjj(%{{.*}}, %{{.*}}) : (!llvm.ptr, i32) -> i32
// CHECK: call @_ZL9atomicAddPyy(%{{.*}}, %{{.*}}) : (!llvm.ptr, i64) -> i64
// CHECK: call @_ZL9atomicAddPff(%{{.*}}, %{{.*}}) : (!llvm.ptr, f32) -> f32
// CHECK: call @_ZL9atomicAddPdd(%{{.*}}, %{{.*}}) : (!llvm.ptr, f64) -> f64
// CHECK-LABEL: func.func private @_ZL12__iAtomicAddPii(%arg0: !llvm.ptr, %arg1: i32) -> i32
// CHECK: %[[P:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[V:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[R:.*]] = llvm.atomicrmw add %[[P]], %[[V]] monotonic : !llvm.ptr, i32
// CHECK-NEXT: llvm.store %[[R]]
// CHECK-LABEL: func.func private @_ZL12__uAtomicAddPjj(
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK-LABEL: func.func private @_ZL14__ullAtomicAddPyy(
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i64
// CHECK-LABEL: func.func private @_ZL12__fAtomicAddPff(
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} monotonic : !llvm.ptr, f32
// CHECK-LABEL: func.func private @_ZL12__dAtomicAddPdd(
// CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} monotonic : !llvm.ptr, f64
__global__ void add(int *i, unsigned *u, unsigned long long *ull, float *f,
                    double *d) {
  int old = atomicAdd(i, 1);
  i[1] = old;
  atomicAdd(u, 3u);
  atomicAdd(ull, 4ull);
  atomicAdd(f, 2.0f);
  atomicAdd(d, 1.0);
}

// atomicMax: signed max, unsigned umax.
// CHECK-LABEL: func.func @_Z7maximumPiPjPx(
// CHECK: call @_ZL9atomicMaxPii(
// CHECK: call @_ZL9atomicMaxPjj(
// CHECK: call @_ZL9atomicMaxPxx(
// CHECK-LABEL: func.func private @_ZL12__iAtomicMaxPii(
// CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK-LABEL: func.func private @_ZL12__uAtomicMaxPjj(
// CHECK: llvm.atomicrmw umax %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i32
// CHECK-LABEL: func.func private @_ZL14__illAtomicMaxPxx(
// CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} monotonic : !llvm.ptr, i64
__global__ void maximum(int *i, unsigned *u, long long *ll) {
  atomicMax(i, i[1]);
  atomicMax(u, 7u);
  atomicMax(ll, ll[1]);
}

// atomicCAS returns the old value: field 0 of the cmpxchg result.
// CHECK-LABEL: func.func @_Z3casPiPjPy(
// CHECK: %[[OLDI:.*]] = call @_ZL9atomicCASPiii(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, i32) -> i32
// CHECK: llvm.store %[[OLDI]]
// CHECK: call @_ZL9atomicCASPjjj(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, i32) -> i32
// CHECK: call @_ZL9atomicCASPyyy(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64) -> i64
// CHECK-LABEL: func.func private @_ZL12__iAtomicCASPiii(%arg0: !llvm.ptr, %arg1: i32, %arg2: i32) -> i32
// CHECK: %[[PTR:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[CMP:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[NEW:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[PAIR:.*]] = llvm.cmpxchg %[[PTR]], %[[CMP]], %[[NEW]] monotonic monotonic : !llvm.ptr, i32
// CHECK-NEXT: %[[OLD:.*]] = llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i32, i1)>
// CHECK-NEXT: llvm.store %[[OLD]]
// CHECK-LABEL: func.func private @_ZL12__uAtomicCASPjjj(
// CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} monotonic monotonic : !llvm.ptr, i32
// CHECK-LABEL: func.func private @_ZL14__ullAtomicCASPyyy(
// CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} monotonic monotonic : !llvm.ptr, i64
// CHECK-NEXT: llvm.extractvalue %{{.*}}[0] : !llvm.struct<(i64, i1)>
__global__ void cas(int *i, unsigned *u, unsigned long long *ull) {
  i[1] = atomicCAS(i, 0, 1);
  atomicCAS(u, 2u, 3u);
  atomicCAS(ull, 5ull, 6ull);
}

// An atomic on a __shared__ variable goes through its generic address.
// CHECK-LABEL: func.func @_Z6sharedPi(
// CHECK: %[[G:.*]] = llvm.mlir.addressof @_Z6sharedPi_count : !llvm.ptr<3>
// CHECK-NEXT: %[[GEN:.*]] = llvm.addrspacecast %[[G]] : !llvm.ptr<3> to !llvm.ptr
// CHECK: call @_ZL9atomicAddPii(%[[GEN]], %{{.*}}) : (!llvm.ptr, i32) -> i32
__global__ void shared(int *out) {
  __shared__ int count;
  atomicAdd(&count, 1);
  out[0] = count;
}
