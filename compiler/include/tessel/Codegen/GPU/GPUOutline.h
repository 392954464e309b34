//===- GPUOutline.h - func.func kernels as gpu.func kernels ----*- C++ -*-===//

#ifndef TESSEL_CODEGEN_GPU_GPUOUTLINE_H
#define TESSEL_CODEGEN_GPU_GPUOUTLINE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::tessel {

/// Replaces `fn` by a `gpu.func ... kernel` of the same name, signature,
/// discardable attributes and body (func.return becomes
/// gpu.return), created at `b`'s insertion point; erases `fn`.
gpu::GPUFuncOp replaceWithGPUKernel(func::FuncOp fn, OpBuilder &b);

} // namespace mlir::tessel

#endif
