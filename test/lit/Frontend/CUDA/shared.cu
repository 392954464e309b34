// RUN: tessel-cc %s --emit=mlir | tessel-opt | FileCheck %s
//
// __shared__ variables are llvm.mlir.global in address space 3, one per
// variable, named <kernel's mangled name>.<variable>; code uses them through
// an addrspacecast to the generic !llvm.ptr. An `extern __shared__` array is
// the external, zero-length global marked tessel.cuda_dynamic_shared, named
// __tessel_dynamic_shared, one buffer every extern __shared__ array aliases. __syncthreads() is tessel.barrier.

// The globals come first in the module.
// CHECK-DAG: llvm.mlir.global internal @_Z6reducePKfPf_tile() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<256 x f32>
// CHECK-DAG: llvm.mlir.global internal @_Z6reducePKfPf_count() {addr_space = 3 : i32, alignment = 4 : i64} : i32
// CHECK-DAG: llvm.mlir.global internal @_Z9transposePd_tile() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<16 x array<17 x f64>>
// CHECK-DAG: llvm.mlir.global external @__tessel_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64, tessel.cuda_dynamic_shared} : !llvm.array<0 x i8>
// A same-named extern __shared__ in a second kernel is the same global.
// CHECK-NOT: @__tessel_dynamic_shared_
// CHECK-NOT: llvm.mlir.global

// CHECK-LABEL: func.func @_Z6reducePKfPf(
// CHECK: %[[TILE3:.*]] = llvm.mlir.addressof @_Z6reducePKfPf_tile : !llvm.ptr<3>
// CHECK-NEXT: %[[TILE:.*]] = llvm.addrspacecast %[[TILE3]] : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT: %[[COUNT3:.*]] = llvm.mlir.addressof @_Z6reducePKfPf_count : !llvm.ptr<3>
// CHECK-NEXT: %[[COUNT:.*]] = llvm.addrspacecast %[[COUNT3]] : !llvm.ptr<3> to !llvm.ptr
// CHECK-NEXT: %[[DYN3:.*]] = llvm.mlir.addressof @__tessel_dynamic_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[DYN:.*]] = llvm.addrspacecast %[[DYN3]] : !llvm.ptr<3> to !llvm.ptr
// tile[t] = in[t]
// CHECK: llvm.getelementptr %[[TILE]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// dyn[t] = ...
// CHECK: llvm.getelementptr %[[DYN]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// if (t == 0) count = 0;
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %[[COUNT]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: tessel.barrier
// The tree reduction: a barrier at the end of each iteration.
// CHECK: scf.while
// CHECK: } do {
// CHECK: scf.if
// CHECK: arith.addf
// CHECK-NEXT: llvm.store
// CHECK-NEXT: {{^ *\}$}}
// CHECK-NEXT: tessel.barrier
// CHECK: arith.shrui
// CHECK: scf.yield
// CHECK: return
__global__ void reduce(const float *in, float *out) {
  __shared__ float tile[256];
  __shared__ int count;
  extern __shared__ float dyn[];
  unsigned t = threadIdx.x;
  tile[t] = in[t];
  dyn[t] = 2.0f * in[t];
  if (t == 0)
    count = 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = tile[0] + dyn[1] + count;
}

// A 2-D shared array (padded row), and a barrier inside a branch.
// CHECK-LABEL: func.func @_Z9transposePd(
// CHECK: %[[T3:.*]] = llvm.mlir.addressof @_Z9transposePd_tile : !llvm.ptr<3>
// CHECK-NEXT: %[[T:.*]] = llvm.addrspacecast %[[T3]] : !llvm.ptr<3> to !llvm.ptr
// CHECK: %[[ROW:.*]] = llvm.getelementptr %[[T]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<17 x f64>
// CHECK: llvm.getelementptr %[[ROW]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: tessel.barrier
__global__ void transpose(double *p) {
  __shared__ double tile[16][17];
  tile[threadIdx.y][threadIdx.x] = p[threadIdx.x];
  if (blockDim.x > 1)
    __syncthreads();
  p[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// Dynamic shared memory reused: the same-named declaration in another kernel
// and a char buffer cast to another element type.
// CHECK-LABEL: func.func @_Z5reusePf(
// CHECK: llvm.mlir.addressof @__tessel_dynamic_shared : !llvm.ptr<3>
// CHECK: %[[B3:.*]] = llvm.mlir.addressof @__tessel_dynamic_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[B:.*]] = llvm.addrspacecast %[[B3]] : !llvm.ptr<3> to !llvm.ptr
// CHECK: llvm.store %[[B]], %[[FSLOT:.*]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK: %[[F:.*]] = llvm.load %[[FSLOT]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: arith.extsi
// CHECK-NEXT: llvm.getelementptr %[[F]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
__global__ void reuse(float *p) {
  extern __shared__ float dyn[];
  extern __shared__ char bytes[];
  dyn[0] = p[0];
  float *f = (float *)bytes;
  f[1] = p[1];
}
