//===- GPUWgmmaMatmul.h - Hopper matmuls: wgmma + TMA (sm_90a) -*- C++ -*-===//

#ifndef TESSEL_CODEGEN_GPU_GPUWGMMAMATMUL_H
#define TESSEL_CODEGEN_GPU_GPUWGMMAMATMUL_H

#include "tessel/Codegen/GPU/GPUMatmulPlan.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::tessel {

/// The cost model's tiles when `root` (a kernel's contraction) runs with
/// wgmma and TMA on `target`: what planTensorCoreMatmul accepts, except
/// - convolutions (the implicit GEMM stays on mma.sync),
/// - constant operands (TMA reads a buffer whose address the runtime
///   knows),
/// - tf32 (not yet),
/// - i8 operands that are not both k-contiguous (wgmma transposes 16-bit
///   operands only),
/// - operands whose rows are not a multiple of 16 bytes (a TMA rule),
/// - problems of fewer than `minTiles` 128x128 output tiles (mma.sync's
///   64x64 blocks give small problems more parallelism: measured 2.1x
///   faster at 512x64x512).
/// Tiles 128 x (256, 192 or 128: the fewest waves over the target's SMs)
/// x 128 bytes of K, as many stages as fit in the target's shared memory,
/// a persistent grid of one block per SM. If not, `why` says what
/// disqualifies it.
FailureOr<MatmulTiles> chooseWgmmaTiles(Operation *root,
                                        CUDATargetAttr target,
                                        int64_t minTiles, std::string &why);

/// Whether `root` runs with wgmma on `target` with `tiles` (a strategy
/// given by the user or a tuner); if not, `why` says what does not fit.
LogicalResult checkWgmmaTiles(Operation *root, const MatmulTiles &tiles,
                              CUDATargetAttr target, std::string &why);

/// A short description of the kernel, for --tessel-print-strategy.
std::string describeWgmmaMatmul(Operation *root, const MatmulTiles &tiles);

/// Replaces the computation of `kernel` by a persistent, warp-specialized
/// wgmma matmul with `tiles` (checked by checkWgmmaTiles): one producer
/// warpgroup issues TMA loads of A and B tiles into a ring of
/// 128B-swizzled shared-memory stages guarded by mbarriers; two consumer
/// warpgroups multiply them with wgmma.mma_async into registers and apply
/// the epilogue. Appends one !llvm.ptr argument per tensor map to the
/// kernel and records the maps in tessel.tensor_maps; sets the grid, block
/// and dynamic shared memory size.
LogicalResult emitWgmmaMatmul(func::FuncOp kernel, Operation *root,
                              const MatmulTiles &tiles);

} // namespace mlir::tessel

#endif
