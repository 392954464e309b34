//===- GPUWarpReduction.h - one warp per reduced row -----------*- C++ -*-===//

#ifndef TESSEL_CODEGEN_GPU_GPUWARPREDUCTION_H
#define TESSEL_CODEGEN_GPU_GPUWARPREDUCTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {

/// Whether `root` (the root of `kernel`) is a 32-bit reduction along its
/// last, contiguous loop with a combiner that warp shuffles support, reading
/// its inputs straight from bindings.
bool canUseWarpReduction(func::FuncOp kernel, Operation *root);

/// Replaces the computation of `kernel` by a warp-per-row reduction written
/// on the binding memrefs and sets the kernel's grid and block size. The
/// tensor ops left behind are dead.
LogicalResult emitWarpReduction(func::FuncOp kernel, Operation *root);

} // namespace mlir::tessel

#endif
