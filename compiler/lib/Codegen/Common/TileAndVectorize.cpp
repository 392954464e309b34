//===- TileAndVectorize.cpp - shared tiling/vectorization steps -*- C++ -*-===//

#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {


SmallVector<OpFoldResult> asIndexAttrs(MLIRContext *ctx,
                                       ArrayRef<int64_t> sizes) {
  return getAsIndexOpFoldResult(ctx, sizes);
}

/// Static upper bounds of the loop ranges of `op`: for each loop, the
/// smallest bound found on any operand dimension indexed by it.
FailureOr<SmallVector<int64_t>> loopUpperBounds(linalg::LinalgOp op) {
  SmallVector<int64_t> bounds(op.getNumLoops(), ShapedType::kDynamic);
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        continue;
      int64_t bound = type.getDimSize(i);
      if (ShapedType::isDynamic(bound)) {
        FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
            presburger::BoundType::UB, {operand.get(), static_cast<int64_t>(i)},
            nullptr, /*closedUB=*/true);
        if (failed(ub))
          continue;
        bound = *ub;
      }
      int64_t &b = bounds[dim.getPosition()];
      b = ShapedType::isDynamic(b) ? bound : std::min(b, bound);
    }
  }
  if (llvm::any_of(bounds, ShapedType::isDynamic))
    return failure();
  return bounds;
}

/// Vectors of i1 are bit-packed in memory while scalar i1 loads and stores
/// use a byte, so an i1 tensor written by vector code and read by scalar
/// code (or the reverse) would be corrupted. Ops that read or write i1
/// tensors stay scalar; i1 values inside op bodies are fine.
bool touchesI1Memory(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return shaped && shaped.getElementType().isInteger(1);
  });
}

/// Whether `op` has an operand of a float type narrower than 32 bits
/// (computed through emulation).
bool hasSmallFloat(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type t) {
    auto el = dyn_cast<FloatType>(getElementTypeOrSelf(t));
    return el && el.getWidth() < 32;
  });
}

/// Whether `op`'s body divides integers (which traps on a zero divisor).
bool mayTrapOnGarbage(linalg::LinalgOp op) {
  return op->walk([](Operation *inner) {
           return isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
                      arith::RemUIOp, arith::CeilDivSIOp, arith::CeilDivUIOp,
                      arith::FloorDivSIOp>(inner)
                      ? WalkResult::interrupt()
                      : WalkResult::advance();
         }).wasInterrupted();
}

} // namespace

/// Tiles `op` and fuses its producers; replaces `op`. Returns the tiled op,
/// or null when nothing was tiled.
FailureOr<Operation *> mlir::tessel::tileAndFuse(RewriterBase &rewriter, TilingInterface op,
                                   ArrayRef<int64_t> tiles,
                                   scf::SCFTilingOptions::LoopType loopType,
                                   StringRef marker,
                                   ArrayRef<Attribute> mapping) {
  if (llvm::all_of(tiles, [](int64_t t) { return t == 0; }))
    return op.getOperation();
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(asIndexAttrs(op->getContext(), tiles));
  tiling.setLoopType(loopType);
  if (!mapping.empty())
    tiling.setMapping(mapping);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
  if (failed(result))
    return failure();
  for (Value r : op->getResults())
    rewriter.replaceAllUsesWith(r, result->replacements.lookup(r));
  rewriter.eraseOp(op);
  if (!marker.empty() && !result->loops.empty())
    result->loops.front()->setAttr(marker, rewriter.getUnitAttr());
  return result->tiledAndFusedOps.front();
}

/// Tiles the reduction loops of `op` without fusion (fusing a producer of
/// the accumulator into a reduction loop would recompute it every step).
FailureOr<Operation *> mlir::tessel::tileReductions(RewriterBase &rewriter,
                                      TilingInterface op,
                                      ArrayRef<int64_t> tiles) {
  if (llvm::all_of(tiles, [](int64_t t) { return t == 0; }))
    return op.getOperation();
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(asIndexAttrs(op->getContext(), tiles));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, tiling);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return result->tiledOps.front();
}

/// Vectorizes every structured op in `kernel` whose tile is small enough.
void mlir::tessel::vectorizeSmallOps(RewriterBase &rewriter, func::FuncOp kernel,
                       int64_t maxElements, bool maskReductions) {
  SmallVector<linalg::LinalgOp> ops;
  kernel.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics())
      ops.push_back(op);
  });
  // Consumers first: their operands are then still slices whose bounds are
  // known, rather than results of masked vector ops.
  for (linalg::LinalgOp op : llvm::reverse(ops)) {
    FailureOr<SmallVector<int64_t>> bounds = loopUpperBounds(op);
    if (failed(bounds))
      continue;
    int64_t elements = 1;
    for (int64_t b : *bounds)
      elements *= std::max<int64_t>(b, 1);
    if (elements > maxElements || touchesI1Memory(op))
      continue;
    bool isStatic = !op.hasDynamicShape();
    // Masked-off lanes hold arbitrary values; an integer division on them
    // can trap (SIGFPE), so partial tiles of such ops stay scalar.
    if (!isStatic && mayTrapOnGarbage(op))
      continue;
    // Masked reductions lower to masked vector.reduction ops that later
    // rewrites (small-float emulation) cannot enter.
    if (!isStatic && op.getNumReductionLoops() != 0 &&
        (!maskReductions || hasSmallFloat(op)))
      continue;
    SmallVector<int64_t> sizes = isStatic ? SmallVector<int64_t>() : *bounds;
    SmallVector<bool> scalable(sizes.size(), false);
    if (failed(linalg::vectorizeOpPrecondition(op, sizes, scalable)))
      continue;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result =
        linalg::vectorize(rewriter, op, sizes, scalable);
    if (failed(result))
      continue;
    if (op->getNumResults() == 0)
      rewriter.eraseOp(op);
    else
      rewriter.replaceOp(op, result->replacements);
  }
}

/// Moves accumulator reads/writes out of reduction loops so that they stay
/// in registers across the loop.
void mlir::tessel::hoistAccumulators(RewriterBase &rewriter, func::FuncOp kernel) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) // innermost first (post-order walk)
    hoistLoopInvariantSubsets(rewriter, loop);
}

void mlir::tessel::cleanupAfterTiling(func::FuncOp kernel) {
  MLIRContext *ctx = kernel.getContext();
  RewritePatternSet patterns(ctx);
  linalg::populateLinalgTilingCanonicalizationPatterns(patterns);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorReductionToContractPatterns(patterns);
  vector::populateSinkVectorOpsPatterns(patterns);
  tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
  scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
  // Folds the tensor.casts that peeling leaves between a now-static slice
  // and its consumer, so that full tiles have static shapes.
  ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
      patterns);
  tensor::CastOp::getCanonicalizationPatterns(patterns, ctx);
  vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
  vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(kernel, std::move(patterns));
}


Operation *mlir::tessel::findStoredRoot(func::FuncOp kernel,
                                        std::string &why) {
  Operation *root = nullptr;
  bool ok = true;
  kernel.walk([&](bufferization::MaterializeInDestinationOp store) {
    Operation *def = store.getSource().getDefiningOp();
    if (!def || (root && root != def))
      ok = false;
    root = def;
  });
  if (!ok || !root) {
    why = "results are not all produced by one op";
    return nullptr;
  }
  return root;
}

linalg::LinalgOp mlir::tessel::findTileableRoot(func::FuncOp kernel,
                                                std::string &why,
                                                bool dynamicRanges) {
  Operation *root = findStoredRoot(kernel, why);
  if (!root)
    return {};
  auto linalgRoot = dyn_cast<linalg::LinalgOp>(root);
  if (!linalgRoot || !linalgRoot.hasPureTensorSemantics()) {
    why = ("root '" + root->getName().getStringRef() + "' is not a linalg op")
              .str();
    return {};
  }
  if (!dynamicRanges &&
      llvm::any_of(linalgRoot.getStaticLoopRanges(), ShapedType::isDynamic)) {
    why = "root has dynamic loop ranges";
    return {};
  }
  return linalgRoot;
}

Operation *mlir::tessel::findStrategyRoot(func::FuncOp kernel) {
  Operation *root = nullptr;
  kernel.walk([&](Operation *op) {
    if (op->hasAttr(kStrategyRootAttr)) {
      root = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return root;
}

int64_t mlir::tessel::widestElementBits(Operation *op) {
  int64_t bits = 8;
  for (Value v : op->getOperands())
    if (auto t = dyn_cast<ShapedType>(v.getType()))
      if (t.getElementType().isIntOrFloat())
        bits = std::max<int64_t>(bits,
                                 t.getElementType().getIntOrFloatBitWidth());
  return bits;
}
