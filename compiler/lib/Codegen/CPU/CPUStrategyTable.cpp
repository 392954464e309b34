//===- CPUStrategyTable.cpp - the cpu target's strategies ------*- C++ -*-===//
//
// The strategies, in the order they are asked, and their cost models
// (written down so they can be measured and changed in one place):
// - flash_attention: a tessel.attention the cpu loop nest takes;
// - primitive_tiles: scan, sort, ... split into workgroups of ~64K element
//   steps (PrimitiveTiling.h);
// - padding_copy: an insert_slice into a fill (a convolution's padded
//   input), one workgroup per index of the outer dimensions until there are
//   64 (CPUPaddingCopy.h);
// - packed_matmul: f32/f64 contractions (K >= 128) and convolutions with
//   one input and one output channel loop (NHWC/HWCF and the like, as an
//   implicit GEMM), alone or under an elementwise epilogue, whose result is
//   the stored value: packed panels (tessel-cpu-packed-matmul). Matmuls:
//   workgroups own blocks of C of all rows x 256 columns, the larger of the
//   two halved until there are >= 128 workgroups; B packed per workgroup in
//   K blocks of 256, A in blocks of 16 MR rows; MR x NR register tiles (8 x
//   2 vectors with 32 vector registers, 6 x 2 with 16). Convolutions:
//   workgroups of one image x a band of output rows x up to 256 output
//   channels, band and channels from a cost model over the target's cores
//   (choosePackedConv);
// - matmul_epilogue: other contractions under an elementwise epilogue
//   (fuse-epilogues): each workgroup computes its C block whole in register
//   tiles, then the epilogue on it in vectors;
// - row_fusion: the end of a fused row chain (softmax, layernorm): whole
//   rows per register tile, row reductions split into vector-wide partial
//   sums;
// - register_tiles: other contractions in 8 x (2 vectors) register tiles of
//   M and N with a K step of up to 8, inside 64 x 256 workgroup tiles, K
//   walked in blocks of 256 around the register tiles; everything else one
//   vector along the innermost parallel loop, and workgroups of about 64K
//   iterations, split from the outermost loop in;
// - serial: one workgroup, untiled (e.g. insert_slice chains).
// At most three loops are split across workgroups (x, y, z).
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/CPU/CPUStrategyTable.h"

#include "tessel/Codegen/CPU/CPUFlashAttention.h"
#include "tessel/Codegen/CPU/CPUPaddingCopy.h"
#include "tessel/Codegen/Common/AttentionKernel.h"
#include "tessel/Codegen/Common/DynamicExtents.h"
#include "tessel/Codegen/Common/TileAndVectorize.h"
#include "tessel/Codegen/Primitives/PrimitiveTiling.h"
#include "tessel/Dispatch/RowGroups.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kWorkgroupIterationBudget = 64 * 1024;
constexpr int64_t kMaxWorkgroupLoops = 3;
constexpr int64_t kCacheBlockK = 256;
constexpr int64_t kPackedMinK = 128;

/// Largest divisor of `n` among {8, 4, 2, 1}, so that K tiles are full.
int64_t fullStep(int64_t n, int64_t maxStep) {
  for (int64_t s = maxStep; s > 1; s /= 2)
    if (n % s == 0)
      return s;
  return 1;
}

int64_t roundUpTo(int64_t v, int64_t m) { return (v + m - 1) / m * m; }
int64_t ceilDiv(int64_t v, int64_t m) { return (v + m - 1) / m; }

/// The strategy's answer, or failure with `why` ("" when the kernel has
/// nothing the strategy applies to). `given` holds the parameters a user
/// forced, or is null.
using TakeFn = FailureOr<StrategyChoice> (*)(func::FuncOp,
                                             const CPUStrategyOptions &,
                                             StrategyAttr given,
                                             std::string &why);

struct Entry {
  StrategyKind kind;
  TakeFn take;
};

/// Loops not split across workgroups run whole in each workgroup; only the
/// outermost three split loops map to workgroup ids.
void limitWorkgroupLoops(SmallVector<int64_t> &tiles,
                         ArrayRef<int64_t> ranges) {
  int64_t split = 0;
  for (unsigned d = 0; d < tiles.size(); ++d)
    if (tiles[d] >= ranges[d] ||
        (tiles[d] != 0 && split++ >= kMaxWorkgroupLoops))
      tiles[d] = 0;
}

/// Checks that `tiles` (a parameter named `param`) has one entry per loop
/// of an op with `loops` loops.
LogicalResult checkLoops(StringRef param, ArrayRef<int64_t> tiles,
                         unsigned loops, std::string &why) {
  if (tiles.size() == loops)
    return success();
  why = llvm::formatv("'{0}' gives tiles for {1} loops, the op has {2}", param,
                      tiles.size(), loops)
            .str();
  return failure();
}

std::string opName(Operation *op) {
  return op->getName().getStringRef().str();
}

//===----------------------------------------------------------------------===//
// Attention, primitives, padding copies
//===----------------------------------------------------------------------===//

FailureOr<StrategyChoice> takeFlashAttention(func::FuncOp kernel,
                                             const CPUStrategyOptions &,
                                             StrategyAttr, std::string &why) {
  AttentionOp op = findAttentionRoot(kernel);
  if (!op || !canUseCPUFlashAttention(op, why))
    return failure();
  return StrategyChoice{
      StrategyAttr::get(kernel.getContext(), StrategyKind::FlashAttention), op,
      "flash attention (the cpu loop nest: per query row block, scores, "
      "online softmax and the value product in vectors)"};
}

FailureOr<StrategyChoice> takePrimitiveTiles(func::FuncOp kernel,
                                             const CPUStrategyOptions &,
                                             StrategyAttr given,
                                             std::string &why) {
  Operation *primitive = findPrimitiveRoot(kernel);
  if (!primitive)
    return failure();
  PrimitiveTiles tiles = getCPUPrimitiveTiles(primitive);
  if (given) {
    if (!given.getThread().empty()) {
      why = "'thread' tiles are for cuda";
      return failure();
    }
    if (failed(checkLoops("workgroup", given.getWorkgroup(),
                          tiles.outer.size(), why)))
      return failure();
    return StrategyChoice{given, primitive, tiles.strategy};
  }
  return StrategyChoice{
      StrategyAttr::get(kernel.getContext(), StrategyKind::PrimitiveTiles,
                        tiles.outer, {}, {}, {}, {}, {}, {}, 0, 0),
      primitive, tiles.strategy};
}

FailureOr<StrategyChoice> takePaddingCopy(func::FuncOp kernel,
                                          const CPUStrategyOptions &,
                                          StrategyAttr given,
                                          std::string &why) {
  std::string ignored;
  if (findTileableRoot(kernel, ignored))
    return failure();
  tensor::InsertSliceOp insert = findPaddingCopy(kernel);
  if (!insert)
    return failure();
  std::optional<SmallVector<int64_t>> tiles;
  if (given) {
    ArrayRef<int64_t> w = given.getWorkgroup();
    if (failed(checkLoops("workgroup", w, insert.getType().getRank(), why)))
      return failure();
    if (llvm::any_of(w, [](int64_t t) { return t > 1; }) ||
        llvm::count(w, 1) == 0) {
      why = "the padding copy's workgroups are one index (1) of some "
            "dimensions, whole (0) along the rest";
      return failure();
    }
    tiles = SmallVector<int64_t>(w);
  } else {
    tiles = choosePaddingCopyTiles(insert);
    if (!tiles) {
      why = "fewer than 2 workgroups";
      return failure();
    }
  }
  return StrategyChoice{
      StrategyAttr::get(kernel.getContext(), StrategyKind::PaddingCopy,
                        *tiles, {}, {}, {}, {}, {}, {}, 0, 0),
      insert,
      "padding copy (each workgroup fills its block and copies the source "
      "rows in it)"};
}

//===----------------------------------------------------------------------===//
// Packed panels
//===----------------------------------------------------------------------===//

/// Whether `root` ends a fused row chain (tessel-form-dispatches{fuse-rows}:
/// softmax, layernorm): an elementwise op over the space [P..., N] of a row
/// reduction in the same kernel (RowGroups.h).
bool isRowChainRoot(func::FuncOp kernel, linalg::LinalgOp root) {
  if (root.getNumReductionLoops() != 0)
    return false;
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  bool found = false;
  kernel.walk([&](linalg::GenericOp g) {
    if (g.getOperation() == root.getOperation())
      return;
    if (std::optional<RowSpace> space = rowReductionSpace(g)) {
      SmallVector<int64_t> full(space->rows);
      full.push_back(space->length);
      found |= ArrayRef<int64_t>(full) == ArrayRef<int64_t>(ranges);
    }
  });
  return found;
}

/// The element type shared by `root`'s operands and result if the packed
/// strategy handles it (f32, f64), else null with the reason in `why`.
Type packedElementType(linalg::LinalgOp root, std::string &why) {
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
CPUPackedMatmulParams packedTile(Type type, int64_t vectorBits,
                                 const CPUPackedKnobs &knobs) {
  CPUPackedMatmulParams p;
  p.lanes = vectorBits / type.getIntOrFloatBitWidth();
  // Accumulators + B vectors + a broadcast fit the register file: 32
  // vector registers with AVX-512, 16 otherwise.
  p.mr = knobs.mr ? knobs.mr : (vectorBits >= 512 ? 8 : 6);
  p.nr = knobs.nrVectors * p.lanes;
  p.kc = roundUpTo(knobs.kc, p.lanes);
  return p;
}

/// Cost of copying one element into a pack buffer, in FMAs of the register
/// tile: a pack moves ~4 elements a cycle from L2/L3 where the register
/// tile retires 32 FMAs (two 16-lane FMA ports).
constexpr int64_t kPackCostInFMAs = 8;
/// Most rows of C (output pixels) per packed-convolution workgroup: the A
/// pack buffer (rows x KC) stays within 512 KiB of L2.
constexpr int64_t kMaxPackedConvRows = 512;

/// The loops of a packed contraction or convolution: the N loop (its
/// output channel) in the op's own loops.
struct PackedShape {
  unsigned nLoop = 0;
};

/// A convolution (NHWC-like: one input and one output channel loop, no
/// depth loop) as an implicit GEMM on packed panels: rows are output pixels,
/// workgroups one image x a band of t output rows x NC output channels.
/// t and NC come from a cost model, per thread of the target's cores:
/// rounds of workgroups x (the register tiles' FMAs, MR-padded rows, + the
/// packs: B's K x NC and A's rows x K, each element kPackCostInFMAs). Small
/// workgroups repack B for few rows (a 14x14 image row is 14 pixels: B
/// packed per 14 rows costs as much as 1/3 of the FMAs); large ones leave
/// threads idle. Sets `workgroupTiles` (per loop) on success.
std::optional<CPUPackedMatmulParams>
choosePackedConv(linalg::LinalgOp root, const CPUStrategyOptions &options,
                 SmallVector<int64_t> &workgroupTiles, PackedShape &shape,
                 std::string &why) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(root);
  if (failed(dims) || !dims->depth.empty() ||
      dims->outputChannel.size() != 1 || dims->inputChannel.size() != 1 ||
      dims->batch.size() > 1 || dims->outputImage.empty()) {
    why = "not a convolution with one input and one output channel loop";
    return std::nullopt;
  }
  Type type = packedElementType(root, why);
  if (!type)
    return std::nullopt;
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(ranges)) {
    why = "dynamic loop ranges";
    return std::nullopt;
  }
  const CPUPackedKnobs &knobs = options.packed;
  CPUPackedMatmulParams p =
      packedTile(type, options.target.getVectorBits(), knobs);
  int64_t f = ranges[dims->outputChannel[0]];
  int64_t c = ranges[dims->inputChannel[0]];
  p.kc = std::min(p.kc, roundUpTo(c, p.lanes));
  unsigned band = dims->outputImage[0];
  int64_t pixelsPerRow = 1;
  for (unsigned d : ArrayRef(dims->outputImage).drop_front())
    pixelsPerRow *= ranges[d];
  int64_t images = dims->batch.empty() ? 1 : ranges[dims->batch[0]];
  int64_t rowsTotal = ranges[band];
  int64_t threads = options.target.getCores();
  int64_t bestT = 1, bestNC = p.nr, bestCost = -1, bestWorkgroups = 0;
  for (int64_t nc = std::min(roundUpTo(knobs.nc, p.nr), roundUpTo(f, p.nr));
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
  shape.nLoop = dims->outputChannel[0];
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
choosePacked(linalg::LinalgOp mm, const CPUStrategyOptions &options,
             function_ref<unsigned(unsigned)> tileOf,
             SmallVector<int64_t> &workgroupTiles, PackedShape &shape,
             std::string &why) {
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
  const CPUPackedKnobs &knobs = options.packed;
  CPUPackedMatmulParams p =
      packedTile(type, options.target.getVectorBits(), knobs);
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
  p.nc = std::min(roundUpTo(knobs.nc, p.nr), roundUpTo(n, p.nr));
  while (batch * ceilDiv(m, mw) * ceilDiv(n, p.nc) < knobs.minWorkgroups) {
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
  shape.nLoop = tileOf(dims.n[0]);
  p.mc = std::min({knobs.mcGroups * p.mr, mw, m});
  p.nc = std::min(p.nc, n);
  return p;
}

/// `root`'s contraction: itself, or the one its epilogue reads (then
/// `dimOfC` maps the contraction's loops to `root`'s).
linalg::LinalgOp packedContraction(linalg::LinalgOp root,
                                   std::function<unsigned(unsigned)> &tileOf) {
  tileOf = [](unsigned loop) { return loop; };
  if (linalg::isaContractionOpInterface(root) ||
      linalg::isaConvolutionOpInterface(root))
    return root;
  linalg::LinalgOp mm = getEpilogueContraction(root);
  if (!mm)
    return {};
  AffineMap cMap = mm.getMatchingIndexingMap(mm.getDpsInitOperand(0));
  tileOf = [cMap](unsigned loop) {
    return *cMap.getResultPosition(
        getAffineDimExpr(loop, cMap.getContext()));
  };
  return mm;
}

std::string describePacked(ArrayRef<int64_t> panel, bool epilogue,
                           bool convolution) {
  return llvm::formatv("packed panels{0}{1} (MR x NR register tiles {2}x{3}, "
                       "K blocks of {4}, A packed {5} rows at a time, N "
                       "blocks of {6})",
                       convolution ? " as an implicit GEMM" : "",
                       epilogue ? " with the epilogue in vectors" : "",
                       panel[0], panel[1], panel[2], panel[3], panel[4])
      .str();
}

/// Checks the parameters a user gave for the packed strategy of `root`.
LogicalResult checkPacked(StrategyAttr given, linalg::LinalgOp root,
                          linalg::LinalgOp mm, unsigned nLoop,
                          int64_t vectorBits, std::string &why) {
  if (failed(checkLoops("workgroup", given.getWorkgroup(), root.getNumLoops(),
                        why)))
    return failure();
  ArrayRef<int64_t> panel = given.getPanel();
  int64_t lanes = vectorBits / widestElementBits(mm);
  if (panel[1] % lanes != 0) {
    why = llvm::formatv("NR {0} is not a multiple of the {1} lanes of a "
                        "vector",
                        panel[1], lanes)
              .str();
    return failure();
  }
  int64_t n = root.getStaticLoopRanges()[nLoop];
  int64_t nTile = given.getWorkgroup()[nLoop];
  if ((nTile == 0 ? n : nTile) > panel[4]) {
    why = llvm::formatv("a workgroup's {0} columns exceed NC {1} (the B "
                        "pack buffer)",
                        nTile == 0 ? n : nTile, panel[4])
              .str();
    return failure();
  }
  return success();
}

FailureOr<StrategyChoice> takePackedMatmul(func::FuncOp kernel,
                                           const CPUStrategyOptions &options,
                                           StrategyAttr given,
                                           std::string &why) {
  std::string ignored;
  linalg::LinalgOp root = findTileableRoot(kernel, ignored);
  if (!root)
    return failure();
  std::function<unsigned(unsigned)> tileOf;
  linalg::LinalgOp mm = packedContraction(root, tileOf);
  if (!mm)
    return failure();
  SmallVector<int64_t> ranges = root.getStaticLoopRanges();
  SmallVector<int64_t> workgroup(ranges.size(), 0);
  PackedShape shape;
  bool convolution = !linalg::isaContractionOpInterface(mm);
  std::optional<CPUPackedMatmulParams> p =
      convolution ? choosePackedConv(mm, options, workgroup, shape, why)
                  : choosePacked(mm, options, tileOf, workgroup, shape, why);
  if (!p)
    return failure();
  StrategyAttr strategy = given;
  if (given) {
    if (failed(checkPacked(given, root, mm, shape.nLoop,
                           options.target.getVectorBits(), why)))
      return failure();
  } else {
    limitWorkgroupLoops(workgroup, ranges);
    strategy = StrategyAttr::get(kernel.getContext(),
                                 StrategyKind::PackedMatmul, workgroup, {}, {},
                                 {}, {}, {}, {p->mr, p->nr, p->kc, p->mc, p->nc},
                                 0, 0);
  }
  return StrategyChoice{strategy, root,
                        describePacked(strategy.getPanel(), mm != root,
                                       convolution)};
}

//===----------------------------------------------------------------------===//
// Register tiles
//===----------------------------------------------------------------------===//

/// Loop tiles of a register-tiled op: workgroup tiles on the root's loops,
/// the rest on the tiled op's own.
struct RegisterTiles {
  SmallVector<int64_t> workgroup, vector, reduction, cache;
};

/// Register tiles of contraction `op` (one M, N and K loop, any batch
/// loops) in its own loops: 8 x 2 vectors of M x N, K in steps of up to 8
/// and blocks of kCacheBlockK; workgroups of 64 x 256 of M x N, set in
/// `workgroup` at `tileOf(loop)`. Null if `op` has several M, N or K loops.
std::optional<RegisterTiles>
contractionTiles(linalg::LinalgOp op, int64_t lanes,
                 function_ref<unsigned(unsigned)> tileOf,
                 SmallVector<int64_t> workgroup) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  RegisterTiles t;
  t.cache.assign(ranges.size(), 0);
  t.vector.assign(ranges.size(), 0);
  t.reduction.assign(ranges.size(), 0);
  for (unsigned b : dims->batch) {
    t.vector[b] = 1;
    workgroup[tileOf(b)] = 1;
  }
  t.vector[m] = std::min<int64_t>(8, ranges[m]);
  t.vector[n] = std::min<int64_t>(2 * lanes, ranges[n]);
  t.reduction[k] = fullStep(ranges[k], 8);
  // K blocks keep a (block x register-tile-N) panel of B in L1 while all
  // register tiles of the workgroup use it.
  if (ranges[k] > 2 * kCacheBlockK)
    t.cache[k] = kCacheBlockK;
  workgroup[tileOf(m)] = std::min(ranges[m], roundUpTo(64, t.vector[m]));
  workgroup[tileOf(n)] = std::min(ranges[n], roundUpTo(256, t.vector[n]));
  t.workgroup = std::move(workgroup);
  return t;
}

/// Tiles of any other root: one vector along the innermost parallel loop
/// and, for reductions, along the innermost reduction loop; unit tiles
/// elsewhere. A fused row chain (`rowChain`) instead takes whole rows: one
/// row per register tile, so that each row reduction it fuses runs once per
/// row, every op of the row one vector of N. Workgroups: parallel tiles
/// shrunk, outermost first, to about kWorkgroupIterationBudget iterations.
RegisterTiles elementTiles(linalg::LinalgOp root, int64_t lanes,
                           bool rowChain) {
  SmallVector<int64_t> ranges = assumedLoopRanges(root);
  unsigned n = ranges.size();
  SmallVector<utils::IteratorType> iters = root.getIteratorTypesArray();
  auto isParallel = [&](unsigned d) {
    return iters[d] == utils::IteratorType::parallel;
  };
  RegisterTiles t;
  t.vector.assign(n, 0);
  t.reduction.assign(n, 0);
  t.workgroup.assign(n, 0);
  int innermostParallel = -1, innermostReduction = -1;
  for (unsigned d = 0; d < n; ++d) {
    if (isParallel(d)) {
      t.vector[d] = 1;
      innermostParallel = d;
    } else {
      t.reduction[d] = 1;
      innermostReduction = d;
    }
  }
  if (innermostParallel >= 0)
    t.vector[innermostParallel] =
        rowChain ? 0 : std::min<int64_t>(ranges[innermostParallel], lanes);
  if (innermostReduction >= 0)
    t.reduction[innermostReduction] =
        std::min<int64_t>(ranges[innermostReduction], lanes);

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
    while (work() > kWorkgroupIterationBudget && tiles[d] > t.vector[d]) {
      int64_t half = roundUpTo((tiles[d] + 1) / 2, t.vector[d]);
      if (half >= tiles[d])
        break;
      tiles[d] = half;
    }
  }
  for (unsigned d = 0; d < n; ++d)
    if (isParallel(d))
      t.workgroup[d] = tiles[d];
  return t;
}

StrategyAttr registerStrategy(MLIRContext *ctx, StrategyKind kind,
                              RegisterTiles t, ArrayRef<int64_t> ranges) {
  limitWorkgroupLoops(t.workgroup, ranges);
  return StrategyAttr::get(ctx, kind, t.workgroup, {}, t.reduction, t.vector,
                           t.cache, {}, {}, 0, 0);
}

/// Checks loop tiles a user gave: workgroup tiles per loop of `root`, the
/// others per loop of `tiled`.
LogicalResult checkRegisterTiles(StrategyAttr given, linalg::LinalgOp root,
                                 linalg::LinalgOp tiled, std::string &why) {
  return success(
      succeeded(checkLoops("workgroup", given.getWorkgroup(),
                           root.getNumLoops(), why)) &&
      succeeded(
          checkLoops("vector", given.getVector(), tiled.getNumLoops(), why)));
}

FailureOr<StrategyChoice> takeMatmulEpilogue(func::FuncOp kernel,
                                             const CPUStrategyOptions &options,
                                             StrategyAttr given,
                                             std::string &why) {
  std::string ignored;
  linalg::LinalgOp root = findTileableRoot(kernel, ignored);
  if (!root || linalg::isaContractionOpInterface(root))
    return failure();
  linalg::LinalgOp mm = getEpilogueContraction(root);
  if (!mm)
    return failure();
  std::string description =
      "matmul epilogue (" + opName(mm) +
      " in register tiles per workgroup, then the epilogue in vectors)";
  if (given) {
    if (failed(checkRegisterTiles(given, root, mm, why)))
      return failure();
    return StrategyChoice{given, root, description};
  }
  AffineMap cMap = mm.getMatchingIndexingMap(mm.getDpsInitOperand(0));
  auto dimOfC = [&](unsigned loop) {
    return *cMap.getResultPosition(getAffineDimExpr(loop, mm.getContext()));
  };
  std::optional<RegisterTiles> t = contractionTiles(
      mm, getVectorLanes(mm, options.target.getVectorBits()), dimOfC,
      SmallVector<int64_t>(root.getNumLoops(), 0));
  if (!t) {
    why = "the contraction has several M, N or K loops";
    return failure();
  }
  return StrategyChoice{registerStrategy(kernel.getContext(),
                                         StrategyKind::MatmulEpilogue, *t,
                                         root.getStaticLoopRanges()),
                        root, description};
}

FailureOr<StrategyChoice> takeRowFusion(func::FuncOp kernel,
                                        const CPUStrategyOptions &options,
                                        StrategyAttr given, std::string &why) {
  // Dynamic rows: workgroup tiles of rows with masked edges (the row
  // length is static, RowGroups.h).
  std::string ignored;
  linalg::LinalgOp root =
      findTileableRoot(kernel, ignored, /*dynamicRanges=*/true);
  if (!root || !isRowChainRoot(kernel, root))
    return failure();
  std::string description = "row fusion (whole rows per register tile, "
                            "row reductions in vector-wide partial sums)";
  if (given) {
    if (given.getWorkgroup().empty()) {
      why = "row_fusion on cpu needs 'workgroup' and 'vector' tiles";
      return failure();
    }
    if (failed(checkRegisterTiles(given, root, root, why)))
      return failure();
    return StrategyChoice{given, root, description};
  }
  RegisterTiles t = elementTiles(
      root, getVectorLanes(root, options.target.getVectorBits()), true);
  return StrategyChoice{registerStrategy(kernel.getContext(),
                                         StrategyKind::RowFusion, t,
                                         assumedLoopRanges(root)),
                        root, description};
}

FailureOr<StrategyChoice> takeRegisterTiles(func::FuncOp kernel,
                                            const CPUStrategyOptions &options,
                                            StrategyAttr given,
                                            std::string &why) {
  // Dynamic extents: workgroup tiles and vectors with masked edges (element
  // tiles only: the contraction tiles assume static extents).
  linalg::LinalgOp root =
      findTileableRoot(kernel, why, /*dynamicRanges=*/true);
  if (!root)
    return failure();
  bool dynamic = root.hasDynamicShape();
  if (root.getNumLoops() == 0) {
    why = "the root op has no loops";
    return failure();
  }
  std::string description =
      "register tiles (" + opName(root) + " in workgroups and vectors)";
  if (given) {
    if (failed(checkRegisterTiles(given, root, root, why)))
      return failure();
    return StrategyChoice{given, root, description};
  }
  int64_t lanes = getVectorLanes(root, options.target.getVectorBits());
  std::optional<RegisterTiles> t;
  if (!dynamic && linalg::isaContractionOpInterface(root))
    t = contractionTiles(
        root, lanes, [](unsigned loop) { return loop; },
        SmallVector<int64_t>(root.getNumLoops(), 0));
  if (!t)
    t = elementTiles(root, lanes, /*rowChain=*/false);
  return StrategyChoice{registerStrategy(kernel.getContext(),
                                         StrategyKind::RegisterTiles, *t,
                                         assumedLoopRanges(root)),
                        root, description};
}

FailureOr<StrategyChoice> takeSerial(func::FuncOp kernel,
                                     const CPUStrategyOptions &, StrategyAttr,
                                     std::string &) {
  std::string why;
  findTileableRoot(kernel, why);
  return StrategyChoice{
      StrategyAttr::get(kernel.getContext(), StrategyKind::Serial), nullptr,
      why.empty() ? "one workgroup, untiled" : "one workgroup: " + why};
}

/// The table, in the order the strategies are asked.
constexpr Entry kStrategies[] = {
    {StrategyKind::FlashAttention, takeFlashAttention},
    {StrategyKind::PrimitiveTiles, takePrimitiveTiles},
    {StrategyKind::PaddingCopy, takePaddingCopy},
    {StrategyKind::PackedMatmul, takePackedMatmul},
    {StrategyKind::MatmulEpilogue, takeMatmulEpilogue},
    {StrategyKind::RowFusion, takeRowFusion},
    {StrategyKind::RegisterTiles, takeRegisterTiles},
    {StrategyKind::Serial, takeSerial},
};

} // namespace

linalg::LinalgOp mlir::tessel::getEpilogueContraction(linalg::LinalgOp root) {
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

int64_t mlir::tessel::getVectorLanes(Operation *op, int64_t vectorBits) {
  return std::max<int64_t>(1, vectorBits / widestElementBits(op));
}

FailureOr<StrategySelection>
mlir::tessel::selectCPUStrategy(func::FuncOp kernel,
                                const CPUStrategyOptions &options,
                                const ForcedStrategy *forced) {
  SmallVector<StrategyKind> kinds =
      llvm::map_to_vector(kStrategies, [](const Entry &e) { return e.kind; });
  auto take = [&](StrategyKind kind, const ForcedStrategy *given,
                  std::string &why) {
    const Entry *entry = llvm::find_if(
        kStrategies, [&](const Entry &e) { return e.kind == kind; });
    return entry->take(kernel, options,
                       given ? given->strategy : StrategyAttr(), why);
  };
  return askStrategies(kernel, kinds, "cpu", forced, take);
}

SmallVector<StrategyAttr>
mlir::tessel::enumerateCPUStrategies(func::FuncOp kernel,
                                     const CPUStrategyOptions &options) {
  FailureOr<StrategySelection> chosen = selectCPUStrategy(kernel, options);
  SmallVector<StrategyAttr> strategies = {chosen->choice.strategy};
  if (strategies.front().getKind() != StrategyKind::PackedMatmul)
    return strategies;
  for (int64_t kc : {128, 256, 384, 512})
    for (int64_t nc : {128, 256, 512})
      for (int64_t mcGroups : {8, 16, 32}) {
        CPUStrategyOptions variant = options;
        variant.packed.kc = kc;
        variant.packed.nc = nc;
        variant.packed.mcGroups = mcGroups;
        std::string why;
        FailureOr<StrategyChoice> choice =
            takePackedMatmul(kernel, variant, StrategyAttr(), why);
        if (succeeded(choice) &&
            !llvm::is_contained(strategies, choice->strategy))
          strategies.push_back(choice->strategy);
      }
  return strategies;
}
