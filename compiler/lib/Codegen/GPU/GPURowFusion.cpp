//===- GPURowFusion.cpp - a chain of row ops in one kernel -----*- C++ -*-===//
//
// The GPU strategy for a fused row dispatch (softmax, layernorm: row
// reductions and the elementwise/per-row ops around them, formed by
// tessel-form-dispatches{fuse-rows}): one warp per row, or for rows longer
// than 1024 a block of W = ceil(length / 1024) warps per row, so that no
// lane holds more than 32 elements (a warp per 4096-long row needed 255
// registers and left 8 warps per SM). Each of the row's L = 32 W lanes owns
// the row elements 4 * lane + 4 L * c (128-bit vectors; single elements with
// stride L when the row length is not a multiple of 4), for every chunk c
// of the row, fully unrolled, so that
// - each input row is loaded from memory once, into registers, when first
//   used, and every later op of the chain reads it from there;
// - an elementwise op's result is a register value per owned element;
// - a reduction folds the lane's elements, then gpu.subgroup_reduce gives
//   every lane its warp's total; with W warps per row, lane 0 of each warp
//   writes it to shared memory (one slot per reduction of the chain), a
//   barrier, and every lane combines the W totals in warp order;
// - per-row values ([P] tensors) are scalars, the same in every lane.
// Results are stored with 128-bit stores (row-wide) or by lane 0 (per
// row, i.e. thread 0 of the row). Rows are at most kMaxFusedRowLength long;
// the number of rows may be dynamic (push constants; the host sizes the
// grid), the row length may not (a lane's chunks are unrolled).
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/GPU/GPURowFusion.h"

#include "tessel/Codegen/Common/WorkgroupCount.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Dispatch/RowGroups.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Row elements per lane above which a row gets more than one warp.
constexpr int64_t kMaxElementsPerLane = 32;
/// Most warps per row (the block size is 32 x this).
constexpr int64_t kMaxWarpsPerRow = 8;

struct RowOp {
  linalg::GenericOp op;
  RowOpKind kind;
  ReductionInit init; // reductions only
};

struct RowFusionPlan {
  RowSpace space;
  SmallVector<RowOp> ops;
  SmallVector<bufferization::MaterializeInDestinationOp> stores;
};

/// The kernel's ops as a row chain, if they are one: two or more row ops of
/// one space (the first row reduction's), inputs from bindings or earlier
/// ops of the chain, results used only by the chain or stored to bindings.
FailureOr<RowFusionPlan> planRowFusion(func::FuncOp kernel) {
  RowFusionPlan plan;
  SmallVector<linalg::GenericOp> generics;
  bool other = false;
  // Top-level ops only: generics, fills/copies of reduction inits, and ops
  // without regions (constants, bindings, stores).
  for (Operation &op : kernel.getBody().front()) {
    if (auto g = dyn_cast<linalg::GenericOp>(op))
      generics.push_back(g);
    else if (!isa<linalg::FillOp, linalg::CopyOp>(op) &&
             op.getNumRegions() != 0)
      other = true;
  }
  if (other || generics.size() < 2)
    return failure();
  std::optional<RowSpace> space;
  for (linalg::GenericOp g : generics)
    if ((space = rowReductionSpace(g)))
      break;
  if (!space)
    return failure();
  plan.space = *space;
  DenseSet<Value> chainValues;
  for (linalg::GenericOp g : generics) {
    std::optional<RowOpKind> kind = classifyRowOp(g, plan.space);
    if (!kind)
      return failure();
    RowOp rowOp{g, *kind, {}};
    for (OpOperand *in : g.getDpsInputOperands())
      if (chainValues.contains(in->get()) ? !readsOwnRow(g, in)
                                          : !bindingMemRef(in->get()))
        return failure();
    if (*kind == RowOpKind::Reduction) {
      FailureOr<ReductionInit> init = getReductionInit(g);
      if (failed(init))
        return failure();
      rowOp.init = *init;
      if (!gpuReductionKind(rowReductionCombiner(g)))
        return failure();
    }
    plan.ops.push_back(rowOp);
    chainValues.insert(g.getResult(0));
  }
  // Every result: read by a later op of the chain or stored to a binding.
  for (RowOp &r : plan.ops)
    for (Operation *user : r.op.getResult(0).getUsers()) {
      if (auto store =
              dyn_cast<bufferization::MaterializeInDestinationOp>(user)) {
        if (!isa<MemRefType>(store.getDest().getType()))
          return failure();
        plan.stores.push_back(store);
        continue;
      }
      auto g = dyn_cast<linalg::GenericOp>(user);
      if (!g || !llvm::is_contained(generics, g) ||
          llvm::is_contained(g.getDpsInits(), r.op.getResult(0)))
        return failure();
    }
  if (plan.stores.empty())
    return failure();
  return plan;
}

} // namespace

bool mlir::tessel::canUseRowFusion(func::FuncOp kernel) {
  return succeeded(planRowFusion(kernel));
}

LogicalResult mlir::tessel::emitRowFusion(func::FuncOp kernel) {
  FailureOr<RowFusionPlan> maybePlan = planRowFusion(kernel);
  if (failed(maybePlan))
    return failure();
  RowFusionPlan &plan = *maybePlan;
  const RowSpace &space = plan.space;
  int64_t length = space.length;
  unsigned p = space.rows.size();
  // Dynamic rows are push constants: the host sizes the grid.
  std::optional<RowExtents> rows;
  for (const RowOp &r : plan.ops)
    if ((rows = rowExtents(r.op, p)))
      break;
  if (!rows)
    return plan.ops.front().op.emitError(
        "fused row kernel: a dynamic row extent is not a push constant");

  // Emit after the last store: every binding is defined by then.
  Operation *last = plan.stores.front();
  for (auto store : plan.stores)
    if (last->isBeforeInBlock(store))
      last = store;
  OpBuilder b(last);
  Location loc = plan.ops.back().op.getLoc();
  auto cIndex = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  int64_t warps = std::min<int64_t>(
      kMaxWarpsPerRow,
      llvm::divideCeil(length, kGPUWarpSize * kMaxElementsPerLane));
  int64_t lanes = kGPUWarpSize * warps;
  Value lane;
  SmallVector<Value> rowIdx;
  if (warps == 1) {
    WarpPerRow warpRow = beginWarpPerRow(b, loc, rows->sizes);
    lane = warpRow.lane;
    rowIdx.assign(warpRow.rowIndices.begin(), warpRow.rowIndices.end());
  } else {
    // One block per row: no row guard, so barriers are block-uniform.
    lane = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    rowIdx = delinearizeRow(
        b, loc, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
        rows->sizes);
  }
  // Shared memory for the warps' partial totals: [reduction][warp].
  Value partials;
  if (warps > 1) {
    int64_t reductions = llvm::count_if(
        plan.ops, [](const RowOp &r) { return r.kind == RowOpKind::Reduction; });
    partials = workgroupBuffer(b, loc, kernel, "", {reductions, warps},
                               b.getF32Type());
  }
  int64_t reductionSlot = 0;

  // Chunks: this lane's first element j of chunk c, whether it is inside
  // the row (null: always), and an index safe to load from.
  int64_t width = length % kGPUVectorWidth32 == 0 ? kGPUVectorWidth32 : 1;
  int64_t step = lanes * width;
  int64_t chunks = llvm::divideCeil(length, step);
  Value laneOffset = arith::MulIOp::create(b, loc, lane, cIndex(width));
  SmallVector<Value> first, valid, safe;
  for (int64_t c = 0; c < chunks; ++c) {
    Value j = arith::AddIOp::create(b, loc, laneOffset, cIndex(c * step));
    first.push_back(j);
    if ((c + 1) * step <= length) {
      valid.push_back(Value());
      safe.push_back(j);
      continue;
    }
    Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, j,
                                     cIndex(length));
    valid.push_back(in);
    safe.push_back(arith::SelectOp::create(b, loc, in, j, cIndex(0)));
  }

  // Values: per row-wide tensor, element e of chunk c; per per-row tensor
  // one scalar. Loads from bindings are cached the same way.
  DenseMap<Value, SmallVector<Value>> rowValues; // [c * width + e]
  DenseMap<Value, Value> scalars;
  DenseMap<std::pair<Value, int64_t>, Value> loaded; // (memref, chunk)
  auto loadChunk = [&](Value mem, int64_t c, ValueRange indices) {
    auto key = std::make_pair(mem, c);
    auto it = loaded.find(key);
    if (it != loaded.end())
      return it->second;
    Value v;
    if (width == 1) {
      v = memref::LoadOp::create(b, loc, mem, indices);
    } else {
      Type el = cast<MemRefType>(mem.getType()).getElementType();
      v = vector::LoadOp::create(
          b, loc, VectorType::get({width}, el), mem, indices,
          /*nontemporal=*/false,
          llvm::MaybeAlign(width * el.getIntOrFloatBitWidth() / 8));
    }
    loaded[key] = v;
    return v;
  };
  auto extract = [&](Value v, int64_t e) -> Value {
    return isa<VectorType>(v.getType())
               ? vector::ExtractOp::create(b, loc, v, e).getResult()
               : v;
  };
  auto elementOf = [&](linalg::GenericOp op, OpOperand *in, int64_t c,
                       int64_t e) -> Value {
    Value t = in->get();
    AffineMap map = op.getMatchingIndexingMap(in);
    unsigned rank = map.getNumResults();
    if (auto it = rowValues.find(t); it != rowValues.end())
      return it->second[c * width + e];
    if (auto it = scalars.find(t); it != scalars.end())
      return it->second;
    Value mem = bindingMemRef(t);
    if (rank == p + 1) { // the row
      SmallVector<Value> idx(rowIdx);
      idx.push_back(safe[c]);
      return extract(loadChunk(mem, c, idx), e);
    }
    if (rank == 1 && map.getNumDims() == p + 1 && map.getDimPosition(0) == p)
      return extract(loadChunk(mem, c, safe[c]), e); // a column value
    // Per row, or a scalar: one load.
    auto key = std::make_pair(mem, int64_t(-1));
    if (auto it = loaded.find(key); it != loaded.end())
      return it->second;
    SmallVector<Value> idx(rowIdx.begin(), rowIdx.begin() + rank);
    Value v = memref::LoadOp::create(b, loc, mem, idx);
    loaded[key] = v;
    return v;
  };
  // The body of `op` on the given inputs (and accumulator); returns the
  // yielded value.
  auto applyBody = [&](linalg::GenericOp op, ArrayRef<Value> inputs,
                       Value acc) {
    Block &body = op.getRegion().front();
    IRMapping mapping;
    for (auto [arg, v] : llvm::zip(body.getArguments(), inputs))
      mapping.map(arg, v);
    if (acc)
      mapping.map(body.getArguments().back(), acc);
    for (Operation &inner : body.without_terminator())
      b.clone(inner, mapping);
    return mapping.lookup(body.getTerminator()->getOperand(0));
  };
  auto inputsAt = [&](linalg::GenericOp op, int64_t c, int64_t e) {
    SmallVector<Value> inputs;
    for (OpOperand *in : op.getDpsInputOperands())
      inputs.push_back(elementOf(op, in, c, e));
    return inputs;
  };

  for (RowOp &r : plan.ops) {
    linalg::GenericOp op = r.op;
    Value result = op.getResult(0);
    switch (r.kind) {
    case RowOpKind::Elementwise: {
      SmallVector<Value> values;
      for (int64_t c = 0; c < chunks; ++c)
        for (int64_t e = 0; e < width; ++e)
          values.push_back(applyBody(op, inputsAt(op, c, e), Value()));
      rowValues[result] = values;
      break;
    }
    case RowOpKind::RowScalar:
      scalars[result] = applyBody(op, inputsAt(op, 0, 0), Value());
      break;
    case RowOpKind::Reduction: {
      Operation *combiner = rowReductionCombiner(op);
      std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
      if (!neutral)
        return failure();
      Value acc = arith::ConstantOp::create(b, loc, *neutral);
      for (int64_t c = 0; c < chunks; ++c)
        for (int64_t e = 0; e < width; ++e) {
          Value next = applyBody(op, inputsAt(op, c, e), acc);
          acc = valid[c] ? arith::SelectOp::create(b, loc, valid[c], next, acc)
                               .getResult()
                         : next;
        }
      Value total = gpu::SubgroupReduceOp::create(
          b, loc, acc, *gpuReductionKind(combiner), /*uniform=*/true);
      if (partials) {
        // Lane 0 of each warp publishes its total; after a barrier every
        // lane combines the warps' totals in order.
        Value slot = cIndex(reductionSlot++);
        Value warp = arith::DivUIOp::create(b, loc, lane, cIndex(kGPUWarpSize));
        Value isFirst = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq,
            arith::RemUIOp::create(b, loc, lane, cIndex(kGPUWarpSize)),
            cIndex(0));
        {
          OpBuilder::InsertionGuard guard(b);
          auto ifFirst = scf::IfOp::create(b, loc, isFirst, false);
          b.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
          memref::StoreOp::create(b, loc, total, partials,
                                  ValueRange{slot, warp});
        }
        gpu::BarrierOp::create(b, loc);
        total = memref::LoadOp::create(b, loc, partials,
                                       ValueRange{slot, cIndex(0)});
        for (int64_t w = 1; w < warps; ++w) {
          Value other = memref::LoadOp::create(b, loc, partials,
                                               ValueRange{slot, cIndex(w)});
          IRMapping mapping;
          mapping.map(combiner->getOperand(0), total);
          mapping.map(combiner->getOperand(1), other);
          total = b.clone(*combiner, mapping)->getResult(0);
        }
      }
      scalars[result] = combineWithInit(
          b, loc, combiner, op.getRegion().front().getArguments().back(),
          total, r.init, rowIdx);
      break;
    }
    }
  }

  // Stores: row-wide results by every lane (its chunks), per-row results
  // by lane 0.
  for (auto store : plan.stores) {
    Value src = store.getSource(), dest = store.getDest();
    if (auto it = rowValues.find(src); it != rowValues.end()) {
      for (int64_t c = 0; c < chunks; ++c) {
        OpBuilder::InsertionGuard guard(b);
        if (valid[c]) {
          auto ifValid = scf::IfOp::create(b, loc, valid[c], false);
          b.setInsertionPoint(ifValid.thenBlock()->getTerminator());
        }
        SmallVector<Value> idx(rowIdx);
        idx.push_back(first[c]);
        ArrayRef<Value> elems =
            ArrayRef<Value>(it->second).slice(c * width, width);
        if (width == 1) {
          memref::StoreOp::create(b, loc, elems[0], dest, idx);
        } else {
          Value vec = vector::FromElementsOp::create(
              b, loc, VectorType::get({width}, elems[0].getType()), elems);
          vector::StoreOp::create(
              b, loc, vec, dest, idx, /*nontemporal=*/false,
              llvm::MaybeAlign(width *
                               elems[0].getType().getIntOrFloatBitWidth() / 8));
        }
      }
    } else {
      OpBuilder::InsertionGuard guard(b);
      Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            lane, cIndex(0));
      auto ifLane0 = scf::IfOp::create(b, loc, isLane0, false);
      b.setInsertionPoint(ifLane0.thenBlock()->getTerminator());
      memref::StoreOp::create(b, loc, scalars.lookup(src), dest, rowIdx);
    }
  }
  for (auto store : plan.stores)
    store.erase();
  if (warps == 1) {
    setWarpPerRowLaunch(kernel, rows->count);
  } else {
    setKernelLaunch(kernel, {1, 1, 1}, {lanes, 1, 1});
    MLIRContext *ctx = kernel.getContext();
    setWorkgroupCount(kernel, {rows->count, getAffineConstantExpr(1, ctx),
                               getAffineConstantExpr(1, ctx)});
  }
  return success();
}
