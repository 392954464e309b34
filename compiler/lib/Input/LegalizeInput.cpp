//===- LegalizeInput.cpp - tessel-legalize-input ---------------*- C++ -*-===//
//
// Brings every accepted input op into the small set of forms that dispatch
// formation and codegen handle: linalg ops (generic where elementwise, so
// that elementwise fusion sees them), fills and insert_slices.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_LEGALIZEINPUT
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace {

/// Decomposes ops such as linalg.softmax into the structured ops they stand
/// for, so that they tile and fuse like everything else.
struct DecomposeAggregatedOp
    : OpInterfaceRewritePattern<linalg::AggregatedOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::AggregatedOpInterface op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
    if (failed(values))
      return rewriter.notifyMatchFailure(op, "op did not decompose");
    rewriter.replaceOp(op, *values);
    return success();
  }
};

/// Generalizes named ops (elementwise, reduce, transpose, broadcast, ...)
/// that are not contractions, convolutions, poolings or fills. Contractions stay named so that elementwise fusion never
/// recomputes a producer once per reduction step; fills stay named so that
/// dispatch formation can clone them into consumers.
struct GeneralizeElementwiseLikeOp
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (isa<linalg::GenericOp, linalg::FillOp>(op.getOperation()))
      return rewriter.notifyMatchFailure(op, "already generic or a fill");
    if (linalg::isaContractionOpInterface(op) ||
        linalg::isaConvolutionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "contraction/conv: stays named");
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot generalize");
    return success();
  }
};

/// linalg.pack / linalg.unpack -> pad/expand_shape/transpose (and back),
/// which the rest of the pipeline knows.
struct LowerPack : OpRewritePattern<linalg::PackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::PackOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(linalg::lowerPack(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot lower pack");
    return success();
  }
};
struct LowerUnPack : OpRewritePattern<linalg::UnPackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::UnPackOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(linalg::lowerUnPack(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot lower unpack");
    return success();
  }
};

/// Reductions of very many elements into very few are split in two: partial
/// results over chunks (a parallel loop that workgroups and warps share),
/// then a reduction of the partials. Besides parallelism this bounds how
/// many values each f32 accumulator adds: one sequential accumulator over
/// 2^28 values stops growing at 2^24 and loses the sum.
linalg::SplitReductionOptions splitLargeReductions(linalg::LinalgOp op) {
  constexpr int64_t kMinReduced = 1 << 16, kMaxOutputs = 256,
                    kMaxChunks = 1024;
  if (!isa<linalg::GenericOp>(op) || op.getNumReductionLoops() != 1 ||
      op.getNumDpsInits() != 1)
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t outputs = 1, reduced = 0;
  unsigned reducedDim = 0;
  for (auto [d, it] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (ShapedType::isDynamic(ranges[d]))
      return {};
    if (it == utils::IteratorType::reduction) {
      reduced = ranges[d];
      reducedDim = d;
    } else {
      outputs *= ranges[d];
    }
  }
  if (reduced < kMinReduced || outputs > kMaxOutputs)
    return {};
  int64_t ratio = kMaxChunks;
  while (ratio > 1 && reduced % ratio != 0)
    ratio /= 2;
  if (ratio < 16)
    return {};
  // The chunk loop goes where the reduced loop was, outside its remainder,
  // so each chunk reads contiguous memory.
  return {ratio, reducedDim, /*innerParallel=*/false};
}

} // namespace

namespace mlir::tessel {

void populateLegalizeInputPatterns(RewritePatternSet &patterns) {
  linalg::populateElementwiseToLinalgConversionPatterns(patterns);
  linalg::populateDecomposePadPatterns(patterns);
  tensor::populateDecomposeTensorConcatPatterns(patterns);
  patterns.add<DecomposeAggregatedOp, GeneralizeElementwiseLikeOp, LowerPack,
               LowerUnPack>(patterns.getContext());
  linalg::populateSplitReductionPattern(patterns, splitLargeReductions);
}

namespace {
struct LegalizeInputPass : impl::LegalizeInputBase<LegalizeInputPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLegalizeInputPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
