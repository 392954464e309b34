//===- SplitContractionK.cpp - tessel-split-contraction-k ------*- C++ -*-===//
//
// Split-K for contractions too small in M x N to fill a GPU. A matmul whose
// grid of 128x128 output tiles has fewer than half `target-blocks` blocks,
// with a long K loop, becomes two dispatches:
// - a partial contraction: K viewed as [S, K/S] on both operands (an
//   expand_shape: a view of the same buffer), the S loop parallel, writing
//   S partial results [S, M, N] (a transient buffer); to the GPU strategies
//   this is a batch matmul whose batch loop sits inside the operands'
//   layout;
// - an elementwise sum of the S partials (plus the original init when it
//   is not a zero fill), into which the contraction's elementwise consumer
//   (bias, activation, cast) is fused, so the epilogue still costs no
//   extra pass over the result.
// The partials have the result's element type, so f32 and i32 results are
// summed exactly as the unsplit kernel would; bf16 results (accumulated in
// f32 by the tensor-core kernel and rounded once) are not split.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_SPLITCONTRACTIONK
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace {

/// The GPU matmul strategies' large block side.
constexpr int64_t kBlockSide = 128;
/// Split only K loops at least this long, into chunks at least this long,
/// in at most this many chunks (each chunk costs a partial result's write
/// and read).
constexpr int64_t kMinK = 1024;
constexpr int64_t kMinChunk = 256;
constexpr int64_t kMaxSplits = 8;
/// Marks the sum of the partials until its consumer is fused into it.
constexpr StringLiteral kSumAttr = "tessel.split_k_sum";

/// Largest divisor of `k` in [2, maxSplits] leaving chunks >= kMinChunk, or 1.
int64_t splitCount(int64_t k, int64_t maxSplits) {
  for (int64_t s = std::min(maxSplits, kMaxSplits); s >= 2; --s)
    if (k % s == 0 && k / s >= kMinChunk)
      return s;
  return 1;
}

bool isZero(Value v) {
  return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
}

struct SplitK : OpInterfaceRewritePattern<linalg::LinalgOp> {
  SplitK(MLIRContext *ctx, int64_t targetBlocks)
      : OpInterfaceRewritePattern(ctx), targetBlocks(targetBlocks) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
      return rewriter.notifyMatchFailure(op, "not a contraction on tensors");
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
        dims->k.size() != 1 || !dims->batch.empty())
      return rewriter.notifyMatchFailure(op, "not one M, N, K and no batch");
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (llvm::any_of(ranges, ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    Type element = getElementTypeOrSelf(op->getResult(0).getType());
    if (!(element.isF64() || element.isF32() || element.isF16() ||
          element.isInteger(32) || element.isInteger(64)))
      return rewriter.notifyMatchFailure(op, "partials would be rounded");
    auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
    if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(
            yield.getOperand(0).getDefiningOp()))
      return rewriter.notifyMatchFailure(op, "combiner is not an add");

    unsigned kLoop = dims->k[0];
    int64_t k = ranges[kLoop];
    int64_t blocks = llvm::divideCeil(ranges[dims->m[0]], kBlockSide) *
                     llvm::divideCeil(ranges[dims->n[0]], kBlockSide);
    if (k < kMinK || 2 * blocks > targetBlocks)
      return rewriter.notifyMatchFailure(op, "enough blocks or short K");
    int64_t splits = splitCount(k, targetBlocks / blocks);
    if (splits < 2)
      return rewriter.notifyMatchFailure(op, "K has no suitable divisor");

    // Every operand indexes K with the plain loop variable (a contraction's
    // maps are projected permutations), at one position.
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    unsigned loops = op.getNumLoops();
    AffineExpr s = getAffineDimExpr(0, ctx);
    AffineExpr kExpr = getAffineDimExpr(kLoop, ctx);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *in : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(in);
      auto type = dyn_cast<RankedTensorType>(in->get().getType());
      auto at = llvm::find(map.getResults(), kExpr);
      if (!type || at == map.getResults().end())
        return rewriter.notifyMatchFailure(op, "operand without K");
      unsigned pos = at - map.getResults().begin();
      SmallVector<int64_t> shape;
      SmallVector<ReassociationIndices> groups;
      SmallVector<AffineExpr> exprs;
      for (auto [i, e] : llvm::enumerate(map.getResults())) {
        AffineExpr shifted = e.shiftDims(loops, 1);
        ReassociationIndices group{static_cast<int64_t>(shape.size())};
        if (i == pos) {
          shape.push_back(splits);
          exprs.push_back(s);
          group.push_back(shape.size());
          shape.push_back(k / splits);
        } else {
          shape.push_back(type.getDimSize(i));
        }
        exprs.push_back(shifted);
        groups.push_back(group);
      }
      inputs.push_back(tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
          in->get(), groups));
      maps.push_back(AffineMap::get(loops + 1, 0, exprs, ctx));
    }

    // Partials [S, <result shape>], zero-initialised.
    OpOperand *initOperand = op.getDpsInitOperand(0);
    Value init = initOperand->get();
    auto resultType = cast<RankedTensorType>(init.getType());
    SmallVector<int64_t> partialShape{splits};
    llvm::append_range(partialShape, resultType.getShape());
    SmallVector<AffineExpr> outExprs{s};
    for (AffineExpr e : op.getMatchingIndexingMap(initOperand).getResults())
      outExprs.push_back(e.shiftDims(loops, 1));
    maps.push_back(AffineMap::get(loops + 1, 0, outExprs, ctx));
    Value zero = arith::ConstantOp::create(rewriter, loc, element,
                                           rewriter.getZeroAttr(element));
    Value partialInit = linalg::FillOp::create(
                            rewriter, loc, zero,
                            ValueRange{tensor::EmptyOp::create(
                                rewriter, loc, partialShape, element)})
                            .getResult(0);
    SmallVector<utils::IteratorType> iterators{utils::IteratorType::parallel};
    llvm::append_range(iterators, op.getIteratorTypesArray());
    auto partial = linalg::GenericOp::create(
        rewriter, loc, TypeRange{partialInit.getType()}, inputs,
        ValueRange{partialInit}, maps, iterators);
    rewriter.cloneRegionBefore(op->getRegion(0), partial.getRegion(),
                               partial.getRegion().end());

    // The sum: one elementwise generic over the S slices (and the init
    // unless it is a zero fill).
    int64_t rank = resultType.getRank();
    SmallVector<Value> slices;
    for (int64_t i = 0; i < splits; ++i) {
      SmallVector<OpFoldResult> offsets(rank + 1, rewriter.getIndexAttr(0));
      offsets[0] = rewriter.getIndexAttr(i);
      SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1)};
      for (int64_t d : resultType.getShape())
        sizes.push_back(rewriter.getIndexAttr(d));
      SmallVector<OpFoldResult> strides(rank + 1, rewriter.getIndexAttr(1));
      slices.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, resultType, partial.getResult(0), offsets, sizes,
          strides));
    }
    auto fill = init.getDefiningOp<linalg::FillOp>();
    bool zeroInit = fill && isZero(fill.getInputs()[0]);
    Value sumInit =
        zeroInit ? tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                           element)
                       .getResult()
                 : init;
    SmallVector<AffineMap> sumMaps(
        splits + 1, rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> sumIterators(
        rank, utils::IteratorType::parallel);
    bool isFloat = isa<FloatType>(element);
    auto sum = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, slices, ValueRange{sumInit},
        sumMaps, sumIterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value acc = zeroInit ? args[0] : args.back();
          for (Value v : args.take_front(splits).drop_front(zeroInit ? 1 : 0))
            acc = isFloat ? arith::AddFOp::create(b, l, acc, v).getResult()
                          : arith::AddIOp::create(b, l, acc, v).getResult();
          linalg::YieldOp::create(b, l, acc);
        });
    sum->setAttr(kSumAttr, rewriter.getUnitAttr());
    rewriter.replaceOp(op, sum.getResults());
    return success();
  }

  int64_t targetBlocks;
};

} // namespace

namespace mlir::tessel {

void populateSplitContractionKPatterns(RewritePatternSet &patterns,
                                       int64_t targetBlocks) {
  patterns.add<SplitK>(patterns.getContext(), targetBlocks);
}

namespace {
struct SplitContractionKPass
    : impl::SplitContractionKBase<SplitContractionKPass> {
  using SplitContractionKBase::SplitContractionKBase;
  void runOnOperation() override {
    if (targetBlocks <= 0)
      return;
    RewritePatternSet patterns(&getContext());
    populateSplitContractionKPatterns(patterns, targetBlocks);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // The sum takes its elementwise consumer (bias, activation, cast) in,
    // as the unsplit contraction's dispatch would have.
    RewritePatternSet fusion(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        fusion, [](OpOperand *operand) {
          Operation *producer = operand->get().getDefiningOp();
          return producer && producer->hasAttr(kSumAttr) &&
                 producer->hasOneUse();
        });
    if (failed(applyPatternsGreedily(getOperation(), std::move(fusion))))
      return signalPassFailure();
    getOperation()->walk([](linalg::GenericOp op) { op->removeAttr(kSumAttr); });
  }
};
} // namespace
} // namespace mlir::tessel
