//===- GPUKernelConfig.cpp - per-kernel GPU strategy -----------*- C++ -*-===//
//
// Heuristics, in one place:
// - contractions: 64x64 block tiles of M and N, 4x4 per thread (256
//   threads), K in steps of 4 inside each thread;
// - reductions of 32-bit values along the innermost, contiguous loop: one
//   warp per output element, lanes striding the reduced loop, combined with
//   warp shuffles (GPUWarpReduction.cpp);
// - everything else: each thread owns one 128-bit vector along the
//   innermost parallel loop (4 x f32, 8 x f16, ...) and one element of the
//   next loop out; up to 64 threads along the innermost loop and 256 per
//   block; other reductions run sequentially inside a thread.
// Blocks and threads split at most three loops each (x, y, z).
// Shared-memory promotion, pipelining and warp reductions come with the
// performance work (issue 4); this strategy is about being right on any
// shape.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUKernelConfig.h"

#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kMaxThreadsPerBlock = 256;
constexpr int64_t kMaxThreadsX = 64;


int64_t powerOf2AtLeast(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p *= 2;
  return p;
}

} // namespace

GPUKernelConfig mlir::tessel::getGPUKernelConfig(func::FuncOp kernel) {
  GPUKernelConfig config;
  linalg::LinalgOp root = findTileableRoot(kernel, config.serialReason);
  if (!root)
    return config;
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  unsigned n = ranges.size();
  SmallVector<utils::IteratorType> iters = root.getIteratorTypesArray();
  SmallVector<unsigned> parallel;
  for (unsigned d = 0; d < n; ++d)
    if (iters[d] == utils::IteratorType::parallel)
      parallel.push_back(d);
  if (parallel.empty()) {
    config.serialReason = "root has no parallel loop";
    return config;
  }
  config.root = root;
  if (canUseWarpReduction(kernel, root)) {
    config.warpReduction = true;
    return config;
  }
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

  // Innermost parallel loop: a vector per thread, up to 64 threads.
  unsigned x = parallel.back();
  int64_t tx = std::min<int64_t>(vec, ranges[x]);
  int64_t threadsX = std::min<int64_t>(
      kMaxThreadsX, powerOf2AtLeast(llvm::divideCeil(ranges[x], tx)));
  config.threadTiles[x] = tx;
  config.blockTiles[x] = tx * threadsX;
  // Next loop out: one element per thread, filling the block.
  if (parallel.size() >= 2) {
    unsigned y = parallel[parallel.size() - 2];
    int64_t threadsY = std::min<int64_t>(kMaxThreadsPerBlock / threadsX,
                                         powerOf2AtLeast(ranges[y]));
    config.threadTiles[y] = 1;
    config.blockTiles[y] = threadsY;
  }
  // One more loop out: one block per element.
  if (parallel.size() >= 3)
    config.blockTiles[parallel[parallel.size() - 3]] = 1;
  // Reductions: sequential in each thread, a vector at a time innermost.
  for (unsigned d = 0; d < n; ++d)
    if (iters[d] == utils::IteratorType::reduction)
      config.reductionTiles[d] = 1;
  for (int d = n - 1; d >= 0; --d)
    if (iters[d] == utils::IteratorType::reduction) {
      config.reductionTiles[d] = std::min<int64_t>(vec, ranges[d]);
      break;
    }
  return config;
}
