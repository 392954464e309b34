//===- GPUWarpReduction.cpp - one warp per reduced row ---------*- C++ -*-===//
//
// The GPU strategy for reductions along the innermost (contiguous) loop:
// each warp owns one output element ("row"; a full reduction is one row),
// its 32 lanes walk the reduced loop with stride 32 (coalesced loads; 128-bit
// vectors of 4 when the row length allows), and the partial results meet in a
// gpu.subgroup_reduce, which lowers to warp shuffles. Lane 0 combines the
// total with the initial value and stores it. Eight warps share a block.
//
// The kernel body is emitted directly on the binding memrefs, with the
// generic op's body cloned for the per-element work, so it needs no tiling
// and no bufferization of its own.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPUWarpReduction.h"

#include "tessel/Codegen/Common/CloneGenericBody.h"
#include "tessel/Codegen/Common/WorkgroupCount.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kWarpsPerBlock = 8;
/// Steps of the reduced loop per iteration (independent loads in flight).
constexpr int64_t kUnroll = 4;

} // namespace

std::optional<gpu::AllReduceOperation>
mlir::tessel::gpuReductionKind(Operation *combiner) {
  using K = gpu::AllReduceOperation;
  return llvm::TypeSwitch<Operation *, std::optional<K>>(combiner)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return K::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return K::MUL; })
      .Case<arith::MaxNumFOp>([](auto) { return K::MAXNUMF; })
      .Case<arith::MinNumFOp>([](auto) { return K::MINNUMF; })
      .Case<arith::MaximumFOp>([](auto) { return K::MAXIMUMF; })
      .Case<arith::MinimumFOp>([](auto) { return K::MINIMUMF; })
      .Case<arith::MaxSIOp>([](auto) { return K::MAXSI; })
      .Case<arith::MinSIOp>([](auto) { return K::MINSI; })
      .Case<arith::MaxUIOp>([](auto) { return K::MAXUI; })
      .Case<arith::MinUIOp>([](auto) { return K::MINUI; })
      .Case<arith::AndIOp>([](auto) { return K::AND; })
      .Case<arith::OrIOp>([](auto) { return K::OR; })
      .Case<arith::XOrIOp>([](auto) { return K::XOR; })
      .Default([](Operation *) { return std::nullopt; });
}

WarpPerRow mlir::tessel::beginWarpPerRow(OpBuilder &b, Location loc,
                                         ArrayRef<OpFoldResult> rowShape) {
  auto cIndex = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value warp = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value lane = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, blockId, cIndex(kWarpsPerBlock)),
      warp);
  Value rows = cIndex(1);
  for (OpFoldResult r : rowShape)
    rows = arith::MulIOp::create(b, loc, rows,
                                 getValueOrCreateConstantIndexOp(b, loc, r));
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                        rows);
  auto ifRow = scf::IfOp::create(b, loc, inRange, /*else=*/false);
  b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
  return WarpPerRow{lane, delinearizeRow(b, loc, row, rowShape)};
}

std::optional<RowExtents> mlir::tessel::rowExtents(linalg::LinalgOp op,
                                                   unsigned rowLoops) {
  RowExtents rows;
  rows.count = getAffineConstantExpr(1, op.getContext());
  for (unsigned d = 0; d < rowLoops; ++d) {
    std::optional<LoopExtent> extent = loopExtent(op, d);
    if (!extent)
      return std::nullopt;
    rows.sizes.push_back(extent->size);
    rows.count = rows.count * extent->expr;
  }
  return rows;
}

FailureOr<ReductionInit>
mlir::tessel::getReductionInit(linalg::LinalgOp reduction) {
  Value init = reduction.getDpsInits()[0];
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    auto cst = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
    if (!cst)
      return failure();
    return ReductionInit{cast<TypedAttr>(cst.getValue()), Value()};
  }
  if (auto copy = init.getDefiningOp<linalg::CopyOp>())
    if (Value mem = bindingMemRef(copy.getInputs()[0]))
      return ReductionInit{TypedAttr(), mem};
  return failure();
}

Value mlir::tessel::combineWithInit(OpBuilder &b, Location loc,
                                    Operation *combiner, Value accArg,
                                    Value total, const ReductionInit &init,
                                    ValueRange indices) {
  Value initValue =
      init.constant
          ? arith::ConstantOp::create(b, loc, init.constant).getResult()
          : memref::LoadOp::create(b, loc, init.memRef, indices).getResult();
  IRMapping mapping;
  for (Value operand : combiner->getOperands())
    mapping.map(operand, operand == accArg ? initValue : total);
  return b.clone(*combiner, mapping)->getResult(0);
}

Value mlir::tessel::workgroupBuffer(OpBuilder &b, Location loc,
                                    func::FuncOp kernel, StringRef suffix,
                                    ArrayRef<int64_t> shape,
                                    Type elementType) {
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  auto type =
      MemRefType::get(shape, elementType, MemRefLayoutAttrInterface(), space);
  std::string name = ("__tessel_smem_" + kernel.getSymName() + suffix).str();
  OpBuilder moduleBuilder(kernel);
  memref::GlobalOp::create(moduleBuilder, loc, name,
                           moduleBuilder.getStringAttr("private"), type,
                           moduleBuilder.getUnitAttr(), /*constant=*/false,
                           moduleBuilder.getI64IntegerAttr(16));
  return memref::GetGlobalOp::create(b, loc, type, name);
}

void mlir::tessel::setKernelLaunch(func::FuncOp kernel, ArrayRef<int64_t> grid,
                                   ArrayRef<int64_t> block) {
  Builder b(kernel.getContext());
  kernel->setAttr(kWorkgroupCountAttr, b.getDenseI64ArrayAttr(grid));
  kernel->setAttr(kWorkgroupSizeAttr, b.getDenseI64ArrayAttr(block));
}

void mlir::tessel::setWarpPerRowLaunch(func::FuncOp kernel, AffineExpr rows) {
  setKernelLaunch(kernel, {1, 1, 1}, {kGPUWarpSize, kWarpsPerBlock, 1});
  setWorkgroupCount(kernel,
                    {rows.ceilDiv(kWarpsPerBlock),
                     getAffineConstantExpr(1, kernel.getContext()),
                     getAffineConstantExpr(1, kernel.getContext())});
}

namespace {

struct WarpReductionPlan {
  linalg::GenericOp root;
  Operation *combiner;
  gpu::AllReduceOperation kind;
  SmallVector<Value> inputMemRefs; // per DPS input
  Value outputMemRef;              // where the result goes
  ReductionInit init;
  /// Lanes load kGPUVectorWidth32 consecutive elements of the contiguous
  /// inputs at a time (the reduced length is a multiple of it).
  bool vectorLoads = false;
  SmallVector<bool> inputIsContiguous; // per DPS input
  bufferization::MaterializeInDestinationOp store;
  std::optional<RowExtents> rows;     // the parallel loops
  std::optional<LoopExtent> reduced;  // the reduced loop
};

/// Checks that `kernel` is a single reduction generic reading bindings and
/// storing into one, reducing its last loop only, contiguously.
FailureOr<WarpReductionPlan> planWarpReduction(func::FuncOp kernel,
                                               Operation *rootOp) {
  WarpReductionPlan plan;
  auto root = dyn_cast_or_null<linalg::GenericOp>(rootOp);
  if (!root || root.getNumDpsInits() != 1 || !root.hasPureTensorSemantics())
    return failure();
  unsigned n = root.getNumLoops();
  if (n < 1 || root.getNumReductionLoops() != 1 ||
      root.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return failure();
  // Dynamic extents come from push constants: the host sizes the grid.
  plan.rows = rowExtents(root, n - 1);
  plan.reduced = loopExtent(root, n - 1);
  if (!plan.rows || !plan.reduced)
    return failure();
  auto outType = cast<RankedTensorType>(root.getResult(0).getType());
  Type elementType = outType.getElementType();
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() != 32)
    return failure();
  // The output map must be the parallel loops in order (a projection).
  MLIRContext *ctx = kernel.getContext();
  SmallVector<AffineExpr> parallelDims;
  for (unsigned d = 0; d + 1 < n; ++d)
    parallelDims.push_back(getAffineDimExpr(d, ctx));
  if (root.getIndexingMapsArray().back() !=
      AffineMap::get(n, 0, parallelDims, ctx))
    return failure();

  // Body: yield(combiner(f(inputs), acc)), acc used once.
  Block &body = root.getRegion().front();
  BlockArgument acc = body.getArguments().back();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *combiner = yield.getOperand(0).getDefiningOp();
  if (!combiner || !acc.hasOneUse() || *acc.getUsers().begin() != combiner ||
      combiner->getNumOperands() != 2)
    return failure();
  std::optional<gpu::AllReduceOperation> kind = gpuReductionKind(combiner);
  if (!kind)
    return failure();
  plan.root = root;
  plan.combiner = combiner;
  plan.kind = *kind;

  // Inputs straight from bindings; at least one read contiguously along
  // the reduced loop, or lanes would not coalesce. Vector loads need every
  // input that varies along the reduced loop to be contiguous along it.
  bool contiguous = false;
  std::optional<int64_t> reduced = getConstantIntValue(plan.reduced->size);
  plan.vectorLoads = reduced && *reduced % kGPUVectorWidth32 == 0;
  AffineExpr reducedDim = getAffineDimExpr(n - 1, ctx);
  for (OpOperand *in : root.getDpsInputOperands()) {
    Value mem = bindingMemRef(in->get());
    if (!mem)
      return failure();
    plan.inputMemRefs.push_back(mem);
    AffineMap map = root.getMatchingIndexingMap(in);
    bool last = map.getNumResults() > 0 && map.getResults().back() == reducedDim;
    contiguous |= last;
    plan.inputIsContiguous.push_back(last);
    if (!last && map.isFunctionOfDim(n - 1))
      plan.vectorLoads = false;
  }
  if (!contiguous)
    return failure();

  // Result: stored once into a binding.
  plan.store = bindingStore(root.getResult(0));
  if (!plan.store)
    return failure();
  plan.outputMemRef = plan.store.getDest();

  FailureOr<ReductionInit> init = getReductionInit(root);
  if (failed(init))
    return failure();
  plan.init = *init;
  return plan;
}

} // namespace

bool mlir::tessel::canUseWarpReduction(func::FuncOp kernel, Operation *root) {
  return succeeded(planWarpReduction(kernel, root));
}

LogicalResult mlir::tessel::emitWarpReduction(func::FuncOp kernel,
                                              Operation *rootOp) {
  FailureOr<WarpReductionPlan> maybePlan = planWarpReduction(kernel, rootOp);
  if (failed(maybePlan))
    return failure();
  WarpReductionPlan &plan = *maybePlan;
  linalg::GenericOp root = plan.root;
  unsigned n = root.getNumLoops();

  OpBuilder b(plan.store);
  Location loc = root.getLoc();
  auto cIndex = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  WarpPerRow warpRow = beginWarpPerRow(b, loc, plan.rows->sizes);
  Value lane = warpRow.lane;
  SmallVector<Value> ivs(warpRow.rowIndices);
  ivs.push_back(Value()); // the reduced loop's index, set per load

  // Each lane reduces columns lane, lane + 32, ... or, with vector loads,
  // the vectors at 4 * lane, 4 * lane + 128, ... The main loop takes
  // kUnroll such steps at a time, loads first, so that kUnroll independent
  // loads are in flight per lane; a second loop takes the remainder.
  std::optional<TypedAttr> neutral = arith::getNeutralElement(plan.combiner);
  if (!neutral)
    return failure();
  Value identity = arith::ConstantOp::create(b, loc, *neutral);
  int64_t width = plan.vectorLoads ? kGPUVectorWidth32 : 1;
  int64_t step = kGPUWarpSize * width;
  Block &body = root.getRegion().front();

  // Loads of every input at reduced index `k`: a vector for contiguous
  // inputs, else a scalar (with vector loads, a scalar input does not vary
  // along the vector).
  auto loadAt = [&](Value k) {
    ivs[n - 1] = k;
    SmallVector<Value> loaded;
    for (auto [operand, mem, isContiguous] :
         llvm::zip(root.getDpsInputOperands(), plan.inputMemRefs,
                   plan.inputIsContiguous)) {
      AffineMap map = root.getMatchingIndexingMap(operand);
      SmallVector<Value> indices;
      for (AffineExpr e : map.getResults())
        indices.push_back(affine::AffineApplyOp::create(
            b, loc, AffineMap::get(n, 0, e), ivs));
      Type elType = cast<MemRefType>(mem.getType()).getElementType();
      if (plan.vectorLoads && isContiguous) {
        auto vecType = VectorType::get({width}, elType);
        unsigned bytes = width * elType.getIntOrFloatBitWidth() / 8;
        loaded.push_back(vector::LoadOp::create(
            b, loc, vecType, mem, indices, /*nontemporal=*/false,
            llvm::MaybeAlign(bytes)));
      } else {
        loaded.push_back(memref::LoadOp::create(b, loc, mem, indices));
      }
    }
    return loaded;
  };
  // The body applied to the `width` elements loaded at `k`, in order.
  auto combineAt = [&](ArrayRef<Value> loaded, Value k, Value acc) {
    for (int64_t j = 0; j < width; ++j) {
      IRMapping mapping;
      for (auto [value, arg] : llvm::zip(loaded, body.getArguments()))
        mapping.map(arg, isa<VectorType>(value.getType())
                             ? vector::ExtractOp::create(b, loc, value, j)
                                   .getResult()
                             : value);
      mapping.map(body.getArguments().back(), acc);
      SmallVector<Value> at(ivs);
      at[n - 1] = j == 0 ? k
                         : arith::AddIOp::create(b, loc, k, cIndex(j))
                               .getResult();
      cloneGenericBody(b, body, mapping, at);
      acc = mapping.lookup(plan.combiner->getResult(0));
    }
    return acc;
  };
  // One loop from `begin` (this lane's first index) to `end`, `unroll`
  // steps per iteration.
  auto emitLoop = [&](Value begin, Value end, int64_t unroll,
                      Value acc) -> Value {
    Value from = arith::AddIOp::create(
        b, loc, begin, arith::MulIOp::create(b, loc, lane, cIndex(width)));
    auto loop = scf::ForOp::create(b, loc, from, end, cIndex(step * unroll),
                                   ValueRange{acc});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    SmallVector<Value> ks;
    SmallVector<SmallVector<Value>> loads;
    for (int64_t u = 0; u < unroll; ++u) {
      ks.push_back(u == 0 ? k
                          : arith::AddIOp::create(b, loc, k, cIndex(u * step))
                                .getResult());
      loads.push_back(loadAt(ks.back()));
    }
    Value next = loop.getRegionIterArg(0);
    for (int64_t u = 0; u < unroll; ++u)
      next = combineAt(loads[u], ks[u], next);
    scf::YieldOp::create(b, loc, next);
    return loop.getResult(0);
  };
  // With a dynamic length both loops are emitted; one of them may run no
  // iteration.
  std::optional<int64_t> staticReduced = getConstantIntValue(plan.reduced->size);
  Value reduced = getValueOrCreateConstantIndexOp(b, loc, plan.reduced->size);
  int64_t chunk = step * kUnroll;
  Value mainEnd = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, reduced, cIndex(chunk)),
      cIndex(chunk));
  Value partial = identity;
  if (!staticReduced || *staticReduced >= chunk)
    partial = emitLoop(cIndex(0), mainEnd, kUnroll, partial);
  if (!staticReduced || *staticReduced % chunk != 0)
    partial = emitLoop(mainEnd, reduced, 1, partial);
  Value total = gpu::SubgroupReduceOp::create(b, loc, partial,
                                              plan.kind, /*uniform=*/true);
  Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        lane, cIndex(0));
  auto ifLane0 = scf::IfOp::create(b, loc, isLane0, /*else=*/false);
  b.setInsertionPoint(ifLane0.thenBlock()->getTerminator());
  SmallVector<Value> outIndices(ivs.begin(), ivs.end() - 1);
  Value result = combineWithInit(
      b, loc, plan.combiner, root.getRegion().front().getArguments().back(),
      total, plan.init, outIndices);
  memref::StoreOp::create(b, loc, result, plan.outputMemRef, outIndices);

  // The tensor computation is now dead.
  plan.store.erase();
  setWarpPerRowLaunch(kernel, plan.rows->count);
  return success();
}
