//===- GPUSharedMemoryMatmul.h - f32 matmul through smem -------*- C++ -*-===//

#ifndef TESSEL_CODEGEN_GPU_GPUSHAREDMEMORYMATMUL_H
#define TESSEL_CODEGEN_GPU_GPUSHAREDMEMORYMATMUL_H

#include "tessel/Codegen/GPU/GPUMatmulPlan.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {

/// The cost model's tiles when `root` (a kernel's contraction) is an f32
/// matmul or batch matmul C[b,m,n] += A[b,m,k] B[b,k,n], with A or B (or
/// both) possibly transposed (A[b,k,m], B[b,n,k]), reading A and B
/// straight from bindings and storing C into one, with static shapes:
/// 128x128x8, or 64x64x8 when 128x128 gives fewer blocks than the target
/// has SMs. If not, `why` says so.
FailureOr<MatmulTiles> chooseSimtMatmulTiles(Operation *root,
                                             CUDATargetAttr target,
                                             std::string &why);

/// Replaces the computation of `kernel` by a matmul with `tiles` (square
/// blocks of 128 or 64) that stages A and B tiles in shared memory
/// (double-buffered) and gives each thread an 8x8 register tile; sets the
/// kernel's grid and block size. The tensor ops left behind are dead.
LogicalResult emitSharedMemoryMatmul(func::FuncOp kernel, Operation *root,
                                     const MatmulTiles &tiles);

} // namespace mlir::tessel

#endif
