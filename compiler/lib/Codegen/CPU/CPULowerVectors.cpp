//===- CPULowerVectors.cpp - tessel-cpu-lower-vectors ----------*- C++ -*-===//
//
// Vector ops are lowered to what LLVM vectorizes well (contractions as outer
// products / FMAs, everything 1-D), math functions to polynomial
// approximations where MLIR has them (they vectorize; libm calls do not)
// and to libm calls otherwise.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/Common/VectorLowering.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
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
  populateVectorLoweringPatterns(patterns);
  // No libm entry points exist for these.
  math::populateExpansionPatterns(patterns, {"rsqrt", "fpowi"});
  populateMathPolynomialApproximationPatterns(
      patterns, [](StringRef name) {
        // Accurate to a few ulp in f32 and vectorizable.
        name.consume_front("math.");
        return name == "exp" || name == "expm1" || name == "log" ||
               name == "log1p" || name == "log2" || name == "tanh" ||
               name == "erf" || name == "sin" || name == "cos" ||
               name == "atan" || name == "atan2";
      });
}

namespace {
/// Math ops that convert-math-to-llvm lowers to LLVM intrinsics.
bool hasLLVMIntrinsic(Operation *op) {
  return isa<math::AbsFOp, math::AbsIOp, math::CeilOp, math::CopySignOp,
             math::CosOp, math::CountLeadingZerosOp,
             math::CountTrailingZerosOp, math::CtPopOp, math::Exp2Op,
             math::ExpM1Op, math::ExpOp, math::FPowIOp, math::FloorOp,
             math::FmaOp, math::Log10Op, math::Log1pOp, math::Log2Op,
             math::LogOp, math::PowFOp, math::RoundEvenOp, math::RoundOp,
             math::SinOp, math::SqrtOp, math::TruncOp>(op);
}

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
    // Math that LLVM has no intrinsic for becomes libm calls, which the
    // runtime process provides when it loads the kernel library. (Ops with
    // intrinsics, fma above all, stay for convert-math-to-llvm.)
    SmallVector<Operation *> libmOps;
    module.walk([&](Operation *op) {
      if (op->getDialect() && op->getDialect()->getNamespace() == "math" &&
          !hasLLVMIntrinsic(op))
        libmOps.push_back(op);
    });
    RewritePatternSet patterns(ctx);
    populateMathToLibmConversionPatterns(patterns);
    if (failed(applyOpPatternsGreedily(libmOps, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
