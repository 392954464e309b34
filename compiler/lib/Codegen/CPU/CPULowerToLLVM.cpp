//===- CPULowerToLLVM.cpp - tessel-cpu-lower-to-llvm -----------*- C++ -*-===//
//
// Last step of CPU codegen: vector ops are lowered to what LLVM vectorizes
// well (contractions as outer products / FMAs), math functions to
// polynomial approximations where MLIR has them (they vectorize; libm calls
// do not) and to libm otherwise, then everything is converted to the LLVM
// dialect, including tessel.binding.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_CPULOWERTOLLVM
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// tessel.binding -> load of entry `index` of the binding table, viewed as a
/// static memref descriptor.
struct BindingOpLowering : ConvertOpToLLVMPattern<BindingOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BindingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value slot = LLVM::GEPOp::create(
        rewriter, loc, ptrType, ptrType, adaptor.getTable(),
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(op.getIndex())});
    Value base = LLVM::LoadOp::create(rewriter, loc, ptrType, slot);
    Value descriptor = MemRefDescriptor::fromStaticShape(
        rewriter, loc, *getTypeConverter(), op.getResult().getType(), base);
    rewriter.replaceOp(op, descriptor);
    return success();
  }
};

} // namespace

namespace mlir::tessel {

/// Vector and math rewrites that prepare for the LLVM conversion.
void populateCPUVectorLoweringPatterns(RewritePatternSet &patterns) {
  vector::populateVectorToVectorCanonicalizationPatterns(patterns);
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
  populateMathPolynomialApproximationPatterns(
      patterns, [](StringRef name) {
        // Accurate to a few ulp in f32 and vectorizable.
        return name == "exp" || name == "expm1" || name == "log" ||
               name == "log1p" || name == "log2" || name == "tanh" ||
               name == "erf" || name == "sin" || name == "cos" ||
               name == "atan" || name == "atan2";
      });
}

/// Patterns that convert a lowered kernel module to the LLVM dialect.
void populateCPUToLLVMConversionPatterns(LLVMTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<BindingOpLowering>(converter);
  populateFuncToLLVMConversionPatterns(converter, patterns);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  populateVectorToLLVMConversionPatterns(converter, patterns,
                                         /*reassociateFPReductions=*/true);
  populateMathToLLVMConversionPatterns(converter, patterns);
  index::populateIndexToLLVMConversionPatterns(converter, patterns);
  ub::populateUBToLLVMConversionPatterns(converter, patterns);
}

namespace {
struct CPULowerToLLVMPass : impl::CPULowerToLLVMBase<CPULowerToLLVMPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    {
      RewritePatternSet patterns(ctx);
      populateCPUVectorLoweringPatterns(patterns);
      if (failed(applyPatternsGreedily(module, std::move(patterns))))
        return signalPassFailure();
    }
    {
      // Math without an approximation (or on f64) becomes libm calls, which
      // the runtime process provides when it loads the kernel library.
      RewritePatternSet patterns(ctx);
      populateMathToLibmConversionPatterns(patterns);
      if (failed(applyPatternsGreedily(module, std::move(patterns))))
        return signalPassFailure();
    }
    LLVMConversionTarget target(*ctx);
    target.addLegalOp<ModuleOp>();
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populateCPUToLLVMConversionPatterns(converter, patterns);
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
