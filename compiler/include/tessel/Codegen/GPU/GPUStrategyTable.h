//===- GPUStrategyTable.h - the cuda target's strategies -------*- C++ -*-===//
//
// Every GPU strategy in one ordered table. Each entry answers, for a
// kernel: "do you take it, and with what parameters?", as a
// #tessel.strategy plus the op it applies to, or a reason why not. The
// select-strategy pass asks them in order (the first that takes a kernel
// wins) or asks only the kind a user forced; the lowering
// (tessel-gpu-tile-and-vectorize) reads nothing but the attribute.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_GPU_GPUSTRATEGYTABLE_H
#define TESSEL_CODEGEN_GPU_GPUSTRATEGYTABLE_H

#include "tessel/Codegen/Common/SelectStrategy.h"
#include "tessel/Codegen/GPU/GPUMatmulPlan.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::tessel {

/// Largest per-thread tile (in elements) that gets vectorized.
inline constexpr int64_t kGPUMaxVectorElements = 64;

/// What the strategies know besides the kernel.
struct GPUStrategyOptions {
  CUDATargetAttr target;
  /// f32 contractions may run on TF32 tensor cores (--cuda-tf32): a
  /// numerical choice of the user's, not a strategy.
  bool tf32 = false;
  /// The cost model gives wgmma only contractions of at least this many
  /// 128x128 output tiles (--tessel-wgmma-min-tiles).
  int64_t wgmmaMinTiles = 66;
};

/// Asks the strategies in order; the last (serial) takes every kernel.
/// With `forced` (from --tessel-strategy-file), asks only its kind, with
/// its parameters when it has them: failure (an error at the kernel) when
/// that strategy does not take the kernel or the parameters do not fit.
FailureOr<StrategySelection>
selectGPUStrategy(func::FuncOp kernel, const GPUStrategyOptions &options,
                  const ForcedStrategy *forced = nullptr);

/// The strategies a tuner should time for `kernel`: the cost model's
/// choice first, then, where that is a matmul kind, every matmul kind that
/// takes the kernel with each block tile, stage count and grid the target
/// allows (wgmma 128 x {128, 192, 256} with 2-8 stages; mma.sync {64,
/// 128}^2 with 2-6 stages; SIMT 64 or 128), each checked as a forced
/// strategy would be. Other kinds have nothing to vary yet.
SmallVector<StrategyAttr>
enumerateGPUStrategies(func::FuncOp kernel, const GPUStrategyOptions &options);

/// The tiles a matmul kind's attribute holds, and the attribute of tiles.
MatmulTiles getMatmulTiles(StrategyAttr strategy);
StrategyAttr getMatmulStrategy(MLIRContext *ctx, StrategyKind kind,
                               const MatmulTiles &tiles);

} // namespace mlir::tessel

#endif
