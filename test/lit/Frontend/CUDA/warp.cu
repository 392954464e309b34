// RUN: tessel-cc %s --emit=mlir | tessel-opt | FileCheck %s
//
// Warp shuffles: clang's __shfl_*_sync wrappers call
// __nvvm_shfl_sync_<idx|up|down|bfly>_<i32|f32>(mask, value, b, c), which
// become nvvm.shfl.sync with PTX's operands (c packs the segment mask and
// the clamp, computed by the wrapper from width). 64-bit values are shuffled
// as two 32-bit halves through memcpy. Votes stay unsupported (errors/vote.cu).

// CHECK-LABEL: func.func @_Z7shufflePiPfPd(
// CHECK: call @_Z11__shfl_syncjiii(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32, i32) -> i32
// CHECK: call @_Z14__shfl_up_syncjiji(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32, i32) -> i32
// The optional width argument, given.
// CHECK: %[[W:.*]] = arith.constant 16 : i32
// CHECK-NEXT: call @_Z16__shfl_down_syncjfji(%{{.*}}, %{{.*}}, %{{.*}}, %[[W]]) : (i32, f32, i32, i32) -> f32
// CHECK: call @_Z15__shfl_xor_syncjfii(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, f32, i32, i32) -> f32
// CHECK: call @_Z16__shfl_down_syncjdji(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, f64, i32, i32) -> f64

// CHECK-LABEL: func.func private @_Z11__shfl_syncjiii(
// CHECK: nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-LABEL: func.func private @_Z14__shfl_up_syncjiji(
// CHECK: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
// down: c = ((32 - width) << 8) | 31.
// CHECK-LABEL: func.func private @_Z16__shfl_down_syncjfji(%arg0: i32, %arg1: f32, %arg2: i32, %arg3: i32) -> f32
// CHECK: %[[MASK:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[VAL:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK-NEXT: %[[DELTA:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[SEG:.*]] = arith.subi
// CHECK: %[[SHIFTED:.*]] = arith.shli %[[SEG]], %{{.*}} : i32
// CHECK: %[[C:.*]] = arith.ori %[[SHIFTED]], %{{.*}} : i32
// CHECK-NEXT: nvvm.shfl.sync down %[[MASK]], %[[VAL]], %[[DELTA]], %[[C]] : f32 -> f32
// CHECK-LABEL: func.func private @_Z15__shfl_xor_syncjfii(
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
// double: through long long, then two i32 shuffles.
// CHECK-LABEL: func.func private @_Z16__shfl_down_syncjdji(
// CHECK: call @_Z16__shfl_down_syncjxji(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i64, i32, i32) -> i64
// CHECK-LABEL: func.func private @_Z16__shfl_down_syncjxji(
// CHECK: call @_Z16__shfl_down_syncjiji(
// CHECK: call @_Z16__shfl_down_syncjiji(
// CHECK-LABEL: func.func private @_Z16__shfl_down_syncjiji(
// CHECK: nvvm.shfl.sync down %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
__global__ void shuffle(int *i, float *f, double *d) {
  unsigned t = threadIdx.x;
  i[0] = __shfl_sync(0xffffffffu, i[t], 3);
  i[1] = __shfl_up_sync(0xffffffffu, i[t], 1);
  f[0] = __shfl_down_sync(0xffffffffu, f[t], 2, 16);
  f[1] = __shfl_xor_sync(0xffffffffu, f[t], 8);
  d[0] = __shfl_down_sync(0xffffffffu, d[t], 1);
}
