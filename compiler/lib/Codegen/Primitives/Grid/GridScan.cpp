//===- GridScan.cpp - the grid level of a scan (GPU strategy) --*- C++ -*-===//
//
// See GridScan.h. The kernel is emitted directly on the binding memrefs:
// the scan's input must be a binding, its results are stored into
// bindings, and everything else in the kernel dies with the tensor scan.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/GridScan.h"

#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Codegen/Primitives/ScanLevels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kThreads = 256;
constexpr int64_t kItems = kLookbackTileElements / kThreads;
/// Status word: flag in the high 32 bits, the value's bits in the low 32.
constexpr int64_t kAggregate = 1, kInclusive = 2;

struct GridScanPlan {
  ScanOp scan;
  Value input, output, accumulator, workspace; // memrefs; acc may be null
  SmallVector<bufferization::MaterializeInDestinationOp> stores;
  /// Exclusive scans: the seed, a constant or per-row values in a binding.
  TypedAttr seedConstant;
  Value seedMemRef;
  SmallVector<int64_t> rowShape;
  int64_t length = 0;
};

FailureOr<GridScanPlan> plan(func::FuncOp kernel, ScanOp scan,
                             std::string &why) {
  GridScanPlan p;
  p.scan = scan;
  auto type = cast<RankedTensorType>(scan.getInput().getType());
  Type e = type.getElementType();
  if (!e.isF32() && !e.isSignlessInteger(32)) {
    why = "element type is not f32 or i32";
    return failure();
  }
  if (scan.getDimension() != type.getRank() - 1) {
    why = "scans a dimension that is not the innermost";
    return failure();
  }
  p.length = type.getShape().back();
  if (p.length == 0) {
    why = "the scanned dimension is empty";
    return failure();
  }
  p.rowShape.assign(type.getShape().begin(), type.getShape().end() - 1);
  p.input = bindingMemRef(scan.getInput());
  if (!p.input) {
    why = "the input is computed in the kernel, not read from a binding";
    return failure();
  }
  if (scan.getInputs().size() == 2) {
    p.workspace = bindingMemRef(scan.getInputs()[1]);
    if (!p.workspace) {
      why = "the look-back workspace is not a binding";
      return failure();
    }
    int64_t words = cast<MemRefType>(p.workspace.getType()).getShape()[0];
    if (!p.rowShape.empty() && llvm::product_of(p.rowShape) != 1) {
      why = "a look-back workspace is for a single row";
      return failure();
    }
    if (words != llvm::divideCeil(p.length, kLookbackTileElements) + 1) {
      why = "the look-back workspace has " + std::to_string(words) +
            " words, not one per tile of " +
            std::to_string(kLookbackTileElements) + " plus a counter";
      return failure();
    }
  }
  auto outStore = bindingStore(scan.getResult(0));
  if (!outStore) {
    why = "the scan's output is not stored into a binding";
    return failure();
  }
  p.output = outStore.getDest();
  p.stores.push_back(outStore);
  if (!scan.getResult(1).use_empty()) {
    auto accStore = bindingStore(scan.getResult(1));
    if (!accStore) {
      why = "the running total is used in the kernel";
      return failure();
    }
    p.accumulator = accStore.getDest();
    p.stores.push_back(accStore);
  }
  if (!scan.getInclusive()) {
    Value init = scan.getAccumulator();
    if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
      auto cst = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>();
      if (cst)
        p.seedConstant = cast<TypedAttr>(cst.getValue());
    } else if (auto copy = init.getDefiningOp<linalg::CopyOp>()) {
      p.seedMemRef = bindingMemRef(copy.getInputs()[0]);
    }
    if (!p.seedConstant && !p.seedMemRef) {
      why = "the exclusive scan's seed is neither a constant nor a binding";
      return failure();
    }
  }
  // The combiner is cloned into the kernel.
  if (!isScalarCombiner(scan.getRegion(), why))
    return failure();
  return p;
}

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value cmpI(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value l,
           Value r) {
  return arith::CmpIOp::create(b, loc, p, l, r);
}

Value seedFor(OpBuilder &b, Location loc, const GridScanPlan &p,
              ValueRange rowIndices) {
  if (p.seedConstant)
    return arith::ConstantOp::create(b, loc, p.seedConstant);
  return memref::LoadOp::create(b, loc, p.seedMemRef, rowIndices);
}

/// Stores the row's total (the inclusive value of its last element) from
/// the thread that holds it.
void storeTotal(OpBuilder &b, Location loc, const GridScanPlan &p,
                ValueRange rowIndices, std::pair<Value, Value> last) {
  if (!p.accumulator)
    return;
  auto guard = scf::IfOp::create(b, loc, last.second, false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(guard.thenBlock()->getTerminator());
  memref::StoreOp::create(b, loc, last.first, p.accumulator, rowIndices);
}

/// A block per row, tiles walked in order with the running value carried.
void emitBlockPerRow(OpBuilder &b, Location loc, func::FuncOp kernel,
                     const GridScanPlan &p) {
  ScanOp scan = p.scan;
  Region &combiner = scan.getRegion();
  Type e = cast<MemRefType>(p.input.getType()).getElementType();
  bool inclusive = scan.getInclusive();
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value row = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  SmallVector<Value> rowIndices = delinearizeRow(b, loc, row, p.rowShape);
  Value warpTotals =
      workgroupBuffer(b, loc, kernel, "_scan_warps", {kThreads / 32}, e);
  MaybeValue carry =
      inclusive
          ? MaybeValue{arith::ConstantOp::create(b, loc, b.getZeroAttr(e)),
                       arith::ConstantIntOp::create(b, loc, 0, 1)}
          : MaybeValue{seedFor(b, loc, p, rowIndices),
                       arith::ConstantIntOp::create(b, loc, 1, 1)};
  int64_t tileSize = kThreads * kItems;
  int64_t fullTiles = p.length / tileSize;
  auto makeTile = [&](Value start, bool full) {
    ScanTile tile{p.input, p.output, rowIndices, start, p.length, kItems,
                  kThreads, full};
    return tile;
  };
  if (fullTiles > 0) {
    auto loop = scf::ForOp::create(
        b, loc, cIndex(b, loc, 0), cIndex(b, loc, fullTiles * tileSize),
        cIndex(b, loc, tileSize), ValueRange{carry.value, carry.present},
        [&](OpBuilder &b, Location loc, Value start, ValueRange iter) {
          ScanTile tile = makeTile(start, /*full=*/true);
          ScannedTile scanned =
              emitScanTile(b, loc, combiner, tile, tid, warpTotals);
          MaybeValue before{iter[0], iter[1]};
          auto last = emitStoreScanTile(b, loc, combiner, tile, tid, scanned,
                                        before, inclusive);
          storeTotal(b, loc, p, rowIndices, last);
          MaybeValue next = emitCombineMaybe(
              b, loc, combiner, before,
              {scanned.block.total, arith::ConstantIntOp::create(b, loc, 1, 1)});
          scf::YieldOp::create(b, loc, ValueRange{next.value, next.present});
        });
    carry = {loop.getResult(0), loop.getResult(1)};
  }
  if (p.length % tileSize != 0) {
    ScanTile tile = makeTile(cIndex(b, loc, fullTiles * tileSize), false);
    ScannedTile scanned = emitScanTile(b, loc, combiner, tile, tid, warpTotals);
    auto last = emitStoreScanTile(b, loc, combiner, tile, tid, scanned, carry,
                                  inclusive);
    storeTotal(b, loc, p, rowIndices, last);
  }
  int64_t rows = 1;
  for (int64_t r : p.rowShape)
    rows *= r;
  setKernelLaunch(kernel, {rows, 1, 1}, {kThreads, 1, 1});
}

/// Status word <-> (flag, value).
Value packStatus(OpBuilder &b, Location loc, int64_t flag, Value value) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value bits = value.getType() == i32
                   ? value
                   : arith::BitcastOp::create(b, loc, i32, value).getResult();
  Value low = arith::ExtUIOp::create(b, loc, i64, bits);
  Value high = arith::ConstantIntOp::create(b, loc, flag << 32, 64);
  return arith::OrIOp::create(b, loc, high, low);
}

/// The combine of every tile before `tileId` (> 0), by warp 0 of the
/// block: each round, lane l reads the status of tile j - l (32 tiles at
/// once); if some lane holds an inclusive prefix and every lane up to the
/// first such one is ready, the window's values (earliest tile first)
/// complete the prefix; if all 32 are aggregates the window moves back 32
/// tiles; otherwise the warp polls again. Lanes past tile 0 read nothing
/// and count as inclusive (tile 0 always publishes an inclusive prefix, so
/// they are never combined). Returns the same value in every lane.
Value emitWarpLookback(OpBuilder &b, Location loc, Region &combiner,
                       Value workspace, Value tileId, Value lane, Type e) {
  Type i32 = b.getI32Type();
  auto c32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32).getResult();
  };
  auto toI32 = [&](OpBuilder &b, Value flag) {
    return arith::ExtUIOp::create(b, loc, i32, flag).getResult();
  };
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(e));
  Value no = arith::ConstantIntOp::create(b, loc, 0, 1);
  Value start = arith::SubIOp::create(b, loc, tileId, cIndex(b, loc, 1));
  auto look = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType(), e, b.getI1Type()},
      ValueRange{start, zero, no},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value j = args[0];
        MaybeValue acc{args[1], args[2]};
        Value valid = cmpI(b, loc, arith::CmpIPredicate::ule, lane, j);
        Value pos = arith::SelectOp::create(
            b, loc, valid, arith::SubIOp::create(b, loc, j, lane),
            cIndex(b, loc, 0));
        Value word = memref::AtomicRMWOp::create(
            b, loc, arith::AtomicRMWKind::ori,
            arith::ConstantIntOp::create(b, loc, 0, 64), workspace,
            ValueRange{pos});
        Value flag = arith::SelectOp::create(
            b, loc, valid,
            arith::TruncIOp::create(
                b, loc, i32,
                arith::ShRUIOp::create(
                    b, loc, word, arith::ConstantIntOp::create(b, loc, 32, 64))),
            c32(kInclusive));
        Value bits = arith::TruncIOp::create(b, loc, i32, word);
        Value value = e == i32 ? bits
                               : arith::BitcastOp::create(b, loc, e, bits)
                                     .getResult();
        Value laneI32 = arith::IndexCastOp::create(b, loc, i32, lane);
        // k: the first lane with an inclusive prefix (32: none).
        Value isIncl = cmpI(b, loc, arith::CmpIPredicate::eq, flag, c32(kInclusive));
        Value k = gpu::SubgroupReduceOp::create(
            b, loc, arith::SelectOp::create(b, loc, isIncl, laneI32, c32(32)),
            gpu::AllReduceOperation::MINUI, /*uniform=*/true);
        Value upToK = cmpI(b, loc, arith::CmpIPredicate::ule, laneI32, k);
        Value blocking = arith::AndIOp::create(
            b, loc, upToK, cmpI(b, loc, arith::CmpIPredicate::eq, flag, c32(0)));
        Value anyBlocking = gpu::SubgroupReduceOp::create(
            b, loc, toI32(b, blocking), gpu::AllReduceOperation::MAXUI,
            /*uniform=*/true);
        Value ready = cmpI(b, loc, arith::CmpIPredicate::eq, anyBlocking, c32(0));
        // The window's total, later lanes (earlier tiles) first.
        MaybeValue x{value, upToK};
        for (int32_t off = 1; off < 32; off *= 2) {
          auto yv = gpu::ShuffleOp::create(b, loc, x.value, off, 32,
                                           gpu::ShuffleMode::DOWN);
          auto yp = gpu::ShuffleOp::create(b, loc, toI32(b, x.present), off, 32,
                                           gpu::ShuffleMode::DOWN);
          Value has = arith::AndIOp::create(
              b, loc,
              cmpI(b, loc, arith::CmpIPredicate::ult,
                   arith::AddIOp::create(b, loc, lane, cIndex(b, loc, off)),
                   cIndex(b, loc, 32)),
              cmpI(b, loc, arith::CmpIPredicate::ne, yp.getShuffleResult(),
                   c32(0)));
          x = emitCombineMaybe(b, loc, combiner, {yv.getShuffleResult(), has}, x);
        }
        auto tv = gpu::ShuffleOp::create(b, loc, x.value, 0, 32,
                                         gpu::ShuffleMode::IDX);
        auto tp = gpu::ShuffleOp::create(b, loc, toI32(b, x.present), 0, 32,
                                         gpu::ShuffleMode::IDX);
        MaybeValue total{tv.getShuffleResult(),
                         cmpI(b, loc, arith::CmpIPredicate::ne,
                              tp.getShuffleResult(), c32(0))};
        MaybeValue next = emitCombineMaybe(b, loc, combiner, total, acc);
        Value found = cmpI(b, loc, arith::CmpIPredicate::ult, k, c32(32));
        Value done = arith::AndIOp::create(b, loc, ready, found);
        Value advance = arith::AndIOp::create(
            b, loc, ready,
            arith::XOrIOp::create(b, loc, found,
                                  arith::ConstantIntOp::create(b, loc, 1, 1)));
        Value accV = arith::SelectOp::create(b, loc, ready, next.value, acc.value);
        Value accP =
            arith::SelectOp::create(b, loc, ready, next.present, acc.present);
        Value nextJ = arith::SelectOp::create(
            b, loc, advance, arith::SubIOp::create(b, loc, j, cIndex(b, loc, 32)),
            j);
        Value more = arith::XOrIOp::create(
            b, loc, done, arith::ConstantIntOp::create(b, loc, 1, 1));
        scf::ConditionOp::create(b, loc, more, ValueRange{nextJ, accV, accP});
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        scf::YieldOp::create(b, loc, args);
      });
  return look.getResult(1); // present: tile 0 is inclusive
}

/// Decoupled look-back: one block per tile of a single row.
void emitLookback(OpBuilder &b, Location loc, func::FuncOp kernel,
                  const GridScanPlan &p) {
  ScanOp scan = p.scan;
  Region &combiner = scan.getRegion();
  Type e = cast<MemRefType>(p.input.getType()).getElementType();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  bool inclusive = scan.getInclusive();
  int64_t tileSize = kThreads * kItems;
  int64_t tiles = llvm::divideCeil(p.length, tileSize);
  int64_t fullTiles = p.length / tileSize;
  // A single row: index 0 in every leading (unit) dimension.
  SmallVector<Value> rowIndices(p.rowShape.size(), cIndex(b, loc, 0));
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warpTotals =
      workgroupBuffer(b, loc, kernel, "_scan_warps", {kThreads / 32}, e);
  Value shared =
      workgroupBuffer(b, loc, kernel, "_scan_tile", {2}, i64);
  Value c0 = cIndex(b, loc, 0);
  Value isThread0 = cmpI(b, loc, arith::CmpIPredicate::eq, tid, c0);
  // Tile ids in launch order: a block only waits for blocks that started.
  {
    auto ticket = scf::IfOp::create(b, loc, isThread0, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ticket.thenBlock()->getTerminator());
    Value one = arith::ConstantIntOp::create(b, loc, 1, 64);
    Value id = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                           one, p.workspace,
                                           ValueRange{cIndex(b, loc, tiles)});
    memref::StoreOp::create(b, loc, id, shared, ValueRange{c0});
  }
  gpu::BarrierOp::create(b, loc);
  // Modulo the tile count: a workspace that was not zeroed (a dispatch
  // re-run alone, as tessel-bench's per-dispatch timing does) gives wrong
  // sums but never an access out of bounds.
  Value tileId = arith::RemUIOp::create(
      b, loc,
      arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          memref::LoadOp::create(b, loc, shared, ValueRange{c0})),
      cIndex(b, loc, tiles));
  Value seed = inclusive ? Value() : seedFor(b, loc, p, rowIndices);

  auto emitTile = [&](OpBuilder &b, Location loc, bool full) {
    Value start = arith::MulIOp::create(b, loc, tileId, cIndex(b, loc, tileSize));
    ScanTile tile{p.input, p.output, rowIndices, start, p.length, kItems,
                  kThreads, full};
    ScannedTile scanned = emitScanTile(b, loc, combiner, tile, tid, warpTotals);
    Value aggregate = scanned.block.total;
    // Warp 0 looks back (lane 0 publishes); the prefix goes to shared memory.
    Value isWarp0 = cmpI(b, loc, arith::CmpIPredicate::ult, tid, cIndex(b, loc, 32));
    auto lead = scf::IfOp::create(b, loc, isWarp0, false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(lead.thenBlock()->getTerminator());
      auto publish = [&](OpBuilder &b, Location loc, int64_t flag, Value v) {
        auto only = scf::IfOp::create(b, loc, isThread0, false);
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPoint(only.thenBlock()->getTerminator());
        memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::assign,
                                    packStatus(b, loc, flag, v), p.workspace,
                                    ValueRange{tileId});
      };
      Value isFirst = cmpI(b, loc, arith::CmpIPredicate::eq, tileId, c0);
      auto branch = scf::IfOp::create(b, loc, TypeRange{e}, isFirst, true);
      {
        b.setInsertionPoint(branch.thenBlock(), branch.thenBlock()->end());
        Value incl = inclusive ? aggregate
                               : emitCombine(b, loc, combiner, seed, aggregate);
        publish(b, loc, kInclusive, incl);
        Value prefix = inclusive ? aggregate : seed; // unused when inclusive
        scf::YieldOp::create(b, loc, prefix);
      }
      {
        b.setInsertionPoint(branch.elseBlock(), branch.elseBlock()->end());
        publish(b, loc, kAggregate, aggregate);
        Value prefix = emitWarpLookback(b, loc, combiner, p.workspace, tileId,
                                        tid, e);
        Value incl = emitCombine(b, loc, combiner, prefix, aggregate);
        publish(b, loc, kInclusive, incl);
        scf::YieldOp::create(b, loc, prefix);
      }
      b.setInsertionPoint(lead.thenBlock()->getTerminator());
      auto store = scf::IfOp::create(b, loc, isThread0, false);
      b.setInsertionPoint(store.thenBlock()->getTerminator());
      Value prefix = branch.getResult(0);
      Value bits = e == i32 ? prefix
                            : arith::BitcastOp::create(b, loc, i32, prefix)
                                  .getResult();
      memref::StoreOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, bits),
                              shared, ValueRange{cIndex(b, loc, 1)});
    }
    gpu::BarrierOp::create(b, loc);
    Value bits = arith::TruncIOp::create(
        b, loc, i32, memref::LoadOp::create(b, loc, shared, ValueRange{cIndex(b, loc, 1)}));
    Value prefix = e == i32 ? bits
                            : arith::BitcastOp::create(b, loc, e, bits).getResult();
    // Inclusive scans have no prefix before tile 0.
    Value present = inclusive
                        ? cmpI(b, loc, arith::CmpIPredicate::ne, tileId, c0)
                        : arith::ConstantIntOp::create(b, loc, 1, 1).getResult();
    auto last = emitStoreScanTile(b, loc, combiner, tile, tid, scanned,
                                  {prefix, present}, inclusive);
    storeTotal(b, loc, p, rowIndices, last);
  };
  if (fullTiles == tiles) {
    emitTile(b, loc, /*full=*/true);
  } else if (fullTiles == 0) {
    emitTile(b, loc, /*full=*/false);
  } else {
    auto isFull = scf::IfOp::create(
        b, loc, cmpI(b, loc, arith::CmpIPredicate::ult, tileId,
                     cIndex(b, loc, fullTiles)),
        true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(isFull.thenBlock()->getTerminator());
    emitTile(b, loc, true);
    b.setInsertionPoint(isFull.elseBlock()->getTerminator());
    emitTile(b, loc, false);
  }
  setKernelLaunch(kernel, {tiles, 1, 1}, {kThreads, 1, 1});
}

} // namespace

bool mlir::tessel::canUseGridScan(func::FuncOp kernel, ScanOp scan,
                                  std::string &why) {
  return succeeded(plan(kernel, scan, why));
}

std::string mlir::tessel::describeGridScan(ScanOp scan) {
  auto type = cast<RankedTensorType>(scan.getInput().getType());
  std::string out = scan.getInputs().size() == 2
                        ? "grid scan: decoupled look-back, a block per tile "
                          "of 4096"
                        : "grid scan: a block per row, tiles of 4096";
  out += " (256 threads x 16 items; warp shuffles, shared memory), " +
         std::to_string(type.getShape().back()) + " elements per row";
  return out;
}

LogicalResult mlir::tessel::emitGridScan(func::FuncOp kernel, ScanOp scan) {
  std::string why;
  FailureOr<GridScanPlan> p = plan(kernel, scan, why);
  if (failed(p))
    return scan.emitOpError("grid scan: ") << why;
  OpBuilder b(scan);
  Location loc = scan.getLoc();
  if (p->workspace)
    emitLookback(b, loc, kernel, *p);
  else
    emitBlockPerRow(b, loc, kernel, *p);
  // The tensor computation is now dead.
  for (auto store : p->stores)
    store.erase();
  return success();
}
