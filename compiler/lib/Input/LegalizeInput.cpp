//===- LegalizeInput.cpp - tessel-legalize-input ---------------*- C++ -*-===//
//
// Brings every accepted input op into the small set of forms that dispatch
// formation and codegen handle: linalg ops (generic where elementwise, so
// that elementwise fusion sees them), fills and insert_slices.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Target/TargetDescription.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_LEGALIZEINPUT
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

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

/// Whether some result of `map` decreases as a loop grows (a reversal such
/// as `-d1 + 6`): linalg's tiling cannot slice such an operand.
bool hasDecreasingResult(AffineMap map) {
  for (AffineExpr e : map.getResults()) {
    SmallVector<int64_t> flat;
    if (failed(getFlattenedAffineExpr(e, map.getNumDims(), map.getNumSymbols(),
                                      &flat)))
      return true;
    for (unsigned d = 0; d < map.getNumDims(); ++d)
      if (flat[d] < 0)
        return true;
  }
  return false;
}

/// A generic input read through a decreasing map (ONNX Slice with a negative
/// step, a reversal) is read with tensor.extract at the map's value of the
/// loop indices instead: the same elements, in a form every strategy tiles.
struct ReadDecreasingMapsByExtract : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<OpOperand *> reversed;
    for (OpOperand *in : op.getDpsInputOperands())
      if (isa<RankedTensorType>(in->get().getType()) &&
          hasDecreasingResult(op.getMatchingIndexingMap(in)))
        reversed.push_back(in);
    if (reversed.empty())
      return rewriter.notifyMatchFailure(op, "no input read backwards");
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *in : op.getDpsInputOperands())
      if (!llvm::is_contained(reversed, in)) {
        inputs.push_back(in->get());
        maps.push_back(op.getMatchingIndexingMap(in));
      }
    for (OpOperand &out : op.getDpsInitsMutable())
      maps.push_back(op.getMatchingIndexingMap(&out));
    Block *oldBody = op.getBody();
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), op.getResultTypes(), inputs, op.getDpsInits(),
        maps, op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          IRMapping mapping;
          unsigned next = 0;
          SmallVector<Value> loopIndices;
          for (unsigned d = 0; d < op.getNumLoops(); ++d)
            loopIndices.push_back(linalg::IndexOp::create(b, loc, d));
          for (OpOperand *in : op.getDpsInputOperands()) {
            BlockArgument arg = oldBody->getArgument(in->getOperandNumber());
            if (!llvm::is_contained(reversed, in)) {
              mapping.map(arg, args[next++]);
              continue;
            }
            SmallVector<Value> at;
            for (AffineExpr e : op.getMatchingIndexingMap(in).getResults())
              at.push_back(affine::expandAffineExpr(b, loc, e, loopIndices,
                                                    ValueRange{}));
            mapping.map(arg,
                        tensor::ExtractOp::create(b, loc, in->get(), at));
          }
          for (unsigned i = 0; i < op.getNumDpsInits(); ++i)
            mapping.map(oldBody->getArgument(op.getNumDpsInputs() + i),
                        args[next++]);
          for (Operation &inner : *oldBody)
            b.clone(inner, mapping);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// tensor.insert as an elementwise generic that selects the scalar at the
/// inserted position: it fuses like any elementwise op and an index out of
/// range leaves the tensor unchanged (instead of writing out of bounds).
struct InsertAsGeneric : OpRewritePattern<tensor::InsertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getDest().getType());
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
    SmallVector<utils::IteratorType> iters(type.getRank(),
                                           utils::IteratorType::parallel);
    SmallVector<Value> at(op.getIndices());
    Value scalar = op.getScalar();
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, type, ValueRange{op.getDest()}, ValueRange{init},
        ArrayRef<AffineMap>{id, id}, iters,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value hit = arith::ConstantIntOp::create(b, loc, 1, 1);
          for (auto [d, index] : llvm::enumerate(at)) {
            Value i = linalg::IndexOp::create(b, loc, d);
            Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             i, index);
            hit = arith::AndIOp::create(b, loc, hit, eq);
          }
          linalg::YieldOp::create(
              b, loc, ValueRange{arith::SelectOp::create(b, loc, hit, scalar,
                                                         args[0])});
        });
    return success();
  }
};

/// Largest power of two dividing `v` that leaves chunks of >= `minChunk`.
int64_t largestPowerOf2Split(int64_t v, int64_t minChunk) {
  int64_t r = 1;
  while (v % (2 * r) == 0 && v / (2 * r) >= minChunk)
    r *= 2;
  return r;
}

/// The split of reduction `op` that the target traits `split` ask for
/// (none: ratio 0): partial results over chunks of the reduced loop (a new
/// parallel loop), then a reduction of the partials. Besides parallelism
/// this bounds how many values each accumulator adds: one sequential f32
/// accumulator over 2^28 values stops growing at 2^24. Chunk counts are
/// powers of two dividing the reduced length; lengths without such a
/// divisor (a prime, say) stay unsplit. The partials are split again while
/// they still qualify.
linalg::SplitReductionOptions
splitReductionsForParallelism(linalg::LinalgOp op,
                              ArrayRef<TargetTraits> targets) {
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
  if (outputs == 0)
    return {};
  bool innermost = reducedDim + 1 == ranges.size();
  int64_t ratio = 0;
  for (const TargetTraits &traits : targets) {
    const TargetTraits::ReductionSplit &split =
        innermost ? traits.rowReductionSplit : traits.columnReductionSplit;
    if (outputs >= split.maxOutputs || reduced < split.minReduced)
      continue;
    ratio = std::max(
        ratio, std::min(largestPowerOf2Split(reduced, split.minChunk),
                        static_cast<int64_t>(llvm::PowerOf2Ceil(
                            llvm::divideCeil(split.wantedOutputs, outputs)))));
  }
  if (ratio < 2)
    return {};
  // The chunk loop goes where the reduced loop was, outside its remainder,
  // so each chunk reads contiguous memory.
  return {ratio, reducedDim, /*innerParallel=*/false};
}

/// cf.assert in a function body -> tessel.assert, the host program's check:
/// a false condition fails the call with the message.
struct HostAssert : OpRewritePattern<cf::AssertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(cf::AssertOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tessel::AssertOp>(op, op.getArg(), op.getMsg(),
                                                  ValueRange{});
    return success();
  }
};

} // namespace

namespace mlir::tessel {

void populateLegalizeInputPatterns(RewritePatternSet &patterns,
                                   ArrayRef<TargetTraits> targets) {
  linalg::populateElementwiseToLinalgConversionPatterns(patterns);
  linalg::populateDecomposePadPatterns(patterns);
  tensor::populateDecomposeTensorConcatPatterns(patterns);
  patterns.add<DecomposeAggregatedOp, GeneralizeElementwiseLikeOp, LowerPack,
               LowerUnPack, InsertAsGeneric, ReadDecreasingMapsByExtract,
               HostAssert>(
      patterns.getContext());
  SmallVector<TargetTraits> splitFor(targets);
  linalg::populateSplitReductionPattern(
      patterns, [splitFor](linalg::LinalgOp op) {
        return splitReductionsForParallelism(op, splitFor);
      });
}

namespace {
struct LegalizeInputPass : impl::LegalizeInputBase<LegalizeInputPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<TargetTraits> targets;
    SmallVector<StringRef> names;
    StringRef(splitReductionsFor).split(names, ',', -1, false);
    for (StringRef name : names) {
      FailureOr<TargetTraits> traits = getTargetTraits(name.trim());
      if (failed(traits)) {
        getOperation().emitError()
            << "split-reductions-for: unknown target '" << name.trim()
            << "' (expected cuda or cpu)";
        return signalPassFailure();
      }
      targets.push_back(*traits);
    }
    RewritePatternSet patterns(&getContext());
    populateLegalizeInputPatterns(patterns, targets);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
