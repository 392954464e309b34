//===- GridScan.cpp - the grid level of a scan (GPU strategy) --*- C++ -*-===//
//
// See GridScan.h. The kernel is emitted directly on the binding memrefs:
// the scan's input is a binding or computed per element from bindings (a
// fused producer), its results and those of its fused neighbours are
// stored into bindings, and everything else in the kernel dies with the
// tensor ops.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/GridScan.h"

#include "tessel/Codegen/Common/CloneGenericBody.h"
#include "tessel/Codegen/GPU/GPUWarpReduction.h"
#include "tessel/Codegen/Primitives/GridScatter.h"
#include "tessel/Codegen/Primitives/ScanLevels.h"
#include "tessel/Dispatch/ScanGroups.h"

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

/// The scan group's ops evaluated per element (fuse-primitives).
struct FusedNeighbours {
  ScanGroup group;
  /// Element values stored into bindings at their element.
  SmallVector<std::pair<Value, Value>> stored; // (tensor, memref)
  Value scatterOutput;                         // memref
  std::optional<arith::AtomicRMWKind> atomic;
};

struct GridScanPlan {
  ScanOp scan;
  /// The bindings read at every element: the scan's input, or its fused
  /// producer's inputs.
  SmallVector<Value> streams, streamTensors;
  Value output, accumulator, workspace; // memrefs; output, acc may be null
  SmallVector<bufferization::MaterializeInDestinationOp> stores;
  /// Exclusive scans: the seed, a constant or per-row values in a binding.
  TypedAttr seedConstant;
  Value seedMemRef;
  SmallVector<int64_t> rowShape;
  int64_t length = 0;
  FusedNeighbours fused;
  bool isFused() const { return fused.group.hasNeighbours(); }
};

/// Whether `v` is read from a binding (the group's `isExternal` in a
/// kernel).
bool isBinding(Value v) { return bool(bindingMemRef(v)); }

/// The binding store of `v` among its uses (fused values also have uses
/// in the kernel), or null.
bufferization::MaterializeInDestinationOp storeOf(Value v) {
  for (Operation *user : v.getUsers())
    if (auto store = dyn_cast<bufferization::MaterializeInDestinationOp>(user))
      if (store.getSource() == v)
        return store;
  return {};
}

/// Plans the scan group's neighbours in `kernel`: every use of a value it
/// computes is another op of the group or a binding store.
LogicalResult planNeighbours(GridScanPlan &p, std::string &why) {
  ScanGroup group = findScanGroup(p.scan, isBinding);
  FusedNeighbours &f = p.fused;
  f.group = group;
  if (!group.hasNeighbours())
    return success();
  SmallVector<Operation *> ops = group.ops();
  for (Value v : group.elementValues()) {
    for (Operation *user : v.getUsers())
      if (!llvm::is_contained(ops, user) &&
          !isa<bufferization::MaterializeInDestinationOp>(user)) {
        why = "a value of the fused scan is used by '" +
              user->getName().getStringRef().str() +
              "', not by an elementwise op, a scatter or a store";
        return failure();
      }
    if (auto store = storeOf(v)) {
      f.stored.push_back({v, store.getDest()});
      p.stores.push_back(store);
    }
  }
  if (group.scatter) {
    auto store = bindingStore(group.scatter.getResult(0));
    if (!store) {
      why = "the fused scatter's result is not stored into a binding";
      return failure();
    }
    f.scatterOutput = store.getDest();
    f.atomic = scatterAtomicKind(group.scatter);
    p.stores.push_back(store);
  }
  return success();
}

FailureOr<GridScanPlan> plan(func::FuncOp kernel, ScanOp scan,
                             std::string &why) {
  GridScanPlan p;
  p.scan = scan;
  why = scanGroupBlocker(scan, isBinding);
  if (!why.empty())
    return failure();
  auto type = cast<RankedTensorType>(scan.getInput().getType());
  p.length = type.getShape().back();
  p.rowShape.assign(type.getShape().begin(), type.getShape().end() - 1);
  if (failed(planNeighbours(p, why)))
    return failure();
  if (linalg::GenericOp producer = p.fused.group.producer) {
    for (Value in : producer.getDpsInputs())
      if (!llvm::is_contained(p.streamTensors, in)) {
        p.streamTensors.push_back(in);
        p.streams.push_back(bindingMemRef(in));
      }
  } else if (Value input = bindingMemRef(scan.getInput())) {
    p.streamTensors.push_back(scan.getInput());
    p.streams.push_back(input);
  } else {
    why = "the input is computed in the kernel, not read from a binding or "
          "by an elementwise op of bindings";
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
  if (!p.isFused()) {
    auto outStore = bindingStore(scan.getResult(0));
    if (!outStore) {
      why = "the scan's output is not stored into a binding";
      return failure();
    }
    p.output = outStore.getDest();
    p.stores.push_back(outStore);
  } else if (p.fused.stored.size() == 1 && !p.fused.group.scatter &&
             p.fused.stored.front().first == scan.getResult(0)) {
    // Only a producer fused: the scan's output stored as usual.
    p.output = p.fused.stored.front().second;
  }
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
  return p;
}

/// Values of the scanned shape at one element: what was loaded or
/// computed there already, more bindings loaded and generics of the group
/// evaluated on demand.
struct ElementValues {
  ValueRange indices;
  DenseMap<Value, Value> known;

  Value get(OpBuilder &b, Location loc, Value tensor) {
    if (auto it = known.find(tensor); it != known.end())
      return it->second;
    Value v;
    if (Value mem = bindingMemRef(tensor)) {
      v = memref::LoadOp::create(b, loc, mem, indices);
    } else {
      auto result = cast<OpResult>(tensor);
      auto generic = cast<linalg::GenericOp>(result.getOwner());
      SmallVector<Value> inputs;
      for (Value in : generic.getDpsInputs())
        inputs.push_back(get(b, loc, in));
      IRMapping mapping;
      mapping.map(generic.getBody()->getArguments().take_front(inputs.size()),
                  inputs);
      SmallVector<Value> outs =
          cloneGenericBody(b, *generic.getBody(), mapping,
                           llvm::to_vector(indices));
      for (auto [r, o] : llvm::zip(generic->getResults(), outs))
        known[r] = o;
      v = outs[result.getResultNumber()];
    }
    known[tensor] = v;
    return v;
  }
};

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

/// A tile of the plan's row at `rowIndices` from `start`: the streams
/// loaded, the scan's item computed from them (a fused producer), results
/// stored into the output (see attachStore for fused neighbours).
ScanTile makeTile(const GridScanPlan &p, ValueRange rowIndices, Value start,
                  bool full) {
  ScanTile tile;
  tile.streams = p.streams;
  if (p.fused.group.producer) {
    tile.item = [&p](OpBuilder &b, Location loc, ArrayRef<Value> values,
                     ValueRange indices) {
      ElementValues element;
      element.indices = indices;
      for (auto [t, v] : llvm::zip(p.streamTensors, values))
        element.known[t] = v;
      ScanOp scan = p.scan;
      return element.get(b, loc, scan.getInput());
    };
  }
  tile.output = p.output;
  tile.rowIndices.assign(rowIndices.begin(), rowIndices.end());
  tile.tileStart = start;
  tile.rowLength = p.length;
  tile.items = kItems;
  tile.threads = kThreads;
  tile.full = full;
  return tile;
}

/// For a fused scan whose results go elsewhere than the scan's output:
/// each element's stored values and scatter update, evaluated from what
/// the thread loaded and scanned (`scanned`, which must outlive the tile).
void attachStore(ScanTile &tile, const GridScanPlan &p,
                 const ScannedTile &scanned) {
  if (p.output)
    return;
  tile.store = [&p, &scanned](OpBuilder &b, Location loc, int64_t j,
                              ValueRange indices, Value out) {
    const ScanGroup &group = p.fused.group;
    ScanOp scan = p.scan;
    ElementValues element;
    element.indices = indices;
    for (auto [t, v] : llvm::zip(p.streamTensors, scanned.loaded[j]))
      element.known[t] = v;
    if (group.producer)
      element.known[scan.getInput()] = scanned.items[j];
    element.known[scan.getResult(0)] = out;
    for (auto [tensor, mem] : p.fused.stored)
      memref::StoreOp::create(b, loc, element.get(b, loc, tensor), mem,
                              indices);
    ScatterOp scatter = group.scatter;
    if (!scatter)
      return;
    Value update = element.get(b, loc, scatter.getUpdates());
    Value raw = element.get(b, loc, scatter.getIndices());
    Value at = raw.getType().isIndex()
                   ? raw
                   : arith::IndexCastOp::create(b, loc, b.getIndexType(), raw)
                         .getResult();
    int64_t size =
        cast<MemRefType>(p.fused.scatterOutput.getType()).getShape()[0];
    // Out of range: skipped (the scatter's rule).
    Value inRange = arith::AndIOp::create(
        b, loc, cmpI(b, loc, arith::CmpIPredicate::sge, at, cIndex(b, loc, 0)),
        cmpI(b, loc, arith::CmpIPredicate::slt, at, cIndex(b, loc, size)));
    auto guard = scf::IfOp::create(b, loc, inRange, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    emitScatterCombine(b, loc, scatter, p.fused.scatterOutput, at, update,
                       p.fused.atomic);
  };
}

/// A block per row, tiles walked in order with the running value carried.
void emitBlockPerRow(OpBuilder &b, Location loc, func::FuncOp kernel,
                     const GridScanPlan &p) {
  ScanOp scan = p.scan;
  Region &combiner = scan.getRegion();
  Type e = getElementTypeOrSelf(scan.getInput().getType());
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
  if (fullTiles > 0) {
    auto loop = scf::ForOp::create(
        b, loc, cIndex(b, loc, 0), cIndex(b, loc, fullTiles * tileSize),
        cIndex(b, loc, tileSize), ValueRange{carry.value, carry.present},
        [&](OpBuilder &b, Location loc, Value start, ValueRange iter) {
          ScanTile tile = makeTile(p, rowIndices, start, /*full=*/true);
          ScannedTile scanned =
              emitScanTile(b, loc, combiner, tile, tid, warpTotals);
          attachStore(tile, p, scanned);
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
    ScanTile tile =
        makeTile(p, rowIndices, cIndex(b, loc, fullTiles * tileSize), false);
    ScannedTile scanned = emitScanTile(b, loc, combiner, tile, tid, warpTotals);
    attachStore(tile, p, scanned);
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
  Type e = getElementTypeOrSelf(scan.getInput().getType());
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
    ScanTile tile = makeTile(p, rowIndices, start, full);
    ScannedTile scanned = emitScanTile(b, loc, combiner, tile, tid, warpTotals);
    attachStore(tile, p, scanned);
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

ScanOp mlir::tessel::findFusedScan(func::FuncOp kernel) {
  for (auto scan : kernel.getBody().front().getOps<ScanOp>())
    if (findScanGroup(scan, isBinding).hasNeighbours())
      return scan;
  return {};
}

std::string mlir::tessel::describeGridScan(ScanOp scan) {
  auto type = cast<RankedTensorType>(scan.getInput().getType());
  std::string out = scan.getInputs().size() == 2
                        ? "grid scan: decoupled look-back, a block per tile "
                          "of 4096"
                        : "grid scan: a block per row, tiles of 4096";
  out += " (256 threads x 16 items; warp shuffles, shared memory), " +
         std::to_string(type.getShape().back()) + " elements per row";
  ScanGroup group = findScanGroup(scan, isBinding);
  if (group.hasNeighbours()) {
    SmallVector<std::string> parts;
    if (group.producer)
      parts.push_back("its producer");
    if (!group.consumers.empty())
      parts.push_back(std::to_string(group.consumers.size()) +
                      " elementwise consumer(s)");
    if (group.scatter)
      parts.push_back("a scatter of its elements");
    out += "; fused in registers: " + llvm::join(parts, ", ");
  }
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
