//===- WarpTopk.cpp - a warp per row top-k (GPU) ----------------*- C++ -*-===//
//
// See WarpTopk.h. Emitted on the binding memrefs; the tensor op and its
// producers die afterwards.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/WarpTopk.h"

#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Codegen/Primitives/ScanLevels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Elements per lane loaded together.
constexpr int64_t kUnroll = 4;

struct TopkPlan {
  TopkOp topk;
  Value values;
  bufferization::MaterializeInDestinationOp storeValues, storeIndices;
  int64_t n, k;
  SmallVector<int64_t> rowShape;
};

FailureOr<TopkPlan> plan(TopkOp topk, std::string &why) {
  TopkPlan p;
  p.topk = topk;
  if (topk->getNumResults() != 2) {
    why = "buffer semantics";
    return failure();
  }
  auto type = dyn_cast<RankedTensorType>(topk.getValues().getType());
  if (!type || !type.hasStaticShape() ||
      topk.getDimension() != type.getRank() - 1) {
    why = "not along the innermost static dimension";
    return failure();
  }
  if (topk.getInputs().size() != 1) {
    why = "an index input";
    return failure();
  }
  Type e = type.getElementType();
  if (!e.isIntOrFloat() || e.getIntOrFloatBitWidth() != 32) {
    why = "values are not 32 bits wide";
    return failure();
  }
  p.n = type.getShape().back();
  p.k = cast<ShapedType>(topk.getOutputValues().getType()).getShape().back();
  if (p.k < 1 || p.k > kWarpTopkMaxK) {
    why = "k is not 1 to " + std::to_string(kWarpTopkMaxK);
    return failure();
  }
  if (!(p.values = bindingMemRef(topk.getValues()))) {
    why = "the values are computed in the kernel, not read from a binding";
    return failure();
  }
  p.storeValues = bindingStore(topk.getResult(0));
  p.storeIndices = bindingStore(topk.getResult(1));
  if (!p.storeValues || !p.storeIndices) {
    why = "the results are not stored into bindings";
    return failure();
  }
  if (!isScalarCombiner(topk.getRegion(), why))
    return failure();
  p.rowShape = llvm::to_vector(type.getShape().drop_back());
  return p;
}

struct TopkEmitter {
  OpBuilder &b;
  Location loc;
  TopkPlan &p;

  Value ci(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value c32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value sel(Value c, Value t, Value f) {
    return arith::SelectOp::create(b, loc, c, t, f);
  }
  Value andI(Value l, Value r) { return arith::AndIOp::create(b, loc, l, r); }
  Value orI(Value l, Value r) { return arith::OrIOp::create(b, loc, l, r); }
  Value notI(Value v) {
    return arith::XOrIOp::create(b, loc, v,
                                 arith::ConstantIntOp::create(b, loc, 1, 1));
  }
  Value before(Value l, Value r) {
    return emitCombine(b, loc, p.topk.getRegion(), l, r);
  }

  /// A lane's list: k (value, position) slots, the first `count` filled,
  /// best first.
  struct List {
    SmallVector<Value> v, i;
    Value count; // i32
  };

  List insert(const List &l, Value x, Value xi, Value inRange) {
    int64_t k = p.k;
    // stays[j]: slot j is filled and x does not go before it (a prefix).
    SmallVector<Value> stays;
    for (int64_t j = 0; j < k; ++j) {
      Value filled = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                           c32(j), l.count);
      stays.push_back(andI(filled, notI(before(x, l.v[j]))));
    }
    List r;
    for (int64_t j = 0; j < k; ++j) {
      // Slot j keeps its element, or takes x where x lands (slot 0, or
      // after the last slot that stays), or else its predecessor (shifted
      // down).
      Value v = x, i = xi;
      if (j > 0) {
        v = sel(stays[j - 1], x, l.v[j - 1]);
        i = sel(stays[j - 1], xi, l.i[j - 1]);
      }
      v = sel(stays[j], l.v[j], v);
      i = sel(stays[j], l.i[j], i);
      r.v.push_back(sel(inRange, v, l.v[j]));
      r.i.push_back(sel(inRange, i, l.i[j]));
    }
    Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       l.count, c32(k));
    Value grows = andI(inRange, notI(full));
    r.count = sel(grows, arith::AddIOp::create(b, loc, l.count, c32(1)),
                  l.count);
    return r;
  }

  void emit(func::FuncOp kernel) {
    WarpPerRow wr = beginWarpPerRow(
        b, loc, getAsIndexOpFoldResult(b.getContext(), p.rowShape));
    Value lane = wr.lane;
    // Initial slots: the row's first element (any value; count is 0).
    auto at = [&](Value pos) {
      SmallVector<Value> idx(wr.rowIndices);
      idx.push_back(pos);
      return idx;
    };
    Value first = memref::LoadOp::create(b, loc, p.values, at(ci(0)));
    SmallVector<Value> init;
    for (int64_t j = 0; j < p.k; ++j)
      init.push_back(first);
    for (int64_t j = 0; j < p.k; ++j)
      init.push_back(c32(0));
    init.push_back(c32(0));
    auto unpack = [&](ValueRange vals) {
      List l;
      l.v = llvm::to_vector(vals.take_front(p.k));
      l.i = llvm::to_vector(vals.slice(p.k, p.k));
      l.count = vals[2 * p.k];
      return l;
    };
    auto pack = [&](const List &l) {
      SmallVector<Value> vals(l.v);
      llvm::append_range(vals, l.i);
      vals.push_back(l.count);
      return vals;
    };
    int64_t step = 32 * kUnroll;
    auto loop = scf::ForOp::create(
        b, loc, ci(0), ci(p.n), ci(step), init,
        [&](OpBuilder &, Location, Value s, ValueRange acc) {
          SmallVector<Value> xs, pos, ok;
          for (int64_t u = 0; u < kUnroll; ++u) {
            Value e = arith::AddIOp::create(
                b, loc, s, arith::AddIOp::create(b, loc, lane, ci(u * 32)));
            ok.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                               e, ci(p.n)));
            Value c = arith::MinUIOp::create(b, loc, e, ci(p.n - 1));
            xs.push_back(memref::LoadOp::create(b, loc, p.values, at(c)));
            pos.push_back(
                arith::IndexCastOp::create(b, loc, b.getI32Type(), e));
          }
          List l = unpack(acc);
          for (int64_t u = 0; u < kUnroll; ++u)
            l = insert(l, xs[u], pos[u], ok[u]);
          scf::YieldOp::create(b, loc, pack(l));
        });
    List l = unpack(loop.getResults());
    // k rounds: the best head of the 32 lists, then its lane drops it.
    SmallVector<Value> outV, outI;
    for (int64_t r = 0; r < p.k; ++r) {
      Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                        l.count, c32(0));
      Value bv = l.v[0], bi = l.i[0];
      Value bh = arith::ExtUIOp::create(b, loc, b.getI32Type(), has);
      for (int64_t off = 1; off < 32; off *= 2) {
        auto shfl = [&](Value v) {
          return gpu::ShuffleOp::create(b, loc, v, off, 32,
                                        gpu::ShuffleMode::XOR)
              .getShuffleResult();
        };
        Value ov = shfl(bv), oi = shfl(bi), oh = shfl(bh);
        Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                           bh, c32(0));
        Value theirs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                             oh, c32(0));
        // Theirs wins: it exists and (mine does not, or it goes before,
        // or neither goes before the other and its position is smaller).
        Value earlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                              oi, bi);
        Value tie = andI(notI(before(bv, ov)), earlier);
        Value wins = andI(theirs, orI(notI(mine), orI(before(ov, bv), tie)));
        bv = sel(wins, ov, bv);
        bi = sel(wins, oi, bi);
        bh = sel(wins, oh, bh);
      }
      outV.push_back(bv);
      outI.push_back(bi);
      // The winner's lane drops its head (positions are unique).
      Value drops = andI(has, arith::CmpIOp::create(
                                  b, loc, arith::CmpIPredicate::eq, l.i[0], bi));
      List next;
      for (int64_t j = 0; j < p.k; ++j) {
        Value nv = j + 1 < p.k ? l.v[j + 1] : l.v[j];
        Value ni = j + 1 < p.k ? l.i[j + 1] : l.i[j];
        next.v.push_back(sel(drops, nv, l.v[j]));
        next.i.push_back(sel(drops, ni, l.i[j]));
      }
      next.count = sel(drops, arith::SubIOp::create(b, loc, l.count, c32(1)),
                       l.count);
      l = next;
    }
    Value lane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                        ci(0));
    auto ifLane0 = scf::IfOp::create(b, loc, lane0, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifLane0.thenBlock()->getTerminator());
    Value outValues = p.storeValues.getDest();
    Value outIndices = p.storeIndices.getDest();
    Type it = cast<MemRefType>(outIndices.getType()).getElementType();
    for (int64_t r = 0; r < p.k; ++r) {
      memref::StoreOp::create(b, loc, outV[r], outValues, at(ci(r)));
      Value idx = outI[r];
      if (it.isIndex())
        idx = arith::IndexCastOp::create(b, loc, it, idx);
      else if (it.getIntOrFloatBitWidth() > 32)
        idx = arith::ExtSIOp::create(b, loc, it, idx);
      else if (it.getIntOrFloatBitWidth() < 32)
        idx = arith::TruncIOp::create(b, loc, it, idx);
      memref::StoreOp::create(b, loc, idx, outIndices, at(ci(r)));
    }
  }
};

} // namespace

bool mlir::tessel::canUseWarpTopk(func::FuncOp, TopkOp topk, std::string &why) {
  return succeeded(plan(topk, why));
}

std::string mlir::tessel::describeWarpTopk(TopkOp topk) {
  std::string why;
  FailureOr<TopkPlan> p = plan(topk, why);
  return "warp top-k: a warp per row, " + std::to_string(p->k) +
         " best per lane in registers (insertion network), " +
         std::to_string(p->k) + " shuffle rounds to merge the lanes";
}

LogicalResult mlir::tessel::emitWarpTopk(func::FuncOp kernel, TopkOp topk) {
  std::string why;
  FailureOr<TopkPlan> p = plan(topk, why);
  if (failed(p))
    return topk.emitOpError("warp top-k: ") << why;
  int64_t rows = 1;
  for (int64_t r : p->rowShape)
    rows *= r;
  {
    OpBuilder b(topk);
    TopkEmitter{b, topk.getLoc(), *p}.emit(kernel);
  }
  p->storeValues.erase();
  p->storeIndices.erase();
  setWarpPerRowLaunch(kernel, getAffineConstantExpr(rows, kernel.getContext()));
  return success();
}
