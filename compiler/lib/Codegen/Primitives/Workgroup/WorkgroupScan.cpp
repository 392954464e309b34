//===- WorkgroupScan.cpp - the workgroup level of a scan -------*- C++ -*-===//
//
// A block scans one value per thread: each warp scans its lanes
// (subgroup level), lane 31 leaves the warp's total in shared memory,
// warp 0 scans those totals, and every thread combines its warp's prefix
// with its own exclusive value (raking over warps, Brent-Kung depth at
// each level). A tile is `items` consecutive elements per thread, loaded
// as 128-bit vectors when the tile is whole, scanned in registers (element
// level) and then across the block.
//
//===----------------------------------------------------------------------===//

#include "tessel/Codegen/Primitives/ScanLevels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr int64_t kWarpSize = 32;
constexpr int64_t kVectorBytes = 16;

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value l,
          Value r) {
  return arith::CmpIOp::create(b, loc, p, l, r);
}

/// Elements of `memref` per 128-bit vector, or 1 when the tile's rows
/// cannot be read with aligned vectors (row length not a multiple of the
/// vector).
int64_t vectorWidth(const ScanTile &tile, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  int64_t width = kVectorBytes / std::max<int64_t>(1, bytes);
  if (width <= 1 || tile.items % width != 0 ||
      (type.getRank() > 1 && tile.rowLength % width != 0))
    return 1;
  return width;
}

SmallVector<Value> at(const ScanTile &tile, Value column) {
  SmallVector<Value> indices(tile.rowIndices);
  indices.push_back(column);
  return indices;
}

} // namespace

WorkgroupScanResult mlir::tessel::emitWorkgroupScan(OpBuilder &b, Location loc,
                                                    Region &combiner,
                                                    Value threadTotal,
                                                    Value tid, int64_t threads,
                                                    Value warpTotals) {
  int64_t warps = threads / kWarpSize;
  Value lane = arith::RemUIOp::create(b, loc, tid, cIndex(b, loc, kWarpSize));
  Value warp = arith::DivUIOp::create(b, loc, tid, cIndex(b, loc, kWarpSize));
  Value inclusive =
      emitSubgroupInclusiveScan(b, loc, combiner, threadTotal, lane);
  MaybeValue inWarp = emitSubgroupExclusive(b, loc, inclusive, lane);
  if (warps == 1) {
    // The warp's total is lane 31's inclusive value.
    auto last = gpu::ShuffleOp::create(b, loc, inclusive, kWarpSize - 1,
                                       kWarpSize, gpu::ShuffleMode::IDX);
    return {inWarp, last.getShuffleResult()};
  }
  // Lane 31 of each warp leaves the warp's total.
  auto isLast = scf::IfOp::create(
      b, loc, cmp(b, loc, arith::CmpIPredicate::eq, lane,
                  cIndex(b, loc, kWarpSize - 1)),
      false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(isLast.thenBlock()->getTerminator());
    memref::StoreOp::create(b, loc, inclusive, warpTotals, warp);
  }
  gpu::BarrierOp::create(b, loc);
  // Warp 0 scans the warp totals in place.
  auto isWarp0 = scf::IfOp::create(
      b, loc, cmp(b, loc, arith::CmpIPredicate::eq, warp, cIndex(b, loc, 0)),
      false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(isWarp0.thenBlock()->getTerminator());
    // Lanes past the last warp read nothing (their values only reach
    // lanes after them, which are never stored).
    Value inRange =
        cmp(b, loc, arith::CmpIPredicate::ult, lane, cIndex(b, loc, warps));
    auto read = scf::IfOp::create(
        b, loc, inRange,
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(
              b, loc, ValueRange{memref::LoadOp::create(b, loc, warpTotals, lane)});
        },
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(b, loc, ValueRange{threadTotal});
        });
    Value scanned =
        emitSubgroupInclusiveScan(b, loc, combiner, read.getResult(0), lane);
    auto write = scf::IfOp::create(b, loc, inRange, false);
    b.setInsertionPoint(write.thenBlock()->getTerminator());
    memref::StoreOp::create(b, loc, scanned, warpTotals, lane);
  }
  gpu::BarrierOp::create(b, loc);
  Value before = arith::SubIOp::create(
      b, loc, arith::MaxUIOp::create(b, loc, warp, cIndex(b, loc, 1)),
      cIndex(b, loc, 1));
  MaybeValue warpPrefix{
      memref::LoadOp::create(b, loc, warpTotals, before),
      cmp(b, loc, arith::CmpIPredicate::ugt, warp, cIndex(b, loc, 0))};
  Value total =
      memref::LoadOp::create(b, loc, warpTotals, cIndex(b, loc, warps - 1));
  gpu::BarrierOp::create(b, loc);
  return {emitCombineMaybe(b, loc, combiner, warpPrefix, inWarp), total};
}

ScannedTile mlir::tessel::emitScanTile(OpBuilder &b, Location loc,
                                       Region &combiner, const ScanTile &tile,
                                       Value tid, Value warpTotals) {
  Value first = arith::AddIOp::create(
      b, loc, tile.tileStart,
      arith::MulIOp::create(b, loc, tid, cIndex(b, loc, tile.items)));
  ScannedTile scanned;
  scanned.loaded.resize(tile.items);
  SmallVector<Value> columns;
  // Past the row's end, load its last element (the value is never stored
  // and only reaches items after it).
  Value last = cIndex(b, loc, tile.rowLength - 1);
  for (int64_t j = 0; j < tile.items; ++j) {
    Value column = arith::AddIOp::create(b, loc, first, cIndex(b, loc, j));
    if (!tile.full)
      column = arith::MinUIOp::create(b, loc, column, last);
    columns.push_back(column);
  }
  for (Value stream : tile.streams) {
    int64_t width = tile.full ? vectorWidth(tile, stream) : 1;
    if (width == 1) {
      for (int64_t j = 0; j < tile.items; ++j)
        scanned.loaded[j].push_back(
            memref::LoadOp::create(b, loc, stream, at(tile, columns[j])));
      continue;
    }
    auto vecType = VectorType::get(
        {width}, cast<MemRefType>(stream.getType()).getElementType());
    for (int64_t k = 0; k < tile.items; k += width) {
      Value vec = vector::LoadOp::create(b, loc, vecType, stream,
                                         at(tile, columns[k]), false,
                                         llvm::MaybeAlign(kVectorBytes));
      for (int64_t j = 0; j < width; ++j)
        scanned.loaded[k + j].push_back(
            vector::ExtractOp::create(b, loc, vec, j));
    }
  }
  for (int64_t j = 0; j < tile.items; ++j)
    scanned.items.push_back(
        tile.item ? tile.item(b, loc, scanned.loaded[j], at(tile, columns[j]))
                  : scanned.loaded[j].front());
  scanned.inclusive = emitThreadInclusiveScan(b, loc, combiner, scanned.items);
  scanned.block = emitWorkgroupScan(b, loc, combiner, scanned.inclusive.back(),
                                    tid, tile.threads, warpTotals);
  return scanned;
}

std::pair<Value, Value> mlir::tessel::emitStoreScanTile(
    OpBuilder &b, Location loc, Region &combiner, const ScanTile &tile,
    Value tid, const ScannedTile &scanned, MaybeValue tilePrefix,
    bool inclusive) {
  MaybeValue prefix =
      emitCombineMaybe(b, loc, combiner, tilePrefix, scanned.block.exclusive);
  // out[j] and the inclusive value at j.
  SmallVector<Value> outs, inclusiveValues;
  for (int64_t j = 0; j < tile.items; ++j) {
    Value withPrefix =
        emitCombine(b, loc, combiner, prefix.value, scanned.inclusive[j]);
    Value incl = inclusive ? arith::SelectOp::create(b, loc, prefix.present,
                                                     withPrefix,
                                                     scanned.inclusive[j])
                                 .getResult()
                           : withPrefix;
    inclusiveValues.push_back(incl);
    if (inclusive)
      outs.push_back(incl);
    else
      outs.push_back(j == 0 ? prefix.value : inclusiveValues[j - 1]);
  }
  Value first = arith::AddIOp::create(
      b, loc, tile.tileStart,
      arith::MulIOp::create(b, loc, tid, cIndex(b, loc, tile.items)));
  int64_t width =
      tile.full && !tile.store ? vectorWidth(tile, tile.output) : 1;
  if (width > 1) {
    auto vecType = VectorType::get({width}, outs.front().getType());
    for (int64_t k = 0; k < tile.items; k += width) {
      Value column = arith::AddIOp::create(b, loc, first, cIndex(b, loc, k));
      Value vec = vector::FromElementsOp::create(
          b, loc, vecType, ArrayRef<Value>(outs).slice(k, width));
      vector::StoreOp::create(b, loc, vec, tile.output, at(tile, column), false,
                              llvm::MaybeAlign(kVectorBytes));
    }
  } else {
    for (int64_t j = 0; j < tile.items; ++j) {
      Value column = arith::AddIOp::create(b, loc, first, cIndex(b, loc, j));
      OpBuilder::InsertionGuard g(b);
      if (!tile.full) {
        auto guard = scf::IfOp::create(
            b, loc,
            cmp(b, loc, arith::CmpIPredicate::ult, column,
                cIndex(b, loc, tile.rowLength)),
            false);
        b.setInsertionPoint(guard.thenBlock()->getTerminator());
      }
      if (tile.store)
        tile.store(b, loc, j, at(tile, column), outs[j]);
      else
        memref::StoreOp::create(b, loc, outs[j], tile.output, at(tile, column));
    }
  }
  // The row's last element: which thread holds it and its inclusive value.
  Value lastColumn = cIndex(b, loc, tile.rowLength - 1);
  Value end = arith::AddIOp::create(b, loc, first, cIndex(b, loc, tile.items));
  Value owns = arith::AndIOp::create(
      b, loc, cmp(b, loc, arith::CmpIPredicate::ule, first, lastColumn),
      cmp(b, loc, arith::CmpIPredicate::ult, lastColumn, end));
  Value lastJ = arith::SubIOp::create(
      b, loc, arith::MaxUIOp::create(b, loc, lastColumn, first), first);
  Value value = inclusiveValues.back();
  for (int64_t j = 0; j + 1 < tile.items; ++j)
    value = arith::SelectOp::create(
        b, loc, cmp(b, loc, arith::CmpIPredicate::eq, lastJ, cIndex(b, loc, j)),
        inclusiveValues[j], value);
  return {value, owns};
}
