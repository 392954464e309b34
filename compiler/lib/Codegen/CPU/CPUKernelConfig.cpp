//===- CPUKernelConfig.cpp - per-kernel CPU strategy -----------*- C++ -*-===//
//
// Heuristics, written down so they can be measured and changed in one place:
// - contractions (matmul-like): 8 x (2 vectors) register tiles of the M and N
//   loops with a K step of up to 8, inside 64 x 256 workgroup tiles, with K
//   walked in blocks of 256 around the register tiles;
// - everything else: one vector along the innermost parallel loop, and
//   workgroups of about 64K iterations, split from the outermost loop in.
// At most three loops are split across workgroups (x, y, z).
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/CPU/CPUKernelConfig.h"

#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Codegen/Primitives/PrimitiveTiling.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kWorkgroupIterationBudget = 64 * 1024;
constexpr int64_t kMaxWorkgroupLoops = 3;
constexpr int64_t kCacheBlockK = 256;

/// Largest divisor of `n` among {8, 4, 2, 1}, so that K tiles are full.
int64_t fullStep(int64_t n, int64_t maxStep) {
  for (int64_t s = maxStep; s > 1; s /= 2)
    if (n % s == 0)
      return s;
  return 1;
}

int64_t roundUpTo(int64_t v, int64_t m) { return (v + m - 1) / m * m; }


} // namespace

CPUKernelConfig mlir::tessel::getCPUKernelConfig(func::FuncOp kernel,
                                                 int64_t vectorBits) {
  CPUKernelConfig config;
  if (Operation *primitive = findPrimitiveRoot(kernel)) {
    config.primitive = primitive;
    config.workgroupTiles = getCPUPrimitiveTiles(primitive).outer;
    return config;
  }
  linalg::LinalgOp root = findTileableRoot(kernel, config.serialReason);
  if (!root)
    return config;
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  config.root = root;
  unsigned n = ranges.size();
  SmallVector<utils::IteratorType> iters = root.getIteratorTypesArray();
  auto isParallel = [&](unsigned d) {
    return iters[d] == utils::IteratorType::parallel;
  };
  int64_t lanes = std::max<int64_t>(1, vectorBits / widestElementBits(root));

  config.vectorTiles.assign(n, 0);
  config.reductionTiles.assign(n, 0);
  config.workgroupTiles.assign(n, 0);
  config.cacheTiles.assign(n, 0);

  FailureOr<linalg::ContractionDimensions> contraction =
      linalg::isaContractionOpInterface(root)
          ? linalg::inferContractionDims(root)
          : FailureOr<linalg::ContractionDimensions>(failure());
  if (succeeded(contraction) && contraction->m.size() == 1 &&
      contraction->n.size() == 1 && contraction->k.size() == 1) {
    unsigned m = contraction->m[0], nn = contraction->n[0],
             k = contraction->k[0];
    for (unsigned b : contraction->batch) {
      config.vectorTiles[b] = 1;
      config.workgroupTiles[b] = 1;
    }
    config.vectorTiles[m] = std::min<int64_t>(8, ranges[m]);
    config.vectorTiles[nn] = std::min<int64_t>(2 * lanes, ranges[nn]);
    config.reductionTiles[k] = fullStep(ranges[k], 8);
    // K blocks keep a (block x register-tile-N) panel of B in L1 while all
    // register tiles of the workgroup use it.
    if (ranges[k] > 2 * kCacheBlockK)
      config.cacheTiles[k] = kCacheBlockK;
    config.workgroupTiles[m] =
        std::min(ranges[m], roundUpTo(64, config.vectorTiles[m]));
    config.workgroupTiles[nn] =
        std::min(ranges[nn], roundUpTo(256, config.vectorTiles[nn]));
  } else {
    // One vector along the innermost parallel loop and, for reductions, along
    // the innermost reduction loop; unit tiles elsewhere.
    int innermostParallel = -1, innermostReduction = -1;
    for (unsigned d = 0; d < n; ++d) {
      if (isParallel(d)) {
        config.vectorTiles[d] = 1;
        innermostParallel = d;
      } else {
        config.reductionTiles[d] = 1;
        innermostReduction = d;
      }
    }
    if (innermostParallel >= 0)
      config.vectorTiles[innermostParallel] =
          std::min<int64_t>(ranges[innermostParallel], lanes);
    if (innermostReduction >= 0)
      config.reductionTiles[innermostReduction] =
          std::min<int64_t>(ranges[innermostReduction], lanes);

    // Workgroups: shrink parallel tiles, outermost first, to the budget.
    int64_t reductionWork = 1;
    for (unsigned d = 0; d < n; ++d)
      if (!isParallel(d))
        reductionWork *= ranges[d];
    SmallVector<int64_t> tiles(n, 0);
    for (unsigned d = 0; d < n; ++d)
      if (isParallel(d))
        tiles[d] = ranges[d];
    auto work = [&] {
      int64_t w = reductionWork;
      for (unsigned d = 0; d < n; ++d)
        if (isParallel(d))
          w *= tiles[d];
      return w;
    };
    for (unsigned d = 0; d < n && work() > kWorkgroupIterationBudget; ++d) {
      if (!isParallel(d))
        continue;
      while (work() > kWorkgroupIterationBudget &&
             tiles[d] > config.vectorTiles[d]) {
        int64_t half = roundUpTo((tiles[d] + 1) / 2, config.vectorTiles[d]);
        if (half >= tiles[d])
          break;
        tiles[d] = half;
      }
    }
    for (unsigned d = 0; d < n; ++d)
      if (isParallel(d))
        config.workgroupTiles[d] = tiles[d];
  }
  // Loops not split across workgroups run whole in each workgroup; only the
  // outermost three split loops can map to workgroup ids.
  int64_t split = 0;
  for (unsigned d = 0; d < n; ++d) {
    if (config.workgroupTiles[d] >= ranges[d] ||
        (config.workgroupTiles[d] != 0 && split++ >= kMaxWorkgroupLoops))
      config.workgroupTiles[d] = 0;
  }
  return config;
}
