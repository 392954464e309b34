//===- CPUKernelConfig.cpp - per-kernel CPU strategy -----------*- C++ -*-===//
//
// Heuristics, written down so they can be measured and changed in one place:
// - convolutions with one input and one output channel loop (NHWC/HWCF and
//   the like): the packed strategy as an implicit GEMM, workgroups of one
//   image x a band of output rows x up to 256 output channels, band and
//   channels from a cost model (choosePackedConv);
// - large f32/f64 contractions whose result is the stored value: packed
//   panels (tessel-cpu-packed-matmul): workgroups own blocks of C of all
//   rows x 256 columns, the larger of the two halved until there are >= 128
//   workgroups; B packed per workgroup in K blocks of 256, A in blocks of
//   16 MR rows x 256 inside it; MR x NR register tiles (8 x 2 vectors with
//   32 vector registers, 6 x 2 with 16);
// - other contractions (matmul-like): 8 x (2 vectors) register tiles of the M and N
//   loops with a K step of up to 8, inside 64 x 256 workgroup tiles, with K
//   walked in blocks of 256 around the register tiles;
// - matmul epilogues (fuse-epilogues dispatches): workgroups as the
//   contraction's (packed or register tiles), which computes its C block
//   whole before the epilogue runs on it in vectors;
// - everything else: one vector along the innermost parallel loop, and
//   workgroups of about 64K iterations, split from the outermost loop in.
// At most three loops are split across workgroups (x, y, z).
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/CPU/CPUKernelConfig.h"

#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Codegen/Primitives/PrimitiveTiling.h"
#include "tessel/Dispatch/RowGroups.h"

#include "llvm/Support/CommandLine.h"

#include <algorithm>

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
int64_t ceilDiv(int64_t v, int64_t m) { return (v + m - 1) / m; }

constexpr int64_t kPackedMinK = 128;

// Tuning knobs of the packed strategy (hidden; for sweeps on a machine, see
// bench/cpu/README.md). The defaults are the measured choice.
llvm::cl::opt<bool> clPacked("tessel-cpu-packed-panels",
                             llvm::cl::desc("Packed-panel CPU contractions"),
                             llvm::cl::init(true), llvm::cl::Hidden);
llvm::cl::opt<int64_t> clPackedKC("tessel-cpu-packed-kc",
                                  llvm::cl::desc("K block of packed matmuls"),
                                  llvm::cl::init(256), llvm::cl::Hidden);
llvm::cl::opt<int64_t>
    clPackedNC("tessel-cpu-packed-nc",
               llvm::cl::desc("Largest N block of a packed-matmul workgroup"),
               llvm::cl::init(256), llvm::cl::Hidden);
llvm::cl::opt<int64_t> clPackedMCRows(
    "tessel-cpu-packed-mc-groups",
    llvm::cl::desc("Rows of A packed at a time (MC), in MR rows"),
    llvm::cl::init(16), llvm::cl::Hidden);
llvm::cl::opt<int64_t> clPackedWorkgroupRows(
    "tessel-cpu-packed-workgroup-rows",
    llvm::cl::desc("Most rows of C per packed-matmul workgroup (0: as many "
                   "as the workgroup balance allows; each workgroup packs "
                   "its own B block, so fewer, taller workgroups pack B "
                   "fewer times)"),
    llvm::cl::init(0), llvm::cl::Hidden);
llvm::cl::opt<int64_t>
    clPackedMR("tessel-cpu-packed-mr",
               llvm::cl::desc("Register tile rows (0: 8 with 32 vector "
                              "registers, 6 with 16)"),
               llvm::cl::init(0), llvm::cl::Hidden);
llvm::cl::opt<int64_t>
    clPackedNRVectors("tessel-cpu-packed-nr-vectors",
                      llvm::cl::desc("Register tile columns, in vectors"),
                      llvm::cl::init(2), llvm::cl::Hidden);
llvm::cl::opt<int64_t> clPackedThreads(
    "tessel-cpu-packed-threads",
    llvm::cl::desc("Threads that packed convolutions balance their "
                   "workgroups for (the cost model of choosePackedConv)"),
    llvm::cl::init(16), llvm::cl::Hidden);
llvm::cl::opt<int64_t> clPackedMinWorkgroups(
    "tessel-cpu-packed-min-workgroups",
    llvm::cl::desc("Blocks are halved until there are this many workgroups"),
    llvm::cl::init(128), llvm::cl::Hidden);

/// Whether `root` ends a fused row chain (tessel-form-dispatches{fuse-rows}:
/// softmax, layernorm): an elementwise op over the space [P..., N] of a row
/// reduction in the same kernel (RowGroups.h).
bool isRowChainRoot(func::FuncOp kernel, linalg::LinalgOp root,
                    ArrayRef<int64_t> ranges) {
  if (root.getNumReductionLoops() != 0)
    return false;
  bool found = false;
  kernel.walk([&](linalg::GenericOp g) {
    if (g.getOperation() == root.getOperation())
      return;
    if (std::optional<RowSpace> space = rowReductionSpace(g)) {
      SmallVector<int64_t> full(space->rows);
      full.push_back(space->length);
      found |= ArrayRef<int64_t>(full) == ranges;
    }
  });
  return found;
}

/// The contraction whose result `root` (an elementwise op, the last of a
/// matmul epilogue: tessel-form-dispatches{fuse-epilogues}) reads element
/// for element, directly or through other elementwise ops of the kernel;
/// null if there is none.
linalg::LinalgOp epilogueContraction(linalg::LinalgOp root) {
  if (root.getNumReductionLoops() != 0 || root.getNumDpsInits() != 1)
    return {};
  SmallVector<linalg::LinalgOp> worklist = {root};
  while (!worklist.empty()) {
    linalg::LinalgOp op = worklist.pop_back_val();
    for (OpOperand *in : op.getDpsInputOperands()) {
      auto producer = in->get().getDefiningOp<linalg::LinalgOp>();
      if (!producer || !op.getMatchingIndexingMap(in).isIdentity())
        continue;
      if (linalg::isaContractionOpInterface(producer))
        return producer;
      if (producer.getNumReductionLoops() == 0 &&
          producer.getNumLoops() == root.getNumLoops())
        worklist.push_back(producer);
    }
  }
  return {};
}

/// The element type shared by `root`'s operands and result if the packed
/// strategy handles it (f32, f64), else null with the reason in `why`.
Type packedElementType(linalg::LinalgOp root, std::string &why) {
  if (!clPacked) {
    why = "disabled (--tessel-cpu-packed-panels=false)";
    return {};
  }
  Type type = getElementTypeOrSelf(root.getDpsInits()[0].getType());
  if (!type.isF32() && !type.isF64()) {
    why = "element type is not f32 or f64";
    return {};
  }
  for (OpOperand &operand : root->getOpOperands())
    if (getElementTypeOrSelf(operand.get().getType()) != type) {
      why = "operands and result differ in element type";
      return {};
    }
  return type;
}

/// Register tile and K block for vectors of `vectorBits` of `type`.
CPUPackedMatmulParams packedTile(Type type, int64_t vectorBits) {
  CPUPackedMatmulParams p;
  p.lanes = vectorBits / type.getIntOrFloatBitWidth();
  // Accumulators + B vectors + a broadcast fit the register file: 32
  // vector registers with AVX-512, 16 otherwise.
  p.mr = clPackedMR ? clPackedMR : (vectorBits >= 512 ? 8 : 6);
  p.nr = clPackedNRVectors * p.lanes;
  p.kc = roundUpTo(clPackedKC, p.lanes);
  return p;
}

/// Cost of copying one element into a pack buffer, in FMAs of the register
/// tile: a pack moves ~4 elements a cycle from L2/L3 where the register
/// tile retires 32 FMAs (two 16-lane FMA ports).
constexpr int64_t kPackCostInFMAs = 8;
/// Most rows of C (output pixels) per packed-convolution workgroup: the A
/// pack buffer (rows x KC) stays within 512 KiB of L2.
constexpr int64_t kMaxPackedConvRows = 512;

/// A convolution (NHWC-like: one input and one output channel loop, no
/// depth loop) as an implicit GEMM on packed panels: rows are output pixels,
/// workgroups one image x a band of t output rows x NC output channels.
/// t and NC come from a cost model, per thread of `clPackedThreads`:
/// rounds of workgroups x (the register tiles' FMAs, MR-padded rows, + the
/// packs: B's K x NC and A's rows x K, each element kPackCostInFMAs). Small
/// workgroups repack B for few rows (a 14x14 image row is 14 pixels: B
/// packed per 14 rows costs as much as 1/3 of the FMAs); large ones leave
/// threads idle. Sets `workgroupTiles` (per loop) on success.
std::optional<CPUPackedMatmulParams>
choosePackedConv(linalg::LinalgOp root, ArrayRef<int64_t> ranges,
                 int64_t vectorBits, SmallVector<int64_t> &workgroupTiles,
                 std::string &why) {
  Type type = packedElementType(root, why);
  if (!type)
    return std::nullopt;
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(root);
  if (failed(dims) || !dims->depth.empty() ||
      dims->outputChannel.size() != 1 || dims->inputChannel.size() != 1 ||
      dims->batch.size() > 1 || dims->outputImage.empty()) {
    why = "not a convolution with one input and one output channel loop";
    return std::nullopt;
  }
  if (ShapedType::isDynamicShape(ranges)) {
    why = "dynamic loop ranges";
    return std::nullopt;
  }
  CPUPackedMatmulParams p = packedTile(type, vectorBits);
  int64_t f = ranges[dims->outputChannel[0]];
  int64_t c = ranges[dims->inputChannel[0]];
  p.kc = std::min(p.kc, roundUpTo(c, p.lanes));
  unsigned band = dims->outputImage[0];
  int64_t pixelsPerRow = 1;
  for (unsigned d : ArrayRef(dims->outputImage).drop_front())
    pixelsPerRow *= ranges[d];
  int64_t images = dims->batch.empty() ? 1 : ranges[dims->batch[0]];
  int64_t rowsTotal = ranges[band];
  int64_t threads = std::max<int64_t>(1, clPackedThreads);
  int64_t bestT = 1, bestNC = p.nr, bestCost = -1, bestWorkgroups = 0;
  for (int64_t nc = std::min(roundUpTo(clPackedNC, p.nr), roundUpTo(f, p.nr));
       nc >= p.nr; nc = nc > p.nr ? roundUpTo(nc / 2, p.nr) : 0) {
    for (int64_t t = 1; t <= rowsTotal; ++t) {
      int64_t rows = t * pixelsPerRow;
      if (rows > kMaxPackedConvRows && t > 1)
        break;
      int64_t workgroups = images * ceilDiv(rowsTotal, t) * ceilDiv(f, nc);
      int64_t cost = ceilDiv(workgroups, threads) *
                     (roundUpTo(rows, p.mr) * nc +
                      kPackCostInFMAs * (nc + rows));
      if (bestCost < 0 || cost < bestCost ||
          (cost == bestCost && workgroups > bestWorkgroups)) {
        bestT = t;
        bestNC = nc;
        bestCost = cost;
        bestWorkgroups = workgroups;
      }
    }
  }
  for (unsigned d : dims->batch)
    workgroupTiles[d] = 1;
  workgroupTiles[band] = bestT;
  workgroupTiles[dims->outputChannel[0]] = bestNC;
  p.mc = bestT * pixelsPerRow;
  p.nc = std::min(bestNC, f);
  return p;
}

/// The packed-panel strategy for contraction `mm` (one M, N and K loop, at
/// most one batch loop), or the reason it does not apply. On success sets
/// the workgroup tiles of its batch, M and N loops at `tileOf(loop)` in
/// `workgroupTiles` (the kernel root's loops) and returns MC/NC clamped to
/// the problem.
std::optional<CPUPackedMatmulParams>
choosePacked(linalg::LinalgOp mm, int64_t vectorBits,
             function_ref<unsigned(unsigned)> tileOf,
             SmallVector<int64_t> &workgroupTiles, std::string &why) {
  FailureOr<linalg::ContractionDimensions> found =
      linalg::inferContractionDims(mm);
  if (failed(found) || found->m.size() != 1 || found->n.size() != 1 ||
      found->k.size() != 1) {
    why = "not a contraction with one M, N and K loop";
    return std::nullopt;
  }
  const linalg::ContractionDimensions &dims = *found;
  SmallVector<int64_t> ranges = mm.getStaticLoopRanges();
  Type type = packedElementType(mm, why);
  if (!type)
    return std::nullopt;
  for (AffineMap map : mm.getIndexingMapsArray())
    if (!map.isProjectedPermutation()) {
      why = "an indexing map is not a projected permutation";
      return std::nullopt;
    }
  if (dims.batch.size() > 1) {
    why = "more than one batch loop";
    return std::nullopt;
  }
  if (ShapedType::isDynamicShape(ranges)) {
    why = "dynamic loop ranges";
    return std::nullopt;
  }
  CPUPackedMatmulParams p = packedTile(type, vectorBits);
  int64_t m = ranges[dims.m[0]], n = ranges[dims.n[0]], k = ranges[dims.k[0]];
  if (k < kPackedMinK || m < 2 * p.mr || n < p.nr) {
    why = "too small to amortize packing (K < 128, M < 2 MR or N < NR)";
    return std::nullopt;
  }
  int64_t batch = dims.batch.empty() ? 1 : ranges[dims.batch[0]];
  // Workgroup rows (mw): each workgroup packs B's blocks for its own rows,
  // so B is packed M / mw times; start from all of M and halve the larger
  // block until there are enough workgroups to balance 16+ threads. A is
  // packed MC rows at a time inside the workgroup.
  int64_t mw = roundUpTo(m, p.mr);
  if (clPackedWorkgroupRows > 0)
    mw = std::min(mw, roundUpTo(clPackedWorkgroupRows, p.mr));
  p.nc = std::min(roundUpTo(clPackedNC, p.nr), roundUpTo(n, p.nr));
  while (batch * ceilDiv(m, mw) * ceilDiv(n, p.nc) < clPackedMinWorkgroups) {
    bool canM = mw >= 4 * p.mr, canN = p.nc >= 2 * p.nr;
    if (canM && (mw >= p.nc || !canN))
      mw = roundUpTo(mw / 2, p.mr);
    else if (canN)
      p.nc = roundUpTo(p.nc / 2, p.nr);
    else
      break;
  }
  for (unsigned b : dims.batch)
    workgroupTiles[tileOf(b)] = 1;
  workgroupTiles[tileOf(dims.m[0])] = mw;
  workgroupTiles[tileOf(dims.n[0])] = p.nc;
  p.mc = std::min({clPackedMCRows * p.mr, mw, m});
  p.nc = std::min(p.nc, n);
  return p;
}


/// Register tiles of contraction `op` (one M, N and K loop, any batch
/// loops) in its own loops: 8 x 2 vectors of M x N, K in steps of up to 8
/// and blocks of kCacheBlockK; workgroups of 64 x 256 of M x N, set in
/// `workgroupTiles` at `tileOf(loop)`. Null if `op` has several M, N or K
/// loops.
std::optional<CPUContractionTiles>
registerTiles(linalg::LinalgOp op, int64_t lanes,
              function_ref<unsigned(unsigned)> tileOf,
              SmallVector<int64_t> &workgroupTiles) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  CPUContractionTiles t;
  t.cache.assign(ranges.size(), 0);
  t.vector.assign(ranges.size(), 0);
  t.reduction.assign(ranges.size(), 0);
  for (unsigned b : dims->batch) {
    t.vector[b] = 1;
    workgroupTiles[tileOf(b)] = 1;
  }
  t.vector[m] = std::min<int64_t>(8, ranges[m]);
  t.vector[n] = std::min<int64_t>(2 * lanes, ranges[n]);
  t.reduction[k] = fullStep(ranges[k], 8);
  // K blocks keep a (block x register-tile-N) panel of B in L1 while all
  // register tiles of the workgroup use it.
  if (ranges[k] > 2 * kCacheBlockK)
    t.cache[k] = kCacheBlockK;
  workgroupTiles[tileOf(m)] = std::min(ranges[m], roundUpTo(64, t.vector[m]));
  workgroupTiles[tileOf(n)] = std::min(ranges[n], roundUpTo(256, t.vector[n]));
  return t;
}

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
  linalg::LinalgOp mm = epilogueContraction(root);
  std::optional<CPUContractionTiles> mmTiles;
  if (mm) {
    // A matmul epilogue (bias, activation): each workgroup computes its C
    // block whole (packed, else in register tiles), then the epilogue on it
    // in vectors; workgroup tiles on the epilogue's loops, which are C's
    // dimensions (an identity read).
    AffineMap cMap = mm.getMatchingIndexingMap(mm.getDpsInitOperand(0));
    auto dimOfC = [&](unsigned loop) {
      return *cMap.getResultPosition(getAffineDimExpr(loop, mm.getContext()));
    };
    config.packed = choosePacked(mm, vectorBits, dimOfC,
                                 config.workgroupTiles, config.packedReason);
    if (!config.packed)
      mmTiles = registerTiles(
          mm, std::max<int64_t>(1, vectorBits / widestElementBits(mm)),
          dimOfC, config.workgroupTiles);
    if (config.packed || mmTiles) {
      config.epilogueOf = mm;
      config.contractionTiles = mmTiles;
      // The epilogue itself: one vector along C's last dimension.
      for (unsigned d = 0; d < n; ++d)
        config.vectorTiles[d] = 1;
      config.vectorTiles[n - 1] = std::min<int64_t>(ranges[n - 1], lanes);
    }
  } else if (linalg::isaContractionOpInterface(root)) {
    config.packed = choosePacked(
        root, vectorBits, [](unsigned loop) { return loop; },
        config.workgroupTiles, config.packedReason);
  } else if (linalg::isaConvolutionOpInterface(root)) {
    config.packed = choosePackedConv(root, ranges, vectorBits,
                                     config.workgroupTiles,
                                     config.packedReason);
  }
  if (config.packed || config.epilogueOf) {
    // Workgroup tiles and the contraction's (set above); the packed loops
    // come later.
  } else if (std::optional<CPUContractionTiles> t =
                 succeeded(contraction)
                     ? registerTiles(
                           root, lanes, [](unsigned loop) { return loop; },
                           config.workgroupTiles)
                     : std::nullopt) {
    config.cacheTiles = t->cache;
    config.vectorTiles = t->vector;
    config.reductionTiles = t->reduction;
  } else {
    // One vector along the innermost parallel loop and, for reductions, along
    // the innermost reduction loop; unit tiles elsewhere. A fused row chain
    // instead takes whole rows: one row per register tile, so that each
    // row reduction it fuses runs once per row, every op of the row one
    // vector of N (<= kMaxFusedRowLength elements).
    bool rowChain = isRowChainRoot(kernel, root, ranges);
    config.rowChain = rowChain;
    config.rowReductionLanes = lanes;
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
          rowChain ? 0 : std::min<int64_t>(ranges[innermostParallel], lanes);
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
      if (!isParallel(d) || (rowChain && int(d) == innermostParallel))
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
