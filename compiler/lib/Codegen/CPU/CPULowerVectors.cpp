//===- CPULowerVectors.cpp - tessel-cpu-lower-vectors ----------*- C++ -*-===//
//
// Vector ops are lowered to what LLVM vectorizes well (contractions as outer
// products / FMAs, everything 1-D), math functions to polynomial
// approximations where MLIR has them (they vectorize; libm calls do not)
// and to libm calls otherwise.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_CPULOWERVECTORS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace mlir::tessel {

/// Vector and math rewrites that prepare for the LLVM conversion.
void populateCPUVectorLoweringPatterns(RewritePatternSet &patterns) {
  vector::populateVectorToVectorCanonicalizationPatterns(patterns);
  vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
  vector::populateVectorMaskMaterializationPatterns(
      patterns, /*force32BitVectorIndices=*/true);
  vector::populateVectorContractLoweringPatterns(
      patterns, vector::VectorContractLowering::OuterProduct);
  vector::populateVectorOuterProductLoweringPatterns(patterns);
  vector::populateVectorMultiReductionLoweringPatterns(
      patterns, vector::VectorMultiReductionLowering::InnerParallel);
  vector::populateVectorTransposeLoweringPatterns(
      patterns, vector::VectorTransposeLowering::Shuffle1D);
  vector::populateVectorBroadcastLoweringPatterns(patterns);
  vector::populateVectorMaskOpLoweringPatterns(patterns);
  vector::populateVectorShapeCastLoweringPatterns(patterns);
  vector::populateVectorInterleaveLoweringPatterns(patterns);
  vector::populateVectorBitCastLoweringPatterns(patterns);
  vector::populateVectorStepLoweringPatterns(patterns);
  vector::populateVectorGatherLoweringPatterns(patterns);
  vector::populateVectorTransferLoweringPatterns(patterns,
                                                 /*maxTransferRank=*/1);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  // No libm entry points exist for these.
  math::populateExpansionPatterns(patterns, {"rsqrt", "fpowi"});
  populateMathPolynomialApproximationPatterns(
      patterns, [](StringRef name) {
        // Accurate to a few ulp in f32 and vectorizable.
        return name == "exp" || name == "expm1" || name == "log" ||
               name == "log1p" || name == "log2" || name == "tanh" ||
               name == "erf" || name == "sin" || name == "cos" ||
               name == "atan" || name == "atan2";
      });
}

namespace {
struct CPULowerVectorsPass : impl::CPULowerVectorsBase<CPULowerVectorsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    {
      RewritePatternSet patterns(ctx);
      populateCPUVectorLoweringPatterns(patterns);
      if (failed(applyPatternsGreedily(module, std::move(patterns))))
        return signalPassFailure();
    }
    // Math without an approximation (or on f64) becomes libm calls, which
    // the runtime process provides when it loads the kernel library.
    RewritePatternSet patterns(ctx);
    populateMathToLibmConversionPatterns(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
