// RUN: tessel-cc %s --emit=mlir | tessel-opt | FileCheck %s
//
// threadIdx/blockIdx/blockDim/gridDim: clang's headers read them through
// inline __fetch_builtin_{x,y,z} functions; each becomes a private func.func
// whose body is the gpu id op (index) cast to the unsigned int the header
// returns. warpSize is the constant 32. The output is piped through tessel-opt
// so that it must also verify.

// CHECK-LABEL: func.func @_Z3idsPj(%arg0: !llvm.ptr)
// CHECK-SAME: tessel.cuda_kernel
// CHECK-SAME: tessel.cuda_parameter_sizes = array<i64: 8>
// CHECK-SAME: tessel.source_name = "ids"
// CHECK: call @_ZN26__cuda_builtin_threadIdx_t17__fetch_builtin_xEv() : () -> i32
// CHECK: call @_ZN26__cuda_builtin_threadIdx_t17__fetch_builtin_yEv() : () -> i32
// CHECK: call @_ZN26__cuda_builtin_threadIdx_t17__fetch_builtin_zEv() : () -> i32
// CHECK: call @_ZN25__cuda_builtin_blockIdx_t17__fetch_builtin_xEv() : () -> i32
// CHECK: call @_ZN25__cuda_builtin_blockIdx_t17__fetch_builtin_yEv() : () -> i32
// CHECK: call @_ZN25__cuda_builtin_blockIdx_t17__fetch_builtin_zEv() : () -> i32
// CHECK: call @_ZN25__cuda_builtin_blockDim_t17__fetch_builtin_xEv() : () -> i32
// CHECK: call @_ZN25__cuda_builtin_blockDim_t17__fetch_builtin_yEv() : () -> i32
// CHECK: call @_ZN25__cuda_builtin_blockDim_t17__fetch_builtin_zEv() : () -> i32
// CHECK: call @_ZN24__cuda_builtin_gridDim_t17__fetch_builtin_xEv() : () -> i32
// CHECK: call @_ZN24__cuda_builtin_gridDim_t17__fetch_builtin_yEv() : () -> i32
// CHECK: call @_ZN24__cuda_builtin_gridDim_t17__fetch_builtin_zEv() : () -> i32
// warpSize folds to 32.
// CHECK: %[[WARP:.*]] = arith.constant 32 : i32
// CHECK: llvm.store %[[WARP]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: return
__global__ void ids(unsigned *out) {
  out[0] = threadIdx.x;
  out[1] = threadIdx.y;
  out[2] = threadIdx.z;
  out[3] = blockIdx.x;
  out[4] = blockIdx.y;
  out[5] = blockIdx.z;
  out[6] = blockDim.x;
  out[7] = blockDim.y;
  out[8] = blockDim.z;
  out[9] = gridDim.x;
  out[10] = gridDim.y;
  out[11] = gridDim.z;
  out[12] = warpSize;
}

// The helpers, in the order of their first use.
// CHECK-LABEL: func.func private @_ZN26__cuda_builtin_threadIdx_t17__fetch_builtin_xEv() -> i32
// CHECK-SAME: tessel.source_name = "__cuda_builtin_threadIdx_t::__fetch_builtin_x"
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK-NEXT: %[[CAST:.*]] = arith.index_castui %[[ID]] : index to i32
// CHECK-NEXT: llvm.store %[[CAST]]
// CHECK-LABEL: func.func private @_ZN26__cuda_builtin_threadIdx_t17__fetch_builtin_yEv()
// CHECK: gpu.thread_id y
// CHECK-LABEL: func.func private @_ZN26__cuda_builtin_threadIdx_t17__fetch_builtin_zEv()
// CHECK: gpu.thread_id z
// CHECK-LABEL: func.func private @_ZN25__cuda_builtin_blockIdx_t17__fetch_builtin_xEv()
// CHECK: gpu.block_id x
// CHECK-LABEL: func.func private @_ZN25__cuda_builtin_blockIdx_t17__fetch_builtin_yEv()
// CHECK: gpu.block_id y
// CHECK-LABEL: func.func private @_ZN25__cuda_builtin_blockIdx_t17__fetch_builtin_zEv()
// CHECK: gpu.block_id z
// CHECK-LABEL: func.func private @_ZN25__cuda_builtin_blockDim_t17__fetch_builtin_xEv()
// CHECK: gpu.block_dim x
// CHECK-LABEL: func.func private @_ZN25__cuda_builtin_blockDim_t17__fetch_builtin_yEv()
// CHECK: gpu.block_dim y
// CHECK-LABEL: func.func private @_ZN25__cuda_builtin_blockDim_t17__fetch_builtin_zEv()
// CHECK: gpu.block_dim z
// CHECK-LABEL: func.func private @_ZN24__cuda_builtin_gridDim_t17__fetch_builtin_xEv()
// CHECK: gpu.grid_dim x
// CHECK-LABEL: func.func private @_ZN24__cuda_builtin_gridDim_t17__fetch_builtin_yEv()
// CHECK: gpu.grid_dim y
// CHECK-LABEL: func.func private @_ZN24__cuda_builtin_gridDim_t17__fetch_builtin_zEv()
// CHECK: gpu.grid_dim z

// The usual global index: unsigned arithmetic on the ids; an unsigned index
// is zero-extended to the i64 of the getelementptr.
// CHECK-LABEL: func.func @_Z6globalPfi(%arg0: !llvm.ptr, %arg1: i32)
// CHECK-SAME: tessel.cuda_parameter_sizes = array<i64: 8, 4>
// CHECK: %[[BID:.*]] = call @_ZN25__cuda_builtin_blockIdx_t17__fetch_builtin_xEv()
// CHECK-NEXT: %[[BDIM:.*]] = call @_ZN25__cuda_builtin_blockDim_t17__fetch_builtin_xEv()
// CHECK-NEXT: %[[MUL:.*]] = arith.muli %[[BID]], %[[BDIM]] : i32
// CHECK-NEXT: %[[TID:.*]] = call @_ZN26__cuda_builtin_threadIdx_t17__fetch_builtin_xEv()
// CHECK-NEXT: %[[I:.*]] = arith.addi %[[MUL]], %[[TID]] : i32
// CHECK: %[[TY:.*]] = call @_ZN26__cuda_builtin_threadIdx_t17__fetch_builtin_yEv()
// CHECK-NEXT: %[[TY64:.*]] = arith.extui %[[TY]] : i32 to i64
// CHECK-NEXT: llvm.getelementptr %{{.*}}[%[[TY64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
__global__ void global(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
  p[threadIdx.y] = 0.0f;
}
