//===- RaiseToPrimitives.cpp - tessel-raise-to-primitives -------*- C++ -*-===//
//
// Recognises the linalg forms of primitives that users already write and
// rewrites them as tessel ops:
//  - a linalg.generic whose body only reads a table with tensor.extract at
//    indices taken from an index tensor: tessel.gather, which has a GPU
//    strategy of its own (Grid/GridGather.cpp) and defined out-of-range
//    behaviour (clamp; tensor.extract out of range is undefined);
//  - a two-result reduction keeping the best element and its position
//    (select on one comparison): tessel.arg_compare.
// Runs after elementwise fusion, so that a gather fused with its consumers
// stays one generic.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_RAISETOPRIMITIVES
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// out[b..., s...] = table[..., idx[b...], ...] with the slice loops s
/// walking the table's other dimensions in order (whole), one index
/// tensor read at the batch loops:
///   linalg.generic ins(%idx : (b..., s...) -> (b...)) outs(%init : id) {
///     %i = arith.index_cast %arg ; %s = linalg.index B ; ...
///     %v = tensor.extract %table[..., %i, ..., %s, ...] ; linalg.yield %v }
struct RaiseExtractGenericToGather : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() != 0 || !op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not one input, one output");
    Block &body = op.getRegion().front();
    auto extract =
        body.getTerminator()->getOperand(0).getDefiningOp<tensor::ExtractOp>();
    if (!extract || extract->getBlock() != &body)
      return rewriter.notifyMatchFailure(op, "does not yield an extract");
    Value table = extract.getTensor();
    if (op.getRegion().isAncestor(table.getParentRegion()))
      return rewriter.notifyMatchFailure(op, "table computed in the body");
    OpOperand *in = op.getDpsInputOperand(0);
    OpOperand *init = op.getDpsInitOperand(0);
    auto idxType = dyn_cast<RankedTensorType>(in->get().getType());
    auto outType = dyn_cast<RankedTensorType>(init->get().getType());
    auto tableType = cast<RankedTensorType>(table.getType());
    if (!idxType || !outType || !outType.hasStaticShape() ||
        !tableType.hasStaticShape() ||
        !isa<IntegerType, IndexType>(idxType.getElementType()))
      return rewriter.notifyMatchFailure(op, "types");
    int64_t batch = idxType.getRank();
    int64_t loops = op.getNumLoops();
    if (!op.getMatchingIndexingMap(init).isIdentity() ||
        op.getMatchingIndexingMap(in) !=
            AffineMap::getMultiDimIdentityMap(loops, getContext())
                .getMajorSubMap(batch))
      return rewriter.notifyMatchFailure(op, "maps");
    // The index argument, possibly through one index_cast.
    Value idxArg = body.getArgument(0);
    std::optional<int64_t> indexedDim;
    int64_t nextSlice = batch;
    SmallVector<int64_t> sliceDims;
    for (auto [d, v] : llvm::enumerate(extract.getIndices())) {
      Value src = v;
      if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
        src = cast.getIn();
      if (src == idxArg) {
        if (indexedDim)
          return rewriter.notifyMatchFailure(op, "index used twice");
        indexedDim = d;
        continue;
      }
      auto index = v.getDefiningOp<linalg::IndexOp>();
      if (!index || static_cast<int64_t>(index.getDim()) != nextSlice)
        return rewriter.notifyMatchFailure(op, "not a slice loop in order");
      if (tableType.getShape()[d] != outType.getShape()[nextSlice])
        return rewriter.notifyMatchFailure(op, "slice is not whole");
      sliceDims.push_back(d);
      ++nextSlice;
    }
    if (!indexedDim || nextSlice != loops)
      return rewriter.notifyMatchFailure(op, "no index, or loops left over");
    // Nothing else in the body.
    for (Operation &o : body.without_terminator())
      if (&o != extract.getOperation() &&
          !(isa<arith::IndexCastOp, linalg::IndexOp>(o) &&
            llvm::all_of(o.getUsers(), [&](Operation *u) {
              return u == extract.getOperation();
            })))
        return rewriter.notifyMatchFailure(op, "other ops in the body");
    if (!body.getArgument(1).use_empty())
      return rewriter.notifyMatchFailure(op, "reads its output");
    auto gather = GatherOp::create(
        rewriter, op.getLoc(), TypeRange{outType},
        ValueRange{table, in->get()}, ValueRange{init->get()},
        rewriter.getDenseI64ArrayAttr({*indexedDim}));
    rewriter.replaceOp(op, gather.getResults());
    return success();
  }
};

/// A reduction carrying the position of its best element:
///   linalg.generic ins(%x : id) outs(%best, %pos : id without loop r) {
///   ^(%a, %b, %bi): %j = linalg.index r ; %ji = arith.index_cast %j
///     %c = <one comparison of %a and %b>
///     linalg.yield select(%c, %a, %b), select(%c, %ji, %bi) }
/// is tessel.arg_compare dimension(r) with the comparison as its region.
struct RaiseArgReductionToArgCompare : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 2 ||
        op.getNumReductionLoops() != 1 || !op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not 1 input, 2 outputs, 1 reduction");
    SmallVector<unsigned> red;
    op.getReductionDims(red);
    unsigned r = red[0];
    int64_t loops = op.getNumLoops();
    AffineMap id = AffineMap::getMultiDimIdentityMap(loops, getContext());
    AffineMap without = id.dropResult(r);
    if (op.getMatchingIndexingMap(op.getDpsInputOperand(0)) != id ||
        op.getMatchingIndexingMap(op.getDpsInitOperand(0)) != without ||
        op.getMatchingIndexingMap(op.getDpsInitOperand(1)) != without)
      return rewriter.notifyMatchFailure(op, "maps");
    Block &body = op.getRegion().front();
    Value a = body.getArgument(0), best = body.getArgument(1),
          bestIdx = body.getArgument(2);
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    auto selV = yield.getOperand(0).getDefiningOp<arith::SelectOp>();
    auto selI = yield.getOperand(1).getDefiningOp<arith::SelectOp>();
    if (!selV || !selI || selV.getCondition() != selI.getCondition() ||
        selV.getTrueValue() != a || selV.getFalseValue() != best ||
        selI.getFalseValue() != bestIdx)
      return rewriter.notifyMatchFailure(op, "not a select of (a, best)");
    Value pos = selI.getTrueValue();
    if (auto cast = pos.getDefiningOp<arith::IndexCastOp>())
      pos = cast.getIn();
    auto index = pos.getDefiningOp<linalg::IndexOp>();
    if (!index || index.getDim() != r)
      return rewriter.notifyMatchFailure(op, "the index is not the position");
    Operation *cmp = selV.getCondition().getDefiningOp();
    if (!cmp || cmp->getBlock() != &body || cmp->getNumRegions() != 0 ||
        cmp->getNumResults() != 1 || !isa<arith::CmpFOp, arith::CmpIOp>(cmp) ||
        cmp->getOperand(0) != a || cmp->getOperand(1) != best)
      return rewriter.notifyMatchFailure(op, "not one comparison of (a, best)");
    // Nothing else in the body.
    for (Operation &o : body.without_terminator())
      if (&o != cmp && &o != selV.getOperation() && &o != selI.getOperation() &&
          &o != index.getOperation() &&
          !(isa<arith::IndexCastOp>(o) && o.getResult(0) == selI.getTrueValue()))
        return rewriter.notifyMatchFailure(op, "other ops in the body");
    auto arg = ArgCompareOp::create(
        rewriter, op.getLoc(), op.getResultTypes(),
        ValueRange{op.getDpsInputOperand(0)->get()},
        ValueRange{op.getDpsInitOperand(0)->get(),
                   op.getDpsInitOperand(1)->get()},
        /*index_base=*/Value(), rewriter.getI64IntegerAttr(r));
    Block *region = rewriter.createBlock(&arg.getRegion(), {},
                                         {a.getType(), a.getType()},
                                         {op.getLoc(), op.getLoc()});
    IRMapping map;
    map.map(a, region->getArgument(0));
    map.map(best, region->getArgument(1));
    Operation *c = rewriter.clone(*cmp, map);
    YieldOp::create(rewriter, op.getLoc(), c->getResult(0));
    rewriter.replaceOp(op, arg.getResults());
    return success();
  }
};

} // namespace

namespace mlir::tessel {
namespace {
struct RaiseToPrimitivesPass
    : impl::RaiseToPrimitivesBase<RaiseToPrimitivesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RaiseExtractGenericToGather, RaiseArgReductionToArgCompare>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
