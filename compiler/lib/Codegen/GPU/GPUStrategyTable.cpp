//===- GPUStrategyTable.cpp - the cuda target's strategies -----*- C++ -*-===//
//
// The strategies, in the order they are asked (the first that takes a
// kernel wins):
// - flash_attention: a tessel.attention (kept whole for GPU-only modules:
//   tessel-decompose-attention left only the ones it takes) on tensor
//   cores (GPUFlashAttention.cpp);
// - row_fusion: fused row dispatches (softmax, layernorm): a warp per row
//   (a block of up to 8 warps for rows longer than 1024) holding the row
//   in registers (GPURowFusion.cpp);
// - grid_scan: a scan fused with its elementwise neighbours
//   (fuse-primitives: stream compaction), or a scan that the decoupled
//   look-back or block-per-row scan takes (GridScan.cpp);
// - grid_scatter, grid_radix_sort (every sort with radix workspaces),
//   warp_topk, grid_gather: the primitives' grid and warp kernels;
// - primitive_tiles: any other primitive, a thread per point of its
//   parallel loops;
// - wgmma_matmul (sm_90a): f16/bf16 contractions in any layout, s8/u8
//   k-contiguous, read by TMA from bindings, with enough output tiles
//   (GPUWgmmaMatmul.cpp);
// - mma_sync_matmul (sm_80+): f16, bf16, i8 contractions and NHWC
//   convolutions (implicit GEMM), f32 ones with --cuda-tf32
//   (GPUTensorCoreMatmul.cpp);
// - simt_matmul: f32 matmuls and batch matmuls (A and B row-major or
//   transposed, the batch index anywhere but last: split-K's partials)
//   with their elementwise epilogue, through double-buffered shared
//   memory (GPUSharedMemoryMatmul.cpp);
// - warp_reduction: reductions of 32-bit values along the innermost,
//   contiguous loop: one warp per output element (GPUWarpReduction.cpp);
// - tiled: block and thread tiles of the root op:
//   - other contractions: 64x64 block tiles of M and N, 4x4 per thread
//     (256 threads), K in steps of 4 inside each thread, through L1;
//   - transposes (an input whose contiguous loop is not the output's): a
//     4x4 tile per thread (one 128-bit vector per row for f32, on both
//     sides), 8 threads along the output's contiguous loop and 32 along
//     the input's, so both reads and writes use whole 32-byte sectors;
//   - everything else: each thread owns one 128-bit vector along the
//     innermost parallel loop and one element of the next loop out; up to
//     64 threads along the innermost loop and 256 per block; other
//     reductions run sequentially inside a thread, 8 steps of an outer
//     reduced loop at a time (8 independent loads in flight);
// - serial: one thread of one block (no tileable root).
// Blocks and threads split at most three loops each (x, y, z).
// Reductions with too few outputs to fill the GPU were already split into
// partials by tessel-legalize-input.
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUStrategyTable.h"

#include "tessel/Codegen/Common/AttentionKernel.h"
#include "tessel/Codegen/Common/DynamicExtents.h"
#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Codegen/GPU/GPUFlashAttention.h"
#include "tessel/Codegen/GPU/GPURowFusion.h"
#include "tessel/Codegen/GPU/GPUSharedMemoryMatmul.h"
#include "tessel/Codegen/GPU/GPUTensorCoreMatmul.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Codegen/GPU/GPUWgmmaMatmul.h"
#include "tessel/Codegen/Primitives/GridGather.h"
#include "tessel/Codegen/Primitives/GridRadixSort.h"
#include "tessel/Codegen/Primitives/GridScan.h"
#include "tessel/Codegen/Primitives/GridScatter.h"
#include "tessel/Codegen/Primitives/PrimitiveTiling.h"
#include "tessel/Codegen/Primitives/RadixKey.h"
#include "tessel/Codegen/Primitives/WarpTopk.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tessel;

MatmulTiles mlir::tessel::getMatmulTiles(StrategyAttr strategy) {
  MatmulTiles tiles;
  ArrayRef<int64_t> tile = strategy.getTile();
  if (tile.size() == 3) {
    tiles.blockM = tile[0];
    tiles.blockN = tile[1];
    tiles.blockK = tile[2];
  }
  tiles.stages = strategy.getStages();
  tiles.grid = strategy.getGrid();
  return tiles;
}

StrategyAttr mlir::tessel::getMatmulStrategy(MLIRContext *ctx,
                                             StrategyKind kind,
                                             const MatmulTiles &tiles) {
  SmallVector<int64_t> tile = {tiles.blockM, tiles.blockN, tiles.blockK};
  return StrategyAttr::get(ctx, kind, {}, {}, {}, {}, {}, tile, {},
                           tiles.stages, tiles.grid);
}

namespace {

constexpr int64_t kMaxThreadsPerBlock = 256;
constexpr int64_t kMaxThreadsX = 64;
constexpr int64_t kTransposeThreadsX = 8;
constexpr int64_t kOuterReductionStep = 8;
/// CUDA's limit of threads per block.
constexpr int64_t kCUDAMaxThreads = 1024;

/// The strategy's answer, or failure with `why` ("" when the kernel has
/// nothing the strategy applies to: not worth a line in the report).
/// `forced` is set when the user forced this strategy.
using TakeFn = FailureOr<StrategyChoice> (*)(func::FuncOp,
                                                const GPUStrategyOptions &,
                                                const ForcedStrategy *forced,
                                                std::string &why);

/// The parameters the user gave, or null.
StrategyAttr givenParameters(const ForcedStrategy *forced) {
  return forced ? forced->strategy : StrategyAttr();
}

struct Entry {
  StrategyKind kind;
  TakeFn take;
};

StrategyChoice choose(StrategyAttr strategy, Operation *root,
                         std::string description) {
  return {strategy, root, std::move(description)};
}

StrategyAttr plain(func::FuncOp kernel, StrategyKind kind) {
  return StrategyAttr::get(kernel.getContext(), kind);
}

int64_t powerOf2AtLeast(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p *= 2;
  return p;
}

/// For an op whose innermost parallel loop is `x`: a parallel loop that is
/// the contiguous (last) index of some input that also reads along `x`.
std::optional<unsigned> transposedLoop(linalg::LinalgOp op, unsigned x) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (map.getNumResults() == 0)
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || last.getPosition() == x ||
        iters[last.getPosition()] != utils::IteratorType::parallel)
      continue;
    // It must also read along x (else it is a broadcast, not a transpose).
    if (!llvm::any_of(map.getResults(), [&](AffineExpr e) {
          auto d = dyn_cast<AffineDimExpr>(e);
          return d && d.getPosition() == x;
        }))
      continue;
    return last.getPosition();
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Whole-kernel strategies
//===----------------------------------------------------------------------===//

FailureOr<StrategyChoice> takeFlashAttention(func::FuncOp kernel,
                                                const GPUStrategyOptions &,
                                                const ForcedStrategy *,
                                                std::string &) {
  AttentionOp attention = findAttentionRoot(kernel);
  if (!attention)
    return failure();
  // The only GPU strategy for the op; emitting it reports why otherwise.
  return choose(plain(kernel, StrategyKind::FlashAttention), attention,
                describeFlashAttention(attention));
}

FailureOr<StrategyChoice> takeRowFusion(func::FuncOp kernel,
                                           const GPUStrategyOptions &,
                                           const ForcedStrategy *,
                                           std::string &) {
  if (!canUseRowFusion(kernel))
    return failure();
  return choose(plain(kernel, StrategyKind::RowFusion), nullptr,
                "row fusion (a warp or block per row)");
}

//===----------------------------------------------------------------------===//
// Primitives
//===----------------------------------------------------------------------===//

template <typename OpTy> OpTy primitiveRoot(func::FuncOp kernel) {
  return dyn_cast_or_null<OpTy>(findPrimitiveRoot(kernel));
}

FailureOr<StrategyChoice> takeGridScan(func::FuncOp kernel,
                                          const GPUStrategyOptions &,
                                          const ForcedStrategy *,
                                          std::string &why) {
  StrategyAttr strategy = plain(kernel, StrategyKind::GridScan);
  if (ScanOp fused = findFusedScan(kernel)) {
    // A fused scan group has no other strategy: where the grid scan does
    // not apply, emitting it reports why.
    std::string whyNot;
    return choose(strategy, fused,
                  canUseGridScan(kernel, fused, whyNot)
                      ? describeGridScan(fused)
                      : "fused grid scan (not applicable: " + whyNot + ")");
  }
  auto scan = primitiveRoot<ScanOp>(kernel);
  if (!scan || !canUseGridScan(kernel, scan, why))
    return failure();
  return choose(strategy, scan, describeGridScan(scan));
}

FailureOr<StrategyChoice> takeGridRadixSort(func::FuncOp kernel,
                                               const GPUStrategyOptions &,
                                               const ForcedStrategy *,
                                               std::string &) {
  auto sort = primitiveRoot<SortOp>(kernel);
  if (!sort || !hasRadixWorkspaces(sort))
    return failure();
  // Radix sorts have no other GPU strategy: where the grid one does not
  // apply, emitting it reports why.
  std::string whyNot;
  return choose(plain(kernel, StrategyKind::GridRadixSort), sort,
                canUseGridRadixSort(kernel, sort, whyNot)
                    ? describeGridRadixSort(sort)
                    : "grid radix sort (not applicable: " + whyNot + ")");
}

/// A primitive's own kernel (grid scatter, warp top-k, grid gather): taken
/// where the primitive is the kernel's root and `canUse` says yes.
template <StrategyKind kind, typename OpTy,
          bool (*canUse)(func::FuncOp, OpTy, std::string &),
          std::string (*describe)(OpTy)>
FailureOr<StrategyChoice>
takePrimitiveKernel(func::FuncOp kernel, const GPUStrategyOptions &,
                    const ForcedStrategy *, std::string &why) {
  auto op = primitiveRoot<OpTy>(kernel);
  if (!op || !canUse(kernel, op, why))
    return failure();
  return choose(plain(kernel, kind), op, describe(op));
}

/// Checks loop tiles a user gave for `op` (`loops` loops).
LogicalResult checkLoopTiles(StrategyAttr given, unsigned loops,
                             std::string &why) {
  if (given.getWorkgroup().size() != loops) {
    why = llvm::formatv("the strategy gives tiles for {0} loops, the root op "
                        "has {1}",
                        given.getWorkgroup().size(), loops)
              .str();
    return failure();
  }
  int64_t threads = 1;
  for (auto [w, t] : llvm::zip(given.getWorkgroup(), given.getThread()))
    if (t != 0)
      threads *= w == 0 ? 1 : w / t;
  if (threads > kCUDAMaxThreads) {
    why = llvm::formatv("{0} threads per block (CUDA allows {1})", threads,
                        kCUDAMaxThreads)
              .str();
    return failure();
  }
  return success();
}

FailureOr<StrategyChoice> takePrimitiveTiles(func::FuncOp kernel,
                                                const GPUStrategyOptions &,
                                                const ForcedStrategy *forced,
                                                std::string &why) {
  Operation *primitive = findPrimitiveRoot(kernel);
  if (!primitive)
    return failure();
  PrimitiveTiles tiles = getGPUPrimitiveTiles(primitive);
  StrategyAttr strategy = givenParameters(forced);
  if (strategy) {
    if (failed(checkLoopTiles(strategy, tiles.outer.size(), why)))
      return failure();
  } else {
    strategy =
        StrategyAttr::get(kernel.getContext(), StrategyKind::PrimitiveTiles,
                          tiles.outer, tiles.inner, {}, {}, {}, {}, {}, 0,
                          0);
  }
  return choose(strategy, primitive, tiles.strategy);
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// The contraction (or NHWC convolution) of a kernel whose stored root is
/// it or its elementwise epilogue (fuse-epilogues); null otherwise.
linalg::LinalgOp findMatmul(func::FuncOp kernel) {
  std::string ignored;
  linalg::LinalgOp root =
      findTileableRoot(kernel, ignored, /*dynamicRanges=*/true);
  if (!root)
    return {};
  linalg::LinalgOp matmul = root;
  if (!linalg::isaContractionOpInterface(root))
    for (auto op : kernel.getBody().front().getOps<linalg::LinalgOp>())
      if (linalg::isaContractionOpInterface(op))
        matmul = op;
  if (linalg::isaContractionOpInterface(matmul) ||
      isa<linalg::Conv2DNhwcHwcfOp>(matmul.getOperation()))
    return matmul;
  return {};
}

/// The tiles of a matmul kind: the ones the user gave (stages and grid
/// from the cost model where they are 0), or the cost model's.
MatmulTiles withGiven(MatmulTiles chosen, StrategyAttr given) {
  if (!given)
    return chosen;
  MatmulTiles tiles = getMatmulTiles(given);
  if (!tiles.stages)
    tiles.stages = chosen.stages;
  if (!tiles.grid)
    tiles.grid = chosen.grid;
  return tiles;
}

FailureOr<StrategyChoice> takeWgmmaMatmul(func::FuncOp kernel,
                                             const GPUStrategyOptions &options,
                                             const ForcedStrategy *forced,
                                             std::string &why) {
  linalg::LinalgOp matmul = findMatmul(kernel);
  if (!matmul)
    return failure();
  CUDATargetAttr target = options.target;
  if (!target.hasMma("wgmma")) {
    // Not worth a line per kernel of every pre-Hopper executable, unless
    // the user asked for it.
    if (forced)
      why = ("the target (" + target.getArch().getValue() + ") has no wgmma")
                .str();
    return failure();
  }
  // A forced strategy skips the cost model's size threshold.
  FailureOr<MatmulTiles> chosen =
      chooseWgmmaTiles(matmul, target, forced ? 0 : options.wgmmaMinTiles, why);
  if (failed(chosen))
    return failure();
  MatmulTiles tiles = withGiven(*chosen, givenParameters(forced));
  if (forced && failed(checkWgmmaTiles(matmul, tiles, target, why)))
    return failure();
  return choose(
      getMatmulStrategy(kernel.getContext(), StrategyKind::WgmmaMatmul, tiles),
      matmul, describeWgmmaMatmul(matmul, tiles));
}

FailureOr<StrategyChoice>
takeMmaSyncMatmul(func::FuncOp kernel, const GPUStrategyOptions &options,
                  const ForcedStrategy *forced, std::string &why) {
  linalg::LinalgOp matmul = findMatmul(kernel);
  if (!matmul)
    return failure();
  FailureOr<MatmulTiles> chosen =
      chooseMmaSyncTiles(matmul, options.target, options.tf32, why);
  if (failed(chosen))
    return failure();
  MatmulTiles tiles = withGiven(*chosen, givenParameters(forced));
  if (forced && failed(checkMmaSyncTiles(matmul, tiles, options.target,
                                         options.tf32, why)))
    return failure();
  return choose(getMatmulStrategy(kernel.getContext(),
                                  StrategyKind::MmaSyncMatmul, tiles),
                matmul, describeTensorCoreMatmul(matmul, tiles));
}

FailureOr<StrategyChoice> takeSimtMatmul(func::FuncOp kernel,
                                            const GPUStrategyOptions &options,
                                            const ForcedStrategy *forced,
                                            std::string &why) {
  linalg::LinalgOp matmul = findMatmul(kernel);
  if (!matmul)
    return failure();
  FailureOr<MatmulTiles> chosen =
      chooseSimtMatmulTiles(matmul, options.target, why);
  if (failed(chosen))
    return failure();
  MatmulTiles tiles = withGiven(*chosen, givenParameters(forced));
  return choose(
      getMatmulStrategy(kernel.getContext(), StrategyKind::SimtMatmul, tiles),
      matmul,
      llvm::formatv("SIMT shared-memory matmul (f32), {0}x{0} "
                    "blocks, 8x8 per thread",
                    tiles.blockM)
          .str());
}

//===----------------------------------------------------------------------===//
// Tiled and serial kernels
//===----------------------------------------------------------------------===//

FailureOr<StrategyChoice> takeWarpReduction(func::FuncOp kernel,
                                               const GPUStrategyOptions &,
                                               const ForcedStrategy *,
                                               std::string &) {
  std::string ignored;
  linalg::LinalgOp root =
      findTileableRoot(kernel, ignored, /*dynamicRanges=*/true);
  if (!root || !canUseWarpReduction(kernel, root))
    return failure();
  return choose(plain(kernel, StrategyKind::WarpReduction), root,
                "warp reduction (a warp per output)");
}

/// The cost model's block, thread and reduction tiles of `root`.
StrategyAttr chooseLoopTiles(linalg::LinalgOp root) {
  SmallVector<int64_t> ranges = assumedLoopRanges(root);
  unsigned n = ranges.size();
  SmallVector<utils::IteratorType> iters = root.getIteratorTypesArray();
  SmallVector<unsigned> parallel;
  for (unsigned d = 0; d < n; ++d)
    if (iters[d] == utils::IteratorType::parallel)
      parallel.push_back(d);
  SmallVector<int64_t> blockTiles(n, 0), threadTiles(n, 0),
      reductionTiles(n, 0);
  auto attr = [&] {
    return StrategyAttr::get(root.getContext(), StrategyKind::Tiled, blockTiles,
                             threadTiles, reductionTiles, {}, {}, {}, {}, 0,
                             0);
  };
  int64_t vec = std::max<int64_t>(1, 128 / widestElementBits(root));

  FailureOr<linalg::ContractionDimensions> contraction =
      linalg::isaContractionOpInterface(root)
          ? linalg::inferContractionDims(root)
          : FailureOr<linalg::ContractionDimensions>(failure());
  if (succeeded(contraction) && contraction->m.size() == 1 &&
      contraction->n.size() == 1 && contraction->batch.size() <= 1) {
    unsigned m = contraction->m[0], nn = contraction->n[0];
    for (unsigned b : contraction->batch)
      blockTiles[b] = 1;
    threadTiles[m] = std::min<int64_t>(4, ranges[m]);
    threadTiles[nn] = std::min<int64_t>(4, ranges[nn]);
    blockTiles[m] = std::min<int64_t>(64, ranges[m]);
    blockTiles[nn] = std::min<int64_t>(64, ranges[nn]);
    for (unsigned k : contraction->k)
      reductionTiles[k] = 1;
    reductionTiles[contraction->k.back()] =
        std::min<int64_t>(4, ranges[contraction->k.back()]);
    return attr();
  }

  // Innermost parallel loop: a vector per thread.
  unsigned x = parallel.back();
  int64_t tx = std::min<int64_t>(vec, ranges[x]);
  threadTiles[x] = tx;
  SmallVector<unsigned> outer(parallel.begin(), parallel.end() - 1);
  if (std::optional<unsigned> y = transposedLoop(root, x)) {
    // Transpose: a vector along the input's contiguous loop too.
    int64_t ty = std::min<int64_t>(vec, ranges[*y]);
    int64_t threadsX = std::min<int64_t>(
        kTransposeThreadsX, powerOf2AtLeast(llvm::divideCeil(ranges[x], tx)));
    int64_t threadsY =
        std::min<int64_t>(kMaxThreadsPerBlock / threadsX,
                          powerOf2AtLeast(llvm::divideCeil(ranges[*y], ty)));
    blockTiles[x] = tx * threadsX;
    threadTiles[*y] = ty;
    blockTiles[*y] = ty * threadsY;
    llvm::erase(outer, *y);
  } else {
    // Up to 64 threads along x; the next loop out fills the block, one
    // element per thread.
    int64_t threadsX = std::min<int64_t>(
        kMaxThreadsX, powerOf2AtLeast(llvm::divideCeil(ranges[x], tx)));
    blockTiles[x] = tx * threadsX;
    if (!outer.empty()) {
      unsigned y = outer.pop_back_val();
      int64_t threadsY = std::min<int64_t>(kMaxThreadsPerBlock / threadsX,
                                           powerOf2AtLeast(ranges[y]));
      threadTiles[y] = 1;
      blockTiles[y] = threadsY;
    }
  }
  // One more loop out: one block per element.
  if (!outer.empty())
    blockTiles[outer.back()] = 1;
  // Reductions: sequential in each thread. The innermost reduced loop
  // steps a vector at a time when it is the contiguous one, else 8 at a
  // time so that 8 independent loads are in flight.
  for (unsigned d = 0; d < n; ++d)
    if (iters[d] == utils::IteratorType::reduction)
      reductionTiles[d] = 1;
  for (int d = n - 1; d >= 0; --d)
    if (iters[d] == utils::IteratorType::reduction) {
      int64_t step = d == static_cast<int>(n) - 1 ? vec : kOuterReductionStep;
      reductionTiles[d] = std::min<int64_t>(step, ranges[d]);
      break;
    }
  return attr();
}

FailureOr<StrategyChoice> takeTiled(func::FuncOp kernel,
                                       const GPUStrategyOptions &,
                                       const ForcedStrategy *forced,
                                       std::string &why) {
  // Dynamic extents: block and thread tiles with guarded, masked edges.
  linalg::LinalgOp root =
      findTileableRoot(kernel, why, /*dynamicRanges=*/true);
  if (!root)
    return failure();
  if (!llvm::is_contained(root.getIteratorTypesArray(),
                          utils::IteratorType::parallel)) {
    why = "the root op has no parallel loop";
    return failure();
  }
  StrategyAttr given = givenParameters(forced);
  if (given && failed(checkLoopTiles(given, root.getNumLoops(), why)))
    return failure();
  return choose(given ? given : chooseLoopTiles(root), root,
                "tiled (" + root->getName().getStringRef().str() +
                    " in block and thread tiles)");
}

FailureOr<StrategyChoice> takeSerial(func::FuncOp kernel,
                                        const GPUStrategyOptions &,
                                        const ForcedStrategy *, std::string &) {
  std::string why;
  if (!findTileableRoot(kernel, why))
    return choose(plain(kernel, StrategyKind::Serial), nullptr,
                  "one thread: " + why);
  return choose(plain(kernel, StrategyKind::Serial), nullptr,
                "one thread: the root op has no parallel loop");
}

/// The table, in the order the strategies are asked.
constexpr Entry kStrategies[] = {
    {StrategyKind::FlashAttention, takeFlashAttention},
    {StrategyKind::RowFusion, takeRowFusion},
    {StrategyKind::GridScan, takeGridScan},
    {StrategyKind::GridScatter,
     takePrimitiveKernel<StrategyKind::GridScatter, ScatterOp,
                         canUseGridScatter, describeGridScatter>},
    {StrategyKind::GridRadixSort, takeGridRadixSort},
    {StrategyKind::WarpTopk,
     takePrimitiveKernel<StrategyKind::WarpTopk, TopkOp, canUseWarpTopk,
                         describeWarpTopk>},
    {StrategyKind::GridGather,
     takePrimitiveKernel<StrategyKind::GridGather, GatherOp, canUseGridGather,
                         describeGridGather>},
    {StrategyKind::PrimitiveTiles, takePrimitiveTiles},
    {StrategyKind::WgmmaMatmul, takeWgmmaMatmul},
    {StrategyKind::MmaSyncMatmul, takeMmaSyncMatmul},
    {StrategyKind::SimtMatmul, takeSimtMatmul},
    {StrategyKind::WarpReduction, takeWarpReduction},
    {StrategyKind::Tiled, takeTiled},
    {StrategyKind::Serial, takeSerial},
};

} // namespace

FailureOr<StrategySelection>
mlir::tessel::selectGPUStrategy(func::FuncOp kernel,
                                const GPUStrategyOptions &options,
                                const ForcedStrategy *forced) {
  SmallVector<StrategyKind> kinds =
      llvm::map_to_vector(kStrategies, [](const Entry &e) { return e.kind; });
  auto take = [&](StrategyKind kind, const ForcedStrategy *given,
                  std::string &why) {
    const Entry *entry = llvm::find_if(
        kStrategies, [&](const Entry &e) { return e.kind == kind; });
    return entry->take(kernel, options, given, why);
  };
  return askStrategies(kernel, kinds, "cuda", forced, take);
}

SmallVector<StrategyAttr>
mlir::tessel::enumerateGPUStrategies(func::FuncOp kernel,
                                     const GPUStrategyOptions &options) {
  SmallVector<StrategyAttr> strategies;
  std::string why;
  // The cost model's choice (the serial strategy takes every kernel).
  for (const Entry &entry : kStrategies) {
    FailureOr<StrategyChoice> choice =
        entry.take(kernel, options, nullptr, why);
    if (succeeded(choice)) {
      strategies.push_back(choice->strategy);
      break;
    }
  }
  constexpr StrategyKind kMatmulKinds[] = {StrategyKind::WgmmaMatmul,
                                           StrategyKind::MmaSyncMatmul,
                                           StrategyKind::SimtMatmul};
  if (!llvm::is_contained(kMatmulKinds, strategies.front().getKind()))
    return strategies;
  MLIRContext *ctx = kernel.getContext();
  for (StrategyKind kind : kMatmulKinds) {
    const Entry *entry = llvm::find_if(
        kStrategies, [&](const Entry &e) { return e.kind == kind; });
    // The kind's own parameters for this kernel (K per stage, grid).
    ForcedStrategy kindOnly{kind, StrategyAttr()};
    FailureOr<StrategyChoice> base =
        entry->take(kernel, options, &kindOnly, why);
    if (failed(base))
      continue;
    MatmulTiles chosen = getMatmulTiles(base->strategy);
    SmallVector<MatmulTiles> variants;
    auto add = [&](int64_t m, int64_t n, int64_t stages) {
      MatmulTiles t = chosen;
      t.blockM = m;
      t.blockN = n;
      t.stages = stages;
      variants.push_back(t);
    };
    if (kind == StrategyKind::WgmmaMatmul) {
      for (int64_t n : {128, 192, 256})
        for (int64_t stages = 2; stages <= 8; ++stages)
          add(128, n, stages);
    } else if (kind == StrategyKind::MmaSyncMatmul) {
      for (int64_t m : {64, 128})
        for (int64_t n : {64, 128})
          for (int64_t stages = 2; stages <= 6; ++stages)
            add(m, n, stages);
    } else {
      for (int64_t side : {64, 128})
        add(side, side, 0);
    }
    for (const MatmulTiles &tiles : variants) {
      ForcedStrategy forced{kind, getMatmulStrategy(ctx, kind, tiles)};
      FailureOr<StrategyChoice> choice =
          entry->take(kernel, options, &forced, why);
      if (succeeded(choice) &&
          !llvm::is_contained(strategies, choice->strategy))
        strategies.push_back(choice->strategy);
    }
  }
  return strategies;
}
