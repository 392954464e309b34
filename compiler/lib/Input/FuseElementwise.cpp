//===- FuseElementwise.cpp - tessel-fuse-elementwise -----------*- C++ -*-===//
//
// Upstream linalg elementwise fusion (producer generics into consumer
// generics, reshapes folded by expansion, constant folding), with one rule
// of Tessel's: into a consumer with reduction loops (a contraction written
// as a generic, e.g. by tessel-decompose-attention) only casts fuse. Any
// other producer would be recomputed for every iteration of the reduction
// loops its operand does not index (a softmax's exp and division once per
// output column of P V), and it hides the producer chain from dispatch
// formation (the softmax would no longer be a fused row chain), and a
// transpose folded into a contraction's maps leaves batch or K loops that
// cannot be collapsed (BERT's P V read V as [b, k2, h, n]: the slow generic
// contraction instead of tensor cores). Casts in the same layout fuse
// because the matmul strategies fold them (f16 operands of an f32
// contraction on tensor cores).
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace {

/// A generic whose body is one cast (extf, truncf, sitofp, ...) of its one
/// input, or a plain copy, in the same layout (identity maps: a transpose
/// stays a dispatch of its own, so that the contraction reading it keeps
/// operands its matmul strategies take).
bool isCastOrCopy(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 || generic.getNumResults() != 1)
    return false;
  if (!llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block &body = generic.getRegion().front();
  auto ops = body.without_terminator();
  unsigned n = std::distance(ops.begin(), ops.end());
  if (n == 0)
    return true;
  return n == 1 && isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp,
                       arith::ExtUIOp, arith::TruncIOp, arith::SIToFPOp,
                       arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp>(
                      *ops.begin());
}

bool shouldFuse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  if (consumer && consumer.getNumReductionLoops() > 0 &&
      isa<linalg::GenericOp>(producer))
    return isCastOrCopy(producer);
  return true;
}

} // namespace

namespace mlir::tessel {
namespace {
struct FuseElementwisePass
    : tessel::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::ControlFusionFn control = shouldFuse;
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, control);
    // A tensor.dim of a producer's result (the extent of a dynamic
    // consumer's init) becomes the producer's own extent, so that it does
    // not count as a second use that keeps the producer out of fusion.
    memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
    tensor::DimOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
