//===- GPUKernelConfig.cpp - per-kernel GPU strategy -----------*- C++ -*-===//
//
// Heuristics, in one place:
// - tessel.attention (kept whole for GPU-only modules): the flash-attention
//   kernel on tensor cores (GPUFlashAttention.cpp);
// - a scan with elementwise neighbours in its dispatch (fuse-primitives:
//   stream compaction): the grid scan, evaluating them per element;
// - fused row dispatches (softmax, layernorm): a warp per row (a block of
//   up to 8 warps for rows longer than 1024) holding the row in registers
//   (GPURowFusion.cpp);
// - f16, bf16 and i8 contractions (matmul, batch matmul; i8 with
//   k-contiguous operands) and NHWC convolutions (implicit GEMM) reading
//   buffers or constants, and f32 ones with --cuda-tf32: tensor cores,
//   mma.sync (GPUTensorCoreMatmul.cpp), when every target architecture has
//   them (sm_80+); on sm_90a (every target architecture), wgmma fed by
//   TMA (GPUWgmmaMatmul.cpp) for the ones it takes (not convolutions,
//   constant operands, tf32), with mma.sync as the fallback;
// - f32 matmuls and batch matmuls (A and B row-major or transposed, the
//   batch index anywhere but last in A and B: split-K's partials),
//   reading their operands from bindings, and their elementwise consumers
//   (fuse-epilogues): 128x128 per block, 8x8 per thread, A and B
//   staged through double-buffered shared memory (GPUSharedMemoryMatmul.cpp);
// - other contractions: 64x64 block tiles of M and N, 4x4 per thread (256
//   threads), K in steps of 4 inside each thread, operands read through L1;
// - reductions of 32-bit values along the innermost, contiguous loop
//   (including full reductions to one value): one warp per output element,
//   lanes striding the reduced loop with 128-bit loads, combined with warp
//   shuffles (GPUWarpReduction.cpp);
// - transposes (an input whose contiguous loop is not the output's): a 4x4
//   tile per thread (one 128-bit vector per row for f32, on both sides),
//   8 threads along the output's contiguous loop and 32 along the input's,
//   so both reads and writes use whole 32-byte sectors;
// - everything else: each thread owns one 128-bit vector along the
//   innermost parallel loop (4 x f32, 8 x f16, ...) and one element of the
//   next loop out; up to 64 threads along the innermost loop and 256 per
//   block; other reductions run sequentially inside a thread, 8 steps of
//   an outer reduced loop at a time (8 independent loads in flight).
// Blocks and threads split at most three loops each (x, y, z).
// Reductions with too few outputs to fill the GPU were already split into
// partials by tessel-legalize-input.
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUKernelConfig.h"

#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Codegen/Common/AttentionKernel.h"
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

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kMaxThreadsPerBlock = 256;
constexpr int64_t kMaxThreadsX = 64;
constexpr int64_t kTransposeThreadsX = 8;
constexpr int64_t kOuterReductionStep = 8;


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

} // namespace

GPUKernelConfig mlir::tessel::getGPUKernelConfig(
    func::FuncOp kernel, const GPUStrategyOptions &options) {
  GPUKernelConfig config;
  if (AttentionOp attention = findAttentionRoot(kernel)) {
    // The only GPU strategy for the op (tessel-decompose-attention left
    // whole only the ones it takes); emitting it reports why otherwise.
    config.attention = attention;
    config.strategy = describeFlashAttention(attention);
    return config;
  }
  if (canUseRowFusion(kernel)) {
    config.rowFusion = true;
    config.strategy = "row fusion (a warp or block per row)";
    return config;
  }
  if (ScanOp scan = findFusedScan(kernel)) {
    config.primitive = scan;
    config.gridScan = true;
    std::string why;
    config.strategy = canUseGridScan(kernel, scan, why)
                          ? describeGridScan(scan)
                          : "fused grid scan (not applicable: " + why + ")";
    return config;
  }
  if (Operation *primitive = findPrimitiveRoot(kernel)) {
    config.primitive = primitive;
    std::string whyNotGrid;
    if (auto scan = dyn_cast<ScanOp>(primitive)) {
      if (canUseGridScan(kernel, scan, whyNotGrid)) {
        config.gridScan = true;
        config.strategy = describeGridScan(scan);
        return config;
      }
      whyNotGrid = "; no grid scan: " + whyNotGrid;
    }
    if (auto scatter = dyn_cast<ScatterOp>(primitive)) {
      if (canUseGridScatter(kernel, scatter, whyNotGrid)) {
        config.gridScatter = true;
        config.strategy = describeGridScatter(scatter);
        return config;
      }
      whyNotGrid = "; no grid scatter: " + whyNotGrid;
    }
    if (auto sort = dyn_cast<SortOp>(primitive); sort && hasRadixWorkspaces(sort)) {
      // Radix sorts have no other GPU strategy: where the grid one does
      // not apply, emitting it reports why.
      config.gridRadixSort = true;
      config.strategy = canUseGridRadixSort(kernel, sort, whyNotGrid)
                            ? describeGridRadixSort(sort)
                            : "grid radix sort (not applicable: " +
                                  whyNotGrid + ")";
      return config;
    }
    if (auto topk = dyn_cast<TopkOp>(primitive)) {
      if (canUseWarpTopk(kernel, topk, whyNotGrid)) {
        config.warpTopk = true;
        config.strategy = describeWarpTopk(topk);
        return config;
      }
      whyNotGrid = "; no warp top-k: " + whyNotGrid;
    }
    if (auto gather = dyn_cast<GatherOp>(primitive)) {
      if (canUseGridGather(kernel, gather, whyNotGrid)) {
        config.gridGather = true;
        config.strategy = describeGridGather(gather);
        return config;
      }
      whyNotGrid = "; no grid gather: " + whyNotGrid;
    }
    PrimitiveTiles tiles = getGPUPrimitiveTiles(primitive);
    config.blockTiles = tiles.outer;
    config.threadTiles = tiles.inner;
    config.strategy = tiles.strategy + whyNotGrid;
    return config;
  }
  linalg::LinalgOp root = findTileableRoot(kernel, config.serialReason);
  if (!root) {
    config.strategy = "one thread: " + config.serialReason;
    return config;
  }
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  unsigned n = ranges.size();
  SmallVector<utils::IteratorType> iters = root.getIteratorTypesArray();
  SmallVector<unsigned> parallel;
  for (unsigned d = 0; d < n; ++d)
    if (iters[d] == utils::IteratorType::parallel)
      parallel.push_back(d);
  // A matmul dispatch may end in elementwise consumers (fuse-epilogues):
  // then the root found above is the last of them.
  linalg::LinalgOp matmul = root;
  if (!linalg::isaContractionOpInterface(root))
    for (auto op : kernel.getBody().front().getOps<linalg::LinalgOp>())
      if (linalg::isaContractionOpInterface(op))
        matmul = op;
  // Why a contraction did not get tensor cores, for the strategy line.
  std::string noTensorCores;
  if (linalg::isaContractionOpInterface(matmul) ||
      isa<linalg::Conv2DNhwcHwcfOp>(matmul.getOperation())) {
    std::string noWgmma;
    if (options.tensorCores && options.wgmma &&
        canUseWgmmaMatmul(kernel, matmul, options.tf32,
                          options.wgmmaMinTiles, noWgmma)) {
      config.root = matmul;
      config.wgmmaMatmul = true;
      config.strategy = "tensor-core matmul: " +
                        describeWgmmaMatmul(matmul, options.tf32);
      return config;
    }
    if (!options.tensorCores)
      noTensorCores = options.noTensorCoresReason;
    else if (canUseTensorCoreMatmul(kernel, matmul, options.tf32,
                                    noTensorCores)) {
      config.root = matmul;
      config.tensorCoreMatmul = true;
      config.strategy =
          "tensor-core matmul: " +
          describeTensorCoreMatmul(matmul, options.tf32);
      if (options.wgmma)
        config.strategy += " (no wgmma: " + noWgmma + ")";
      return config;
    }
    noTensorCores = "; no tensor cores: " + noTensorCores;
  }
  // Before the warp reduction, which would take a contraction generic
  // (split-K's partials, say) as a dot product per output.
  if (canUseSharedMemoryMatmul(kernel, matmul)) {
    config.root = matmul;
    config.sharedMemoryMatmul = true;
    config.strategy = "SIMT shared-memory matmul (f32)" + noTensorCores;
    return config;
  }
  if (canUseWarpReduction(kernel, root)) {
    config.root = root;
    config.warpReduction = true;
    config.strategy = "warp reduction (a warp per output)" + noTensorCores;
    return config;
  }
  if (parallel.empty()) {
    config.serialReason = "root has no parallel loop";
    config.strategy = "one thread: " + config.serialReason;
    return config;
  }
  config.strategy = "tiled (" + root->getName().getStringRef().str() +
                    " in block and thread tiles)" + noTensorCores;
  config.root = root;
  config.blockTiles.assign(n, 0);
  config.threadTiles.assign(n, 0);
  config.reductionTiles.assign(n, 0);
  int64_t vec = std::max<int64_t>(1, 128 / widestElementBits(root));

  FailureOr<linalg::ContractionDimensions> contraction =
      linalg::isaContractionOpInterface(root)
          ? linalg::inferContractionDims(root)
          : FailureOr<linalg::ContractionDimensions>(failure());
  if (succeeded(contraction) && contraction->m.size() == 1 &&
      contraction->n.size() == 1 && contraction->batch.size() <= 1) {
    unsigned m = contraction->m[0], nn = contraction->n[0];
    for (unsigned b : contraction->batch)
      config.blockTiles[b] = 1;
    config.threadTiles[m] = std::min<int64_t>(4, ranges[m]);
    config.threadTiles[nn] = std::min<int64_t>(4, ranges[nn]);
    config.blockTiles[m] = std::min<int64_t>(64, ranges[m]);
    config.blockTiles[nn] = std::min<int64_t>(64, ranges[nn]);
    for (unsigned k : contraction->k)
      config.reductionTiles[k] = 1;
    config.reductionTiles[contraction->k.back()] =
        std::min<int64_t>(4, ranges[contraction->k.back()]);
    return config;
  }

  // Innermost parallel loop: a vector per thread.
  unsigned x = parallel.back();
  int64_t tx = std::min<int64_t>(vec, ranges[x]);
  config.threadTiles[x] = tx;
  SmallVector<unsigned> outer(parallel.begin(), parallel.end() - 1);
  if (std::optional<unsigned> y = transposedLoop(root, x)) {
    // Transpose: a vector along the input's contiguous loop too.
    int64_t ty = std::min<int64_t>(vec, ranges[*y]);
    int64_t threadsX = std::min<int64_t>(
        kTransposeThreadsX, powerOf2AtLeast(llvm::divideCeil(ranges[x], tx)));
    int64_t threadsY = std::min<int64_t>(
        kMaxThreadsPerBlock / threadsX,
        powerOf2AtLeast(llvm::divideCeil(ranges[*y], ty)));
    config.blockTiles[x] = tx * threadsX;
    config.threadTiles[*y] = ty;
    config.blockTiles[*y] = ty * threadsY;
    llvm::erase(outer, *y);
  } else {
    // Up to 64 threads along x; the next loop out fills the block, one
    // element per thread.
    int64_t threadsX = std::min<int64_t>(
        kMaxThreadsX, powerOf2AtLeast(llvm::divideCeil(ranges[x], tx)));
    config.blockTiles[x] = tx * threadsX;
    if (!outer.empty()) {
      unsigned y = outer.pop_back_val();
      int64_t threadsY = std::min<int64_t>(kMaxThreadsPerBlock / threadsX,
                                           powerOf2AtLeast(ranges[y]));
      config.threadTiles[y] = 1;
      config.blockTiles[y] = threadsY;
    }
  }
  // One more loop out: one block per element.
  if (!outer.empty())
    config.blockTiles[outer.back()] = 1;
  // Reductions: sequential in each thread. The innermost reduced loop
  // steps a vector at a time when it is the contiguous one, else 8 at a
  // time so that 8 independent loads are in flight.
  for (unsigned d = 0; d < n; ++d)
    if (iters[d] == utils::IteratorType::reduction)
      config.reductionTiles[d] = 1;
  for (int d = n - 1; d >= 0; --d)
    if (iters[d] == utils::IteratorType::reduction) {
      int64_t step = d == static_cast<int>(n) - 1 ? vec : kOuterReductionStep;
      config.reductionTiles[d] = std::min<int64_t>(step, ranges[d]);
      break;
    }
  return config;
}
