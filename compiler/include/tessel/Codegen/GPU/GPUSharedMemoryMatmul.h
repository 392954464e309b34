//===- GPUSharedMemoryMatmul.h - f32 matmul through smem -------*- C++ -*-===//

#ifndef TESSEL_CODEGEN_GPU_GPUSHAREDMEMORYMATMUL_H
#define TESSEL_CODEGEN_GPU_GPUSHAREDMEMORYMATMUL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {

/// Whether `root` (the root of `kernel`) is an f32 matmul or batch matmul
/// C[b,m,n] += A[b,m,k] B[b,k,n], with A or B (or both) possibly transposed
/// (A[b,k,m], B[b,n,k]), reading A and B straight from bindings and storing
/// C into one, with static shapes.
bool canUseSharedMemoryMatmul(func::FuncOp kernel, Operation *root);

/// Replaces the computation of `kernel` by a 128x128-per-block matmul that
/// stages A and B tiles in shared memory (double-buffered) and gives each
/// thread an 8x8 register tile; sets the kernel's grid and block size.
/// The tensor ops left behind are dead.
LogicalResult emitSharedMemoryMatmul(func::FuncOp kernel, Operation *root);

} // namespace mlir::tessel

#endif
