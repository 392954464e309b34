//===- PrimitiveTiling.cpp - how primitive ops split across workers -------===//

#include "tessel/Codegen/Primitives/PrimitiveTiling.h"

#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"


using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kGPUThreadsPerBlock = 128;
constexpr int64_t kMaxMappedLoops = 3;
constexpr int64_t kCPUWorkgroupBudget = 64 * 1024;

struct Domain {
  SmallVector<int64_t> ranges;
  SmallVector<unsigned> parallel;
  int64_t sequentialWork = 1; // element steps per parallel point
};

Domain domainOf(Operation *op) {
  Domain d;
  auto tiling = cast<TilingInterface>(op);
  OpBuilder b(op->getContext());
  for (Range r : tiling.getIterationDomain(b))
    d.ranges.push_back(*getConstantIntValue(r.size));
  for (auto [i, it] : llvm::enumerate(tiling.getLoopIteratorTypes())) {
    if (it == utils::IteratorType::parallel)
      d.parallel.push_back(i);
    else
      d.sequentialWork *= std::max<int64_t>(1, d.ranges[i]);
  }
  return d;
}

std::string opName(Operation *op) {
  return op->getName().getStringRef().str();
}

/// Tiles of 0 (nothing split); with the strategy "`worker`: ... has no
/// parallel loop" when nothing can be split (else an empty strategy).
PrimitiveTiles untiled(Operation *op, const Domain &d, StringRef worker) {
  PrimitiveTiles tiles;
  tiles.outer.assign(d.ranges.size(), 0);
  tiles.inner.assign(d.ranges.size(), 0);
  if (d.parallel.empty() ||
      llvm::any_of(d.ranges, [](int64_t r) { return r == 0; }))
    tiles.strategy = (worker + opName(op) + " has no parallel loop").str();
  return tiles;
}

} // namespace

Operation *mlir::tessel::findPrimitiveRoot(func::FuncOp kernel) {
  std::string why;
  Operation *root = findStoredRoot(kernel, why);
  return root && isPrimitiveOp(root) ? root : nullptr;
}

PrimitiveTiles mlir::tessel::getGPUPrimitiveTiles(Operation *op) {
  Domain d = domainOf(op);
  PrimitiveTiles tiles = untiled(op, d, "one thread: ");
  if (!tiles.strategy.empty())
    return tiles;
  // The innermost parallel loop across the threads of a block; up to two
  // loops further out across blocks, one point each; the rest whole.
  unsigned x = d.parallel.back();
  tiles.inner[x] = 1;
  tiles.outer[x] =
      std::min<int64_t>(kGPUThreadsPerBlock, d.ranges[x]);
  int64_t mapped = 1;
  for (auto it = d.parallel.rbegin() + 1;
       it != d.parallel.rend() && mapped < kMaxMappedLoops; ++it, ++mapped)
    tiles.outer[*it] = 1;
  tiles.strategy = "element loops (" + opName(op) +
                   ": a thread per point of the parallel loops, " +
                   std::to_string(d.sequentialWork) + " steps each)";
  return tiles;
}

PrimitiveTiles mlir::tessel::getCPUPrimitiveTiles(Operation *op) {
  Domain d = domainOf(op);
  PrimitiveTiles tiles = untiled(op, d, "one workgroup: ");
  if (!tiles.strategy.empty())
    return tiles;
  // Shrink the outermost parallel loops first until a workgroup has about
  // kCPUWorkgroupBudget element steps; at most three loops are split.
  SmallVector<int64_t> t(d.ranges);
  auto work = [&] {
    int64_t w = d.sequentialWork;
    for (unsigned p : d.parallel)
      w *= t[p];
    return w;
  };
  int64_t split = 0;
  for (unsigned p : d.parallel) {
    if (work() <= kCPUWorkgroupBudget || split == kMaxMappedLoops)
      break;
    int64_t rest = work() / t[p];
    t[p] = std::max<int64_t>(
        1, std::min<int64_t>(t[p], kCPUWorkgroupBudget / std::max<int64_t>(1, rest)));
    if (t[p] < d.ranges[p]) {
      tiles.outer[p] = t[p];
      ++split;
    }
  }
  tiles.strategy = "element loops (" + opName(op) +
                   ": workgroups over the parallel loops)";
  return tiles;
}
