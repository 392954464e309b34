//===- GPUTileAndVectorize.cpp - tessel-gpu-tile-and-vectorize -*- C++ -*-===//
//
// Lowers each kernel as its #tessel.strategy says: the hand-built kernels
// of the matmuls, row fusion, flash attention and the primitives, or, for
// `tiled` and `primitive_tiles`, block tiles (scf.forall), thread tiles
// (nested scf.forall) and sequential reduction steps (scf.for) on tensors,
// each fusing producers; then vectorizes what is left in the threads.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Codegen/GPU/GPUFlashAttention.h"
#include "tessel/Codegen/GPU/GPURowFusion.h"
#include "tessel/Codegen/GPU/GPUSharedMemoryMatmul.h"
#include "tessel/Codegen/GPU/GPUStrategyTable.h"
#include "tessel/Codegen/GPU/GPUTensorCoreMatmul.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Codegen/GPU/GPUWgmmaMatmul.h"
#include "tessel/Codegen/Primitives/GridGather.h"
#include "tessel/Codegen/Primitives/GridRadixSort.h"
#include "tessel/Codegen/Primitives/GridScan.h"
#include "tessel/Codegen/Primitives/GridScatter.h"
#include "tessel/Codegen/Primitives/WarpTopk.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_GPUTILEANDVECTORIZE
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

/// gpu.block/gpu.thread mapping for the non-zero entries of `tiles`; the
/// last tiled loop maps to x.
template <typename MappingAttr>
static SmallVector<Attribute> mappingFor(MLIRContext *ctx,
                                         ArrayRef<int64_t> tiles) {
  int64_t rank = llvm::count_if(tiles, [](int64_t t) { return t != 0; });
  SmallVector<Attribute> mapping;
  for (int64_t d = 0; d < rank; ++d)
    mapping.push_back(MappingAttr::get(
        ctx, static_cast<gpu::MappingId>(static_cast<uint64_t>(rank - 1 - d))));
  return mapping;
}

namespace {

/// Runs `emit` on the root as an `OpTy`; `failureText` is the error when
/// it cannot build the kernel.
template <typename OpTy>
LogicalResult emitOnRoot(func::FuncOp kernel, Operation *root,
                         StrategyAttr strategy, StringRef what,
                         LogicalResult (*emit)(func::FuncOp, OpTy),
                         StringRef failureText) {
  FailureOr<OpTy> op = strategyRootAs<OpTy>(kernel, root, strategy, what);
  if (failed(op))
    return failure();
  if (failed(emit(kernel, *op)))
    return kernel.emitError(failureText);
  return success();
}

/// Block tiles, thread tiles and reduction steps of `root` on tensors.
LogicalResult tileToBlocksAndThreads(func::FuncOp kernel, TilingInterface root,
                                     StrategyAttr strategy) {
  IRRewriter rewriter(kernel.getContext());
  using LoopType = scf::SCFTilingOptions::LoopType;
  MLIRContext *ctx = kernel.getContext();
  ArrayRef<int64_t> blockTiles = strategy.getWorkgroup();
  ArrayRef<int64_t> threadTiles = strategy.getThread();
  if (threadTiles.empty())
    return kernel.emitError()
           << "strategy '" << stringifyStrategyKind(strategy.getKind())
           << "' needs 'thread' tiles on cuda";
  if (blockTiles.size() != root.getLoopIteratorTypes().size())
    return kernel.emitError()
           << "strategy tiles " << blockTiles.size() << " loops, its root has "
           << root.getLoopIteratorTypes().size();
  FailureOr<Operation *> block = tileAndFuse(
      rewriter, root, blockTiles, LoopType::ForallOp, kWorkgroupsAttr,
      mappingFor<gpu::GPUBlockMappingAttr>(ctx, blockTiles));
  if (failed(block))
    return kernel.emitError("tiling to blocks failed");
  FailureOr<Operation *> thread = tileAndFuse(
      rewriter, cast<TilingInterface>(*block), threadTiles, LoopType::ForallOp,
      "", mappingFor<gpu::GPUThreadMappingAttr>(ctx, threadTiles));
  if (failed(thread))
    return kernel.emitError("tiling to threads failed");
  SmallVector<int64_t> reductionTiles(strategy.getReduction());
  reductionTiles.resize(blockTiles.size(), 0);
  if (failed(tileReductions(rewriter, cast<TilingInterface>(*thread),
                            reductionTiles)))
    return kernel.emitError("tiling reductions failed");
  return success();
}

/// Emits the strategy's kernel, or tiles its root.
LogicalResult lowerStrategy(func::FuncOp kernel, StrategyAttr strategy) {
  Operation *root = findStrategyRoot(kernel);
  MatmulTiles tiles = getMatmulTiles(strategy);
  switch (strategy.getKind()) {
  case StrategyKind::Serial:
    return success();
  case StrategyKind::Tiled:
  case StrategyKind::PrimitiveTiles: {
    FailureOr<TilingInterface> op =
        strategyRootAs<TilingInterface>(kernel, root, strategy, "a tileable op");
    if (failed(op))
      return failure();
    return tileToBlocksAndThreads(kernel, *op, strategy);
  }
  case StrategyKind::FlashAttention: {
    FailureOr<AttentionOp> op =
        strategyRootAs<AttentionOp>(kernel, root, strategy, "a tessel.attention");
    return failed(op) ? failure() : emitFlashAttention(kernel, *op);
  }
  case StrategyKind::RowFusion:
    if (!strategy.getWorkgroup().empty())
      return kernel.emitError("strategy 'row_fusion' takes no loop tiles on "
                              "cuda (the kernel fuses whole rows)");
    if (failed(emitRowFusion(kernel)))
      return kernel.emitError("row fusion failed");
    return success();
  case StrategyKind::WarpReduction:
    if (!root)
      return strategyRootAs<linalg::LinalgOp>(kernel, root, strategy, "a linalg op");
    if (failed(emitWarpReduction(kernel, root)))
      return kernel.emitError("warp reduction failed");
    return success();
  case StrategyKind::WgmmaMatmul:
  case StrategyKind::MmaSyncMatmul:
  case StrategyKind::SimtMatmul: {
    FailureOr<linalg::LinalgOp> op = strategyRootAs<linalg::LinalgOp>(
        kernel, root, strategy, "a contraction or convolution");
    if (failed(op))
      return failure();
    if (strategy.getKind() == StrategyKind::WgmmaMatmul)
      return emitWgmmaMatmul(kernel, *op, tiles);
    if (strategy.getKind() == StrategyKind::MmaSyncMatmul)
      return emitTensorCoreMatmul(kernel, *op, tiles);
    return emitSharedMemoryMatmul(kernel, *op, tiles);
  }
  case StrategyKind::GridScan:
    return emitOnRoot<ScanOp>(kernel, root, strategy, "a tessel.scan",
                              emitGridScan, "grid scan failed");
  case StrategyKind::GridGather:
    return emitOnRoot<GatherOp>(kernel, root, strategy, "a tessel.gather",
                                emitGridGather, "grid gather failed");
  case StrategyKind::GridRadixSort:
    return emitOnRoot<SortOp>(kernel, root, strategy, "a tessel.sort",
                              emitGridRadixSort, "grid radix sort failed");
  case StrategyKind::WarpTopk:
    return emitOnRoot<TopkOp>(kernel, root, strategy, "a tessel.topk",
                              emitWarpTopk, "warp top-k failed");
  case StrategyKind::GridScatter:
    return emitOnRoot<ScatterOp>(kernel, root, strategy, "a tessel.scatter",
                                 emitGridScatter, "grid scatter failed");
  case StrategyKind::RegisterTiles:
  case StrategyKind::PackedMatmul:
  case StrategyKind::MatmulEpilogue:
  case StrategyKind::PaddingCopy:
    return kernel.emitError()
           << "strategy '" << stringifyStrategyKind(strategy.getKind())
           << "' is a cpu strategy";
  }
  llvm_unreachable("unknown strategy kind");
}

/// Lowers one kernel, then vectorizes what its threads run.
LogicalResult tileAndVectorizeGPUKernel(func::FuncOp kernel) {
  auto strategy = kernel->getAttrOfType<StrategyAttr>(kStrategyAttr);
  if (!strategy)
    return kernel.emitError()
           << "kernel " << kernel.getSymName() << " has no " << kStrategyAttr
           << " (run tessel-gpu-select-strategy first)";
  if (failed(lowerStrategy(kernel, strategy)))
    return failure();
  kernel.walk([](Operation *op) { op->removeAttr(kStrategyRootAttr); });
  IRRewriter rewriter(kernel.getContext());
  cleanupAfterTiling(kernel);
  vectorizeSmallOps(rewriter, kernel, kGPUMaxVectorElements,
                    /*maskReductions=*/true);
  cleanupAfterTiling(kernel);
  hoistAccumulators(rewriter, kernel);
  cleanupAfterTiling(kernel);
  return success();
}

struct GPUTileAndVectorizePass
    : mlir::tessel::impl::GPUTileAndVectorizeBase<GPUTileAndVectorizePass> {
  using Base::Base;
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (fn->hasAttr(kKernelAttr))
        if (failed(tileAndVectorizeGPUKernel(fn)))
          return signalPassFailure();
  }
};

} // namespace
