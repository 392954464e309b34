//===- CPUTileAndVectorize.cpp - tessel-cpu-tile-and-vectorize -*- C++ -*-===//
//
// Applies a kernel's CPUKernelConfig on tensors: workgroup tiles (scf.forall,
// producers fused), register tiles (scf.for, producers fused), reduction
// steps (scf.for), then vectorizes every structured op whose tile is small
// enough; partial tiles get masked vectors sized by their upper bound. Ops
// that do not vectorize stay scalar and are lowered to loops later.
// Contractions with the packed strategy are tiled to workgroups only and
// marked for tessel-cpu-packed-matmul; padding copies (insert_slice into a
// fill, no linalg root) are split into workgroups by CPUPaddingCopy.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/CPU/CPUFlashAttention.h"
#include "tessel/Codegen/Common/AttentionKernel.h"

#include "tessel/Codegen/CPU/CPUKernelConfig.h"
#include "tessel/Codegen/CPU/CPUPaddingCopy.h"
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

/// Marks `op` for tessel-cpu-packed-matmul with the parameters `p`.
static void markPacked(RewriterBase &rewriter, Operation *op,
                       const CPUPackedMatmulParams &p) {
  op->setAttr(kCPUPackedMatmulAttr,
              rewriter.getDenseI64ArrayAttr(
                  {p.mr, p.nr, p.kc, p.mc, p.nc, p.lanes}));
}

/// Tiles `op` (inside its workgroup) into cache blocks of its reductions,
/// register tiles (producers fused) and reduction steps, and peels the
/// partial register tiles.
static LogicalResult tileToRegisters(RewriterBase &rewriter, TilingInterface op,
                                     ArrayRef<int64_t> cacheTiles,
                                     ArrayRef<int64_t> vectorTiles,
                                     ArrayRef<int64_t> reductionTiles) {
  FailureOr<Operation *> blocked = tileReductions(rewriter, op, cacheTiles);
  if (failed(blocked))
    return op->emitError("tiling reductions into cache blocks failed");
  FailureOr<Operation *> reg =
      tileAndFuse(rewriter, cast<TilingInterface>(*blocked), vectorTiles,
                  scf::SCFTilingOptions::LoopType::ForOp);
  if (failed(reg))
    return op->emitError("tiling to registers failed");
  FailureOr<Operation *> red = tileReductions(
      rewriter, cast<TilingInterface>(*reg), reductionTiles);
  if (failed(red))
    return op->emitError("tiling reductions failed");
  peelRegisterLoops(rewriter, *red);
  return success();
}

namespace mlir::tessel {

/// Tiles and vectorizes one kernel as its CPUKernelConfig says.
LogicalResult tileAndVectorizeCPUKernel(func::FuncOp kernel,
                                        int64_t vectorBits) {
  IRRewriter rewriter(kernel.getContext());
  if (AttentionOp attention = findAttentionRoot(kernel)) {
    // Kept whole only where the loop nest takes it
    // (tessel-decompose-attention{keep-for-targets}).
    if (failed(emitCPUFlashAttention(attention, vectorBits)))
      return failure();
    cleanupAfterTiling(kernel);
    return success();
  }
  CPUKernelConfig config = getCPUKernelConfig(kernel, vectorBits);
  if (config.root) {
    // Workgroups of the root, its producers fused in.
    FailureOr<Operation *> wg = tileAndFuse(
        rewriter, cast<TilingInterface>(config.root.getOperation()),
        config.workgroupTiles, scf::SCFTilingOptions::LoopType::ForallOp,
        kWorkgroupsAttr);
    if (failed(wg))
      return kernel.emitError("tiling to workgroups failed");
    if (config.epilogueOf) {
      // A matmul epilogue: the contraction fused into the workgroup is
      // computed whole there (packed panels later, or register tiles now),
      // and the root tiled to vectors without fusion (fusing would
      // recompute the C block per vector).
      linalg::LinalgOp contraction;
      (*wg)->getParentOp()->walk([&](linalg::LinalgOp op) {
        if (linalg::isaContractionOpInterface(op))
          contraction = op;
      });
      if (!contraction)
        return kernel.emitError("the epilogue's contraction was not fused "
                                "into its workgroups");
      if (failed(tileReductions(rewriter, cast<TilingInterface>(*wg),
                                config.vectorTiles)))
        return kernel.emitError("tiling the epilogue to vectors failed");
      if (config.packed)
        markPacked(rewriter, contraction, *config.packed);
      else if (failed(tileToRegisters(rewriter,
                                      cast<TilingInterface>(*contraction),
                                      config.contractionTiles->cache,
                                      config.contractionTiles->vector,
                                      config.contractionTiles->reduction)))
        return failure();
    } else if (config.packed) {
      // tessel-cpu-packed-matmul writes the loops inside after
      // bufferization.
      markPacked(rewriter, *wg, *config.packed);
    } else {
      if (failed(tileToRegisters(rewriter, cast<TilingInterface>(*wg),
                                 config.cacheTiles, config.vectorTiles,
                                 config.reductionTiles)))
        return failure();
      if (config.rowChain &&
          failed(splitRowReductions(rewriter, kernel,
                                    config.rowReductionLanes)))
        return kernel.emitError("splitting fused row reductions failed");
    }
  } else if (succeeded(tilePaddingCopy(rewriter, kernel))) {
    // A padding copy in workgroups (CPUPaddingCopy.h).
  } else if (config.primitive) {
    if (failed(tileAndFuse(rewriter, cast<TilingInterface>(config.primitive),
                           config.workgroupTiles,
                           scf::SCFTilingOptions::LoopType::ForallOp,
                           kWorkgroupsAttr)))
      return kernel.emitError("tiling to workgroups failed");
  }
  cleanupAfterTiling(kernel);
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
