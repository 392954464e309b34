//===- CPUTileAndVectorize.cpp - tessel-cpu-tile-and-vectorize -*- C++ -*-===//
//
// Applies each kernel's #tessel.strategy (tessel-cpu-select-strategy) on
// tensors: workgroup tiles (scf.forall, producers fused), register tiles
// (scf.for, producers fused), reduction steps (scf.for), then vectorizes
// every structured op whose tile is small enough; partial tiles get masked
// vectors sized by their upper bound. Ops that do not vectorize stay scalar
// and are lowered to loops later. packed_matmul contractions are tiled to
// workgroups only and marked for tessel-cpu-packed-matmul; padding copies
// are split into workgroups by CPUPaddingCopy; flash attention is emitted
// whole by CPUFlashAttention.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/CPU/CPUFlashAttention.h"
#include "tessel/Codegen/Common/AttentionKernel.h"

#include "tessel/Codegen/CPU/CPUStrategyTable.h"
#include "tessel/Codegen/CPU/CPUPaddingCopy.h"
#include "tessel/Codegen/Common/DynamicExtents.h"
#include "tessel/Codegen/Common/TileAndVectorize.h"

#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_CPUTILEANDVECTORIZE
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

/// Largest vector (in elements) the vectorizer may create on the CPU; bigger
/// tiles stay scalar rather than blowing up compile time.
static constexpr int64_t kMaxVectorElements = 4096;

/// Splits the last, partial iteration off each register-tile and reduction
/// loop around `tiled`, so that the main loops see full, static tiles (plain vectors, no
/// masks); only the edges are left with partial tiles.
static void peelRegisterLoops(RewriterBase &rewriter, Operation *tiled) {
  SmallVector<scf::ForOp> loops;
  for (Operation *p = tiled->getParentOp();
       p && !isa<scf::ForallOp, func::FuncOp>(p); p = p->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(p))
      loops.push_back(loop);
  for (scf::ForOp loop : llvm::reverse(loops)) {
    scf::ForOp partial;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
  }
}

/// In a fused row chain, each row reduction fused into a row tile is split
/// into `lanes` partial results along the row (a vector accumulator), then
/// merged: independent FMA/max chains instead of one ordered chain of N.
static LogicalResult splitRowReductions(RewriterBase &rewriter,
                                        func::FuncOp kernel, int64_t lanes) {
  // A row value read by two ops of the chain (softmax's max and exp) was
  // fused into both: identical ops on one row, merged here.
  DominanceInfo dominance(kernel);
  eliminateCommonSubExpressions(rewriter, dominance, kernel);
  SmallVector<linalg::LinalgOp> reductions;
  kernel.walk([&](linalg::LinalgOp op) {
    if (op.getNumReductionLoops() == 1 && op.hasPureTensorSemantics() &&
        op->getParentOfType<scf::ForOp>())
      reductions.push_back(op);
  });
  for (linalg::LinalgOp op : reductions) {
    auto partial = dyn_cast<PartialReductionOpInterface>(op.getOperation());
    if (!partial)
      continue;
    SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
    SmallVector<OpFoldResult> tiles;
    for (utils::IteratorType it : iters)
      tiles.push_back(rewriter.getIndexAttr(
          it == utils::IteratorType::reduction ? lanes : 0));
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> split =
        scf::tileReductionUsingScf(rewriter, partial, tiles);
    if (failed(split))
      return failure();
    rewriter.replaceOp(op, split->replacements);
  }
  return success();
}

/// Marks `op` for tessel-cpu-packed-matmul with the strategy's panel
/// (lanes: of `op`'s element type in vectors of `vectorBits`) and the
/// workgroup tiles of its M and N loops: the strategy's own, or for the
/// contraction of an epilogue (`epilogue`) those of the root's loops over
/// the contraction's result.
static LogicalResult markPacked(RewriterBase &rewriter, func::FuncOp kernel,
                                linalg::LinalgOp op, StrategyAttr strategy,
                                int64_t vectorBits, bool epilogue) {
  ArrayRef<int64_t> panel = strategy.getPanel();
  int64_t lanes = getVectorLanes(op, vectorBits);
  if (panel[1] % lanes != 0)
    return kernel.emitError() << "strategy 'packed_matmul': NR " << panel[1]
                              << " is not a multiple of the " << lanes
                              << " lanes of a vector";
  int64_t mTile = 0, nTile = 0;
  FailureOr<linalg::ContractionDimensions> dims = failure();
  if (linalg::isaContractionOpInterface(op))
    dims = linalg::inferContractionDims(op);
  ArrayRef<int64_t> workgroup = strategy.getWorkgroup();
  if (succeeded(dims) && dims->m.size() == 1 && dims->n.size() == 1 &&
      !workgroup.empty()) {
    AffineMap cMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    auto tileOf = [&](unsigned loop) -> int64_t {
      std::optional<unsigned> rootLoop =
          epilogue ? cMap.getResultPosition(rewriter.getAffineDimExpr(loop))
                   : std::optional<unsigned>(loop);
      return rootLoop && *rootLoop < workgroup.size() ? workgroup[*rootLoop]
                                                      : -1;
    };
    mTile = tileOf(dims->m[0]);
    nTile = tileOf(dims->n[0]);
    // Unknown tiles: the blocks of A and B stay private to each workgroup.
    if (mTile < 0 || nTile < 0)
      mTile = nTile = -1;
  } else {
    mTile = nTile = -1;
  }
  op->setAttr(kCPUPackedMatmulAttr,
              rewriter.getDenseI64ArrayAttr({panel[0], panel[1], panel[2],
                                             panel[3], panel[4], lanes, mTile,
                                             nTile}));
  return success();
}

/// Tiles `op` (inside its workgroup) into cache blocks of its reductions,
/// register tiles (producers fused) and reduction steps, and peels the
/// partial register tiles. Missing tiles are 0 (not tiled).
static LogicalResult tileToRegisters(RewriterBase &rewriter, TilingInterface op,
                                     StrategyAttr strategy) {
  size_t loops = op.getLoopIteratorTypes().size();
  auto perLoop = [&](ArrayRef<int64_t> tiles) {
    SmallVector<int64_t> t(tiles);
    t.resize(loops, 0);
    return t;
  };
  FailureOr<Operation *> blocked =
      tileReductions(rewriter, op, perLoop(strategy.getCache()));
  if (failed(blocked))
    return op->emitError("tiling reductions into cache blocks failed");
  FailureOr<Operation *> reg =
      tileAndFuse(rewriter, cast<TilingInterface>(*blocked),
                  perLoop(strategy.getVector()),
                  scf::SCFTilingOptions::LoopType::ForOp);
  if (failed(reg))
    return op->emitError("tiling to registers failed");
  FailureOr<Operation *> red = tileReductions(
      rewriter, cast<TilingInterface>(*reg), perLoop(strategy.getReduction()));
  if (failed(red))
    return op->emitError("tiling reductions failed");
  peelRegisterLoops(rewriter, *red);
  return success();
}

/// The root's workgroups, its producers fused in: the tiled root.
static FailureOr<Operation *> tileToWorkgroups(RewriterBase &rewriter,
                                               func::FuncOp kernel,
                                               TilingInterface root,
                                               StrategyAttr strategy) {
  size_t loops = root.getLoopIteratorTypes().size();
  if (strategy.getWorkgroup().size() != loops)
    return kernel.emitError()
           << "strategy '" << stringifyStrategyKind(strategy.getKind())
           << "' gives workgroup tiles for " << strategy.getWorkgroup().size()
           << " loops, its root has " << loops;
  FailureOr<Operation *> wg =
      tileAndFuse(rewriter, root, strategy.getWorkgroup(),
                  scf::SCFTilingOptions::LoopType::ForallOp, kWorkgroupsAttr);
  if (failed(wg))
    return kernel.emitError("tiling to workgroups failed");
  return wg;
}

/// A matmul epilogue: the contraction fused into the workgroup is computed
/// whole there (packed panels later, or register tiles now), and the root
/// tiled to vectors along C's last dimension without fusion (fusing would
/// recompute the C block per vector).
/// `vectors`: the epilogue's vector tiles (one vector along C's last
/// dimension).
static LogicalResult lowerEpilogue(RewriterBase &rewriter, func::FuncOp kernel,
                                   Operation *tiledRoot, StrategyAttr strategy,
                                   ArrayRef<int64_t> vectors,
                                   int64_t vectorBits) {
  linalg::LinalgOp contraction;
  tiledRoot->getParentOp()->walk([&](linalg::LinalgOp op) {
    if (linalg::isaContractionOpInterface(op))
      contraction = op;
  });
  if (!contraction)
    return kernel.emitError("the epilogue's contraction was not fused into "
                            "its workgroups");
  if (failed(tileReductions(rewriter, cast<TilingInterface>(tiledRoot),
                            vectors)))
    return kernel.emitError("tiling the epilogue to vectors failed");
  if (strategy.getKind() == StrategyKind::PackedMatmul)
    return markPacked(rewriter, kernel, contraction, strategy, vectorBits,
                      /*epilogue=*/true);
  if (strategy.getVector().size() != contraction.getNumLoops())
    return kernel.emitError()
           << "strategy 'matmul_epilogue' gives vector tiles for "
           << strategy.getVector().size() << " loops, its contraction has "
           << contraction.getNumLoops();
  return tileToRegisters(rewriter,
                         cast<TilingInterface>(contraction.getOperation()),
                         strategy);
}

/// Applies the strategy of `kernel`.
static LogicalResult lowerStrategy(RewriterBase &rewriter, func::FuncOp kernel,
                                   StrategyAttr strategy, int64_t vectorBits) {
  Operation *root = findStrategyRoot(kernel);
  StrategyKind kind = strategy.getKind();
  switch (kind) {
  case StrategyKind::Serial:
    return success();
  case StrategyKind::FlashAttention: {
    FailureOr<AttentionOp> op =
        strategyRootAs<AttentionOp>(kernel, root, strategy, "a tessel.attention");
    return failed(op) ? failure() : emitCPUFlashAttention(*op, vectorBits);
  }
  case StrategyKind::PaddingCopy: {
    FailureOr<tensor::InsertSliceOp> op = strategyRootAs<tensor::InsertSliceOp>(
        kernel, root, strategy, "a padding copy's tensor.insert_slice");
    if (failed(op))
      return failure();
    if (failed(tilePaddingCopy(rewriter, *op, strategy.getWorkgroup())))
      return kernel.emitError("strategy 'padding_copy': the workgroups must "
                              "be 1 (one index) or 0 (whole) per dimension, "
                              "at most three 1s, for an insert_slice of a "
                              "kernel input into a fill");
    return success();
  }
  case StrategyKind::PrimitiveTiles: {
    FailureOr<TilingInterface> op =
        strategyRootAs<TilingInterface>(kernel, root, strategy, "a tileable op");
    if (failed(op))
      return failure();
    return tileToWorkgroups(rewriter, kernel, *op, strategy);
  }
  case StrategyKind::PackedMatmul:
  case StrategyKind::MatmulEpilogue:
  case StrategyKind::RowFusion:
  case StrategyKind::RegisterTiles: {
    FailureOr<linalg::LinalgOp> op =
        strategyRootAs<linalg::LinalgOp>(kernel, root, strategy, "a linalg op");
    if (failed(op))
      return failure();
    if (kind == StrategyKind::RowFusion && strategy.getWorkgroup().empty())
      return kernel.emitError("strategy 'row_fusion' on cpu needs "
                              "'workgroup' and 'vector' tiles");
    // What the lowering needs of the root, read before tiling replaces it.
    bool isContraction = linalg::isaContractionOpInterface(*op) ||
                         linalg::isaConvolutionOpInterface(*op);
    int64_t lanes = getVectorLanes(*op, vectorBits);
    SmallVector<int64_t> epilogueVectors(op->getNumLoops(), 1);
    if (!epilogueVectors.empty())
      epilogueVectors.back() =
          std::min<int64_t>(assumedLoopRanges(*op).back(), lanes);
    FailureOr<Operation *> wg = tileToWorkgroups(
        rewriter, kernel, cast<TilingInterface>(op->getOperation()), strategy);
    if (failed(wg))
      return failure();
    if (kind == StrategyKind::MatmulEpilogue ||
        (kind == StrategyKind::PackedMatmul && !isContraction))
      return lowerEpilogue(rewriter, kernel, *wg, strategy, epilogueVectors,
                           vectorBits);
    if (kind == StrategyKind::PackedMatmul)
      // tessel-cpu-packed-matmul writes the loops inside after
      // bufferization.
      return markPacked(rewriter, kernel, cast<linalg::LinalgOp>(*wg), strategy,
                        vectorBits, /*epilogue=*/false);
    if (failed(tileToRegisters(rewriter, cast<TilingInterface>(*wg),
                               strategy)))
      return failure();
    if (kind == StrategyKind::RowFusion &&
        failed(splitRowReductions(rewriter, kernel, lanes)))
      return kernel.emitError("splitting fused row reductions failed");
    return success();
  }
  default:
    return kernel.emitError()
           << "strategy '" << stringifyStrategyKind(kind)
           << "' is a cuda strategy";
  }
}

namespace mlir::tessel {

/// Lowers one kernel as its strategy says, then vectorizes what is small
/// enough.
LogicalResult tileAndVectorizeCPUKernel(func::FuncOp kernel,
                                        int64_t vectorBits) {
  auto strategy = kernel->getAttrOfType<StrategyAttr>(kStrategyAttr);
  if (!strategy)
    return kernel.emitError()
           << "kernel " << kernel.getSymName() << " has no " << kStrategyAttr
           << " (run tessel-cpu-select-strategy first)";
  IRRewriter rewriter(kernel.getContext());
  if (failed(lowerStrategy(rewriter, kernel, strategy, vectorBits)))
    return failure();
  kernel.walk([](Operation *op) { op->removeAttr(kStrategyRootAttr); });
  cleanupAfterTiling(kernel);
  if (strategy.getKind() == StrategyKind::FlashAttention)
    return success();
  vectorizeSmallOps(rewriter, kernel, kMaxVectorElements);
  cleanupAfterTiling(kernel);
  hoistAccumulators(rewriter, kernel);
  cleanupAfterTiling(kernel);
  return success();
}

namespace {
struct CPUTileAndVectorizePass
    : impl::CPUTileAndVectorizeBase<CPUTileAndVectorizePass> {
  using Base::Base;
  void runOnOperation() override {
    // The executable's target description, where the CPU target attached
    // one, decides the vector width.
    int64_t bits = vectorBits;
    if (auto target = getOperation()->getAttrOfType<CPUTargetAttr>(kTargetAttr))
      bits = target.getVectorBits();
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (fn->hasAttr(kKernelAttr))
        if (failed(tileAndVectorizeCPUKernel(fn, bits)))
          return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
