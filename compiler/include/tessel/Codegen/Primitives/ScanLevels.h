//===- ScanLevels.h - a scan built level by level --------------*- C++ -*-===//
//
// The scan of the primitives document, one builder per level:
//   element   (Element/ThreadScan.cpp)      a thread's items in registers,
//   subgroup  (Subgroup/SubgroupScan.cpp)   shuffles across a warp,
//   workgroup (Workgroup/WorkgroupScan.cpp) warp totals through shared
//                                           memory; a tile of a block,
//   grid      (Grid/GridScan.cpp)           a block per row, or decoupled
//                                           look-back across blocks.
// Each level uses only the one below it. The combiner is the scan op's
// region, cloned wherever two values combine, so any associative combiner
// works; no identity element is needed: values that may be absent carry a
// presence flag instead (MaybeValue).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_SCANLEVELS_H
#define TESSEL_CODEGEN_PRIMITIVES_SCANLEVELS_H

#include "tessel/Dialect/Tessel/PrimitiveContract.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Region.h"

#include <functional>

namespace mlir::tessel {

/// A value that may be absent: `value` means something only where
/// `present` (i1) is true.
struct MaybeValue {
  Value value;
  Value present;
};

//===--- element ----------------------------------------------------------===//

/// combine(lhs, rhs): the body of `combiner` cloned at the insertion point.
Value emitCombine(OpBuilder &b, Location loc, Region &combiner, Value lhs,
                  Value rhs);

/// combine(lhs, rhs) where either may be absent.
MaybeValue emitCombineMaybe(OpBuilder &b, Location loc, Region &combiner,
                            MaybeValue lhs, MaybeValue rhs);

/// Inclusive scan of `items` (one thread's registers, in order).
SmallVector<Value> emitThreadInclusiveScan(OpBuilder &b, Location loc,
                                           Region &combiner,
                                           ArrayRef<Value> items);

//===--- subgroup ---------------------------------------------------------===//

/// Inclusive scan of `x` across the 32 lanes of a warp (Kogge-Stone with
/// gpu.shuffle up); `lane` is the lane id (index).
Value emitSubgroupInclusiveScan(OpBuilder &b, Location loc, Region &combiner,
                                Value x, Value lane);

/// The exclusive value of each lane from the inclusive scan (absent on
/// lane 0).
MaybeValue emitSubgroupExclusive(OpBuilder &b, Location loc, Value inclusive,
                                 Value lane);

//===--- workgroup --------------------------------------------------------===//

struct WorkgroupScanResult {
  /// combine of the totals of the threads before this one (absent for
  /// thread 0).
  MaybeValue exclusive;
  /// combine of every thread's total (the same in every thread).
  Value total;
};

/// Scans one value per thread across a block of `threads` threads (a
/// multiple of 32, thread id `tid`), through `warpTotals`, a workgroup
/// memref of threads/32 elements. Ends with a barrier, so the buffer can
/// be reused at once.
WorkgroupScanResult emitWorkgroupScan(OpBuilder &b, Location loc,
                                      Region &combiner, Value threadTotal,
                                      Value tid, int64_t threads,
                                      Value warpTotals);

/// One tile of a row: `threads` threads with `items` consecutive elements
/// each, starting at `tileStart` of the row at `rowIndices` (every index
/// but the last).
struct ScanTile {
  /// Memrefs of the scanned shape read at every element of the tile; the
  /// scanned item of an element is `item` of their values there (null: the
  /// first stream's value).
  SmallVector<Value> streams;
  std::function<Value(OpBuilder &, Location, ArrayRef<Value> values,
                      ValueRange indices)>
      item;
  /// Where the scan's values go: `output` (128-bit stores when the tile is
  /// whole), or, when `store` is set, `store` called for each element in
  /// the row with its item number, indices and scanned value.
  Value output;
  std::function<void(OpBuilder &, Location, int64_t item, ValueRange indices,
                     Value scanned)>
      store;
  SmallVector<Value> rowIndices;
  Value tileStart;
  int64_t rowLength, items, threads;
  /// Every element of the tile is in the row (else loads clamp and stores
  /// are guarded).
  bool full;
};

/// What a thread holds after scanning its part of a tile.
struct ScannedTile {
  SmallVector<SmallVector<Value>> loaded; // per item: the streams' values
  SmallVector<Value> items;               // per item: the scanned item
  SmallVector<Value> inclusive;           // the thread's items, scanned
  WorkgroupScanResult block;              // across the block
};

/// Loads the tile and scans it within the block.
ScannedTile emitScanTile(OpBuilder &b, Location loc, Region &combiner,
                         const ScanTile &tile, Value tid, Value warpTotals);

/// Stores the tile's results given the combine of everything before the
/// tile (`tilePrefix`; absent only for the first tile of an inclusive
/// scan). Returns this thread's inclusive value of its last valid item
/// and whether the row's last element is among its items.
std::pair<Value, Value> emitStoreScanTile(OpBuilder &b, Location loc,
                                          Region &combiner,
                                          const ScanTile &tile, Value tid,
                                          const ScannedTile &scanned,
                                          MaybeValue tilePrefix,
                                          bool inclusive);

} // namespace mlir::tessel

#endif
