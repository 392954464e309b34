//===- LowerMemRefCopy.cpp - tessel-lower-memref-copy ----------*- C++ -*-===//
//
// memref.copy -> linalg.copy, so that copies between strided views need no
// runtime library in the kernel image.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_LOWERMEMREFCOPY
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace {
struct MemRefCopyToLinalg : OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    // linalg.copy needs ranked operands (on unranked ones it would even
    // look dead and be erased).
    if (!isa<MemRefType>(op.getSource().getType()) ||
        !isa<MemRefType>(op.getTarget().getType()))
      return rewriter.notifyMatchFailure(op, "unranked memref copy");
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }
};
} // namespace

namespace mlir::tessel {

void populateLowerMemRefCopyPatterns(RewritePatternSet &patterns) {
  patterns.add<MemRefCopyToLinalg>(patterns.getContext());
}

namespace {
struct LowerMemRefCopyPass : impl::LowerMemRefCopyBase<LowerMemRefCopyPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLowerMemRefCopyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
