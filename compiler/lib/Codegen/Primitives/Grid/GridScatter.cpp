//===- GridScatter.cpp - the grid level of a scatter (GPU) -----*- C++ -*-===//
//
// See GridScatter.h. Emitted on the binding memrefs; the tensor scatter and
// its producers die afterwards.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/GridScatter.h"

#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Codegen/Primitives/GridBarrier.h"
#include "tessel/Codegen/Primitives/ScanLevels.h"
#include "tessel/Target/Executable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kThreads = 256;
/// Updates per thread and loop step in flight together.
constexpr int64_t kUnroll = 4;

struct GridScatterPlan {
  ScatterOp scatter;
  Value updates, indices, workspace, output;
  bufferization::MaterializeInDestinationOp store;
  TypedAttr fillValue;      // the original is a constant fill
  TypedAttr updateConstant; // every update is this constant
  Value copyFrom;      // the original is a binding
  std::optional<arith::AtomicRMWKind> atomic;
};

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

} // namespace

std::optional<arith::AtomicRMWKind>
mlir::tessel::scatterAtomicKind(ScatterOp scatter) {
  Block &body = scatter.getRegion().front();
  Value update = body.getArgument(0), current = body.getArgument(1);
  Value yielded = body.getTerminator()->getOperand(0);
  if (yielded == update)
    return arith::AtomicRMWKind::assign;
  Operation *op = yielded.getDefiningOp();
  if (!op || op->getBlock() != &body || op->getNumOperands() != 2 ||
      &body.front() != op)
    return std::nullopt;
  bool operands = (op->getOperand(0) == update && op->getOperand(1) == current) ||
                  (op->getOperand(1) == update && op->getOperand(0) == current);
  if (!operands)
    return std::nullopt;
  using K = arith::AtomicRMWKind;
  return llvm::TypeSwitch<Operation *, std::optional<K>>(op)
      .Case<arith::AddFOp>([](auto) { return K::addf; })
      .Case<arith::AddIOp>([](auto) { return K::addi; })
      .Case<arith::MaxSIOp>([](auto) { return K::maxs; })
      .Case<arith::MinSIOp>([](auto) { return K::mins; })
      .Case<arith::MaxUIOp>([](auto) { return K::maxu; })
      .Case<arith::MinUIOp>([](auto) { return K::minu; })
      .Case<arith::OrIOp>([](auto) { return K::ori; })
      .Case<arith::AndIOp>([](auto) { return K::andi; })
      .Case<arith::XOrIOp>([](auto) { return K::xori; })
      .Default([](Operation *) { return std::nullopt; });
}

void mlir::tessel::emitScatterCombine(
    OpBuilder &b, Location loc, ScatterOp scatter, Value output,
    ValueRange at, Value update, std::optional<arith::AtomicRMWKind> atomic) {
  Region &combiner = scatter.getRegion();
  if (scatter.getUniqueIndices()) {
    Value current = memref::LoadOp::create(b, loc, output, at);
    memref::StoreOp::create(b, loc,
                            emitCombine(b, loc, combiner, update, current),
                            output, at);
  } else if (atomic) {
    memref::AtomicRMWOp::create(b, loc, *atomic, update, output, at);
  } else {
    auto cas = memref::GenericAtomicRMWOp::create(b, loc, output, at);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&cas.getAtomicBody().front());
    Value combined =
        emitCombine(b, loc, combiner, update, cas.getCurrentValue());
    memref::AtomicYieldOp::create(b, loc, combined);
  }
}

namespace {

FailureOr<GridScatterPlan> plan(ScatterOp scatter, std::string &why) {
  GridScatterPlan p;
  p.scatter = scatter;
  if (scatter.getInputs().size() != 3 ||
      !(p.workspace = bindingMemRef(scatter.getInputs()[2]))) {
    why = "no grid-barrier workspace binding";
    return failure();
  }
  p.updates = bindingMemRef(scatter.getUpdates());
  if (auto fill = scatter.getUpdates().getDefiningOp<linalg::FillOp>())
    if (auto cst = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
      p.updateConstant = cast<TypedAttr>(cst.getValue()); // a histogram's 1s
  p.indices = bindingMemRef(scatter.getIndices());
  if ((!p.updates && !p.updateConstant) || !p.indices) {
    why = "updates or indices are computed in the kernel, not read from "
          "bindings";
    return failure();
  }
  if (!(p.store = bindingStore(scatter.getResult(0)))) {
    why = "the result is not stored into a binding";
    return failure();
  }
  p.output = p.store.getDest();
  Value original = scatter.getOriginal();
  if (auto fill = original.getDefiningOp<linalg::FillOp>()) {
    auto cst = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
    if (!cst) {
      why = "the original is a fill of a non-constant";
      return failure();
    }
    p.fillValue = cast<TypedAttr>(cst.getValue());
  } else if (auto copy = original.getDefiningOp<linalg::CopyOp>()) {
    p.copyFrom = bindingMemRef(copy.getInputs()[0]);
  } else if (!original.getDefiningOp<tensor::EmptyOp>()) {
    why = "the original is neither a constant fill, a binding nor empty";
    return failure();
  }
  if (!p.fillValue && !p.copyFrom && !original.getDefiningOp<tensor::EmptyOp>()) {
    why = "the original is computed in the kernel";
    return failure();
  }
  Type e = cast<ShapedType>(original.getType()).getElementType();
  unsigned bits = e.isIntOrFloat() ? e.getIntOrFloatBitWidth() : 0;
  if (bits != 32 && bits != 64) {
    why = "element type is not 32 or 64 bits wide (no atomics)";
    return failure();
  }
  // The combiner is cloned into the kernel.
  if (!isScalarCombiner(scatter.getRegion(), why))
    return failure();
  p.atomic = scatterAtomicKind(scatter);
  return p;
}

/// `memref` (static, identity layout) as a 1-D memref.
Value flatten(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1)
    return memref;
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  if (type.getRank() == 0)
    return memref::ExpandShapeOp::create(
        b, loc, MemRefType::get({1}, type.getElementType()), memref,
        ArrayRef<ReassociationIndices>{});
  return memref::CollapseShapeOp::create(b, loc, memref,
                                         ArrayRef<ReassociationIndices>{all});
}

/// for (i = first; i < count; i += stride) body(i)
void gridStride(OpBuilder &b, Location loc, Value first, Value stride,
                int64_t count, function_ref<void(OpBuilder &, Location, Value)> body) {
  scf::ForOp::create(b, loc, first, cIndex(b, loc, count), stride, ValueRange{},
                     [&](OpBuilder &b, Location loc, Value i, ValueRange) {
                       body(b, loc, i);
                       scf::YieldOp::create(b, loc);
                     });
}

} // namespace

bool mlir::tessel::canUseGridScatter(func::FuncOp, ScatterOp scatter,
                                     std::string &why) {
  return succeeded(plan(scatter, why));
}

std::string mlir::tessel::describeGridScatter(ScatterOp scatter) {
  std::string why;
  FailureOr<GridScatterPlan> p = plan(scatter, why);
  std::string how = scatter.getUniqueIndices()
                        ? "plain stores (unique indices)"
                    : p->atomic ? "atomic " + arith::stringifyAtomicRMWKind(*p->atomic).str()
                                : "compare-and-swap loop";
  return "grid scatter: at most " + std::to_string(kGridScatterBlocks) +
         " persistent blocks x 256 threads (" +
         std::to_string(kGridScatterBlocksPerSM) +
         " per SM of the GPU that runs it), original written, grid "
         "barrier, updates grid-stride with " + how;
}

LogicalResult mlir::tessel::emitGridScatter(func::FuncOp kernel,
                                            ScatterOp scatter) {
  std::string why;
  FailureOr<GridScatterPlan> pr = plan(scatter, why);
  if (failed(pr))
    return scatter.emitOpError("grid scatter: ") << why;
  GridScatterPlan &p = *pr;
  OpBuilder b(scatter);
  Location loc = scatter.getLoc();
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value first = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bid, cIndex(b, loc, kThreads)),
      tid);
  // The launched grid: at most kGridScatterBlocks, fewer on a GPU with
  // fewer SMs (kResidentBlocksPerSmAttr).
  Value stride = arith::MulIOp::create(
      b, loc, gpu::GridDimOp::create(b, loc, gpu::Dimension::x),
      cIndex(b, loc, kThreads));
  Value step = arith::MulIOp::create(b, loc, stride, cIndex(b, loc, kUnroll));
  // The first element of the remainder of `count` after whole steps.
  auto mainEndOf = [&](int64_t count) -> Value {
    Value n = cIndex(b, loc, count);
    return arith::SubIOp::create(b, loc, n,
                                 arith::RemUIOp::create(b, loc, n, step));
  };
  // Element k of a step starting at `i`.
  auto nth = [&](OpBuilder &b, Location loc, Value i, int64_t k) -> Value {
    return arith::AddIOp::create(
        b, loc, i,
        arith::MulIOp::create(b, loc, stride, cIndex(b, loc, k)));
  };
  auto outType = cast<MemRefType>(p.output.getType());

  // Phase 1: the original into the result.
  if (p.fillValue || p.copyFrom) {
    Value out1d = flatten(b, loc, p.output);
    Value src1d = p.copyFrom ? flatten(b, loc, p.copyFrom) : Value();
    Value fill = p.fillValue ? arith::ConstantOp::create(b, loc, p.fillValue)
                                   .getResult()
                             : Value();
    // kUnroll elements per thread and step, loads before stores.
    int64_t count = outType.getNumElements();
    Value mainEnd = mainEndOf(count);
    auto load = [&](OpBuilder &b, Location loc, Value i) {
      return fill ? fill : memref::LoadOp::create(b, loc, src1d, i).getResult();
    };
    scf::ForOp::create(
        b, loc, first, mainEnd, step, ValueRange{},
        [&](OpBuilder &b, Location loc, Value i, ValueRange) {
          SmallVector<Value> at, values;
          for (int64_t k = 0; k < kUnroll; ++k) {
            at.push_back(nth(b, loc, i, k));
            values.push_back(load(b, loc, at.back()));
          }
          for (int64_t k = 0; k < kUnroll; ++k)
            memref::StoreOp::create(b, loc, values[k], out1d, at[k]);
          scf::YieldOp::create(b, loc);
        });
    Value rest = arith::AddIOp::create(b, loc, first, mainEnd);
    gridStride(b, loc, rest, stride, count,
               [&](OpBuilder &b, Location loc, Value i) {
                 memref::StoreOp::create(b, loc, load(b, loc, i), out1d, i);
               });
  }
  emitGridBarrier(b, loc, p.workspace, cIndex(b, loc, 0), tid,
                  /*generation=*/1);

  // Phase 2: the updates.
  ArrayRef<int64_t> map = scatter.getDimensionMap();
  int64_t batchRank = scatter.getBatchRank();
  auto updType = cast<ShapedType>(scatter.getUpdates().getType());
  ArrayRef<int64_t> updShape = updType.getShape();
  SmallVector<int64_t> sliceShape(updShape.begin() + batchRank, updShape.end());
  int64_t sliceElems = 1, batchElems = 1;
  for (int64_t s : sliceShape)
    sliceElems *= s;
  for (int64_t d = 0; d < batchRank; ++d)
    batchElems *= updShape[d];
  auto idxType = cast<MemRefType>(p.indices.getType());
  bool explicitDepth = idxType.getRank() > batchRank;
  int64_t depth = map.size();
  // Indices as [batch, depth] (or [batch]).
  Value idx2d = p.indices;
  {
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices batchDims;
    for (int64_t d = 0; d < batchRank; ++d)
      batchDims.push_back(d);
    if (batchRank == 0) {
      // No batch dimension: one update slice.
      idx2d = memref::ExpandShapeOp::create(
          b, loc,
          MemRefType::get(explicitDepth ? ArrayRef<int64_t>{1, depth}
                                        : ArrayRef<int64_t>{1},
                          idxType.getElementType()),
          p.indices,
          explicitDepth ? ArrayRef<ReassociationIndices>{{0, 1}}
                        : ArrayRef<ReassociationIndices>{});
    } else if (batchRank > 1) {
      groups.push_back(batchDims);
      if (explicitDepth)
        groups.push_back({batchRank});
      idx2d = memref::CollapseShapeOp::create(b, loc, p.indices, groups);
    }
  }
  Value upd1d = p.updates ? flatten(b, loc, p.updates) : Value();
  Value updConst = p.updateConstant
                       ? arith::ConstantOp::create(b, loc, p.updateConstant)
                             .getResult()
                       : Value();
  ArrayRef<int64_t> outShape = outType.getShape();
  Region &combiner = scatter.getRegion();
  // One update: where it goes, whether that is in range, its value. The
  // update value is loaded unconditionally (it is in bounds either way).
  struct Update {
    SmallVector<Value> at;
    Value inRange, value;
  };
  auto prepare = [&](OpBuilder &b, Location loc, Value e1) {
    Update u;
    Value batch = arith::DivUIOp::create(b, loc, e1, cIndex(b, loc, sliceElems));
    Value slice = arith::RemUIOp::create(b, loc, e1, cIndex(b, loc, sliceElems));
    SmallVector<Value> sliceIdx = delinearizeRow(b, loc, slice, sliceShape);
    u.at.assign(outShape.size(), Value());
    u.inRange = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (int64_t k = 0; k < depth; ++k) {
      SmallVector<Value> where{batch};
      if (explicitDepth)
        where.push_back(cIndex(b, loc, k));
      Value raw = memref::LoadOp::create(b, loc, idx2d, where);
      Value v = raw.getType().isIndex()
                    ? raw
                    : arith::IndexCastOp::create(b, loc, b.getIndexType(), raw)
                          .getResult();
      Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v,
                                       cIndex(b, loc, 0));
      Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v,
                                       cIndex(b, loc, outShape[map[k]]));
      u.inRange = arith::AndIOp::create(
          b, loc, u.inRange, arith::AndIOp::create(b, loc, ge, lt));
      u.at[map[k]] = v;
    }
    size_t next = 0;
    for (size_t d = 0; d < outShape.size(); ++d)
      if (!u.at[d])
        u.at[d] = sliceIdx[next++];
    u.value = updConst ? updConst
                       : memref::LoadOp::create(b, loc, upd1d, e1).getResult();
    return u;
  };
  auto apply = [&](OpBuilder &b, Location loc, const Update &u) {
    auto guard = scf::IfOp::create(b, loc, u.inRange, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    emitScatterCombine(b, loc, scatter, p.output, u.at, u.value, p.atomic);
  };
  // kUnroll updates per thread and step: their loads first, then their
  // combines, so that kUnroll index loads (and atomics) are in flight at
  // once; then the remainder one at a time.
  int64_t count = batchElems * sliceElems;
  Value mainEnd = mainEndOf(count);
  scf::ForOp::create(
      b, loc, first, mainEnd, step, ValueRange{},
      [&](OpBuilder &b, Location loc, Value i, ValueRange) {
        SmallVector<Update> batch;
        for (int64_t k = 0; k < kUnroll; ++k)
          batch.push_back(prepare(b, loc, nth(b, loc, i, k)));
        for (const Update &u : batch)
          apply(b, loc, u);
        scf::YieldOp::create(b, loc);
      });
  Value rest = arith::AddIOp::create(b, loc, first, mainEnd);
  gridStride(b, loc, rest, stride, count,
             [&](OpBuilder &b, Location loc, Value e1) {
               apply(b, loc, prepare(b, loc, e1));
             });
  p.store.erase();
  setKernelLaunch(kernel, {kGridScatterBlocks, 1, 1}, {kThreads, 1, 1});
  Builder attrs(kernel.getContext());
  kernel->setAttr("nvvm.minctasm",
                  attrs.getI32IntegerAttr(kGridScatterMinBlocksPerSM));
  kernel->setAttr(kResidentBlocksPerSmAttr,
                  attrs.getI64IntegerAttr(kGridScatterBlocksPerSM));
  return success();
}
