//===- CPULowerToLLVM.cpp - tessel-cpu-lower-to-llvm -----------*- C++ -*-===//
//
// Last step of CPU codegen: everything is converted to the LLVM dialect,
// tessel.binding included.
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
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

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

/// tessel.push_constant k -> the i64 in entry binding_count + k of the
/// binding table (the kernel's first argument), before the conversion.
LogicalResult lowerPushConstants(func::FuncOp kernel) {
  auto bindingCount = kernel->getAttrOfType<IntegerAttr>(kBindingCountAttr);
  WalkResult result = kernel.walk([&](PushConstantOp op) {
    if (!bindingCount || kernel.getNumArguments() == 0 ||
        !isa<LLVM::LLVMPointerType>(kernel.getArgument(0).getType())) {
      op.emitOpError("is not in a kernel with a binding table");
      return WalkResult::interrupt();
    }
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value slot = LLVM::GEPOp::create(
        b, loc, ptrType, ptrType, kernel.getArgument(0),
        ArrayRef<LLVM::GEPArg>{
            static_cast<int32_t>(bindingCount.getInt() + op.getIndex())});
    Value value = LLVM::LoadOp::create(b, loc, b.getI64Type(), slot);
    op.replaceAllUsesWith(arith::IndexCastOp::create(
        b, loc, b.getIndexType(), value).getResult());
    op.erase();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

} // namespace

namespace mlir::tessel {

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
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    for (auto kernel : module.getOps<func::FuncOp>())
      if (failed(lowerPushConstants(kernel)))
        return signalPassFailure();
    LLVMConversionTarget target(*ctx);
    target.addLegalOp<ModuleOp>();
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populateCPUToLLVMConversionPatterns(converter, patterns);
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // Loop hints (an scf.for's `llvm.loop_annotation`, which the SCF and CF
    // conversions carry to the loop's back edge as a discardable attribute)
    // become the branch's own annotation, which LLVM IR emits as !llvm.loop.
    constexpr llvm::StringLiteral kLoopAnnotation = "llvm.loop_annotation";
    module.walk([&](LLVM::BrOp br) {
      if (auto a = br->getAttrOfType<LLVM::LoopAnnotationAttr>(kLoopAnnotation)) {
        br.setLoopAnnotationAttr(a);
        br->removeAttr(kLoopAnnotation);
      }
    });
  }
};
} // namespace
} // namespace mlir::tessel
