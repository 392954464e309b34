//===- GPULowerVectors.cpp - tessel-gpu-lower-vectors ----------*- C++ -*-===//
//
// The vector lowering shared with the CPU, without the CPU's math
// rewrites (on the GPU, math ops become libdevice calls in
// convert-gpu-to-nvvm), plus gpu.subgroup_reduce -> warp shuffles.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/Common/VectorLowering.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_GPULOWERVECTORS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace mlir::tessel {
namespace {
struct GPULowerVectorsPass : impl::GPULowerVectorsBase<GPULowerVectorsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateVectorLoweringPatterns(patterns);
    // Warp reductions become butterfly shuffles (32 lanes, 32-bit values).
    populateGpuLowerSubgroupReduceToShufflePatterns(patterns,
                                                    /*subgroupSize=*/32);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
