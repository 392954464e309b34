//===- GPURowFusion.h - a chain of row ops in one kernel -------*- C++ -*-===//

#ifndef TESSEL_CODEGEN_GPU_GPUROWFUSION_H
#define TESSEL_CODEGEN_GPU_GPUROWFUSION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {

/// Whether `kernel` is a fused row dispatch (several row ops of one space,
/// Dispatch/RowGroups.h) that GPURowFusion can run with a warp (or, for
/// rows longer than 1024, a block of warps) per row.
bool canUseRowFusion(func::FuncOp kernel);

/// Replaces the computation of `kernel` by a warp or block per row that loads the
/// row's inputs into registers once and runs every op of the chain on
/// them, and sets the grid and block size. The tensor ops left are dead.
LogicalResult emitRowFusion(func::FuncOp kernel);

} // namespace mlir::tessel

#endif
