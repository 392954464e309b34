//===- GridScan.h - GPU strategy for tessel.scan ----------------*- C++ -*-===//
//
// The grid level of a scan along the innermost (contiguous) dimension:
//  - a block per row: each block walks its row in tiles of 256 threads x 16
//    items, carrying the running value from tile to tile;
//  - decoupled look-back (Merrill & Garland), for a scan with a look-back
//    workspace (tessel-add-primitive-workspaces): one block per tile, taken in
//    launch order from a ticket counter; each block publishes its tile's
//    aggregate, looks back over its predecessors' published values until
//    one carries an inclusive prefix, and publishes its own inclusive
//    prefix. One pass over the data: n reads and n writes.
// Tiles are scanned by the workgroup level (ScanLevels.h). Elementwise
// neighbours in the scan's dispatch (a producer, consumers, a scatter of
// the row's elements; Dispatch/ScanGroups.h) are evaluated per element in
// registers: the producer as the tile is loaded, the rest as it is
// stored, so that stream compaction reads its input once.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_GRIDSCAN_H
#define TESSEL_CODEGEN_PRIMITIVES_GRIDSCAN_H

#include "tessel/Dialect/Tessel/PrimitiveContract.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {

/// The scan of `kernel` that has elementwise neighbours in it
/// (tessel-form-dispatches{fuse-primitives}, Dispatch/ScanGroups.h: a
/// producer, consumers, a scatter), or null. Such a kernel has no other
/// strategy: where the grid scan does not apply, emitting it says why.
ScanOp findFusedScan(func::FuncOp kernel);

/// Whether `scan`, the root of `kernel`, can run as a grid scan; if not,
/// `why` says why.
bool canUseGridScan(func::FuncOp kernel, ScanOp scan, std::string &why);

/// One line for --tessel-print-strategy.
std::string describeGridScan(ScanOp scan);

/// Emits the kernel on the bindings and sets its launch size.
LogicalResult emitGridScan(func::FuncOp kernel, ScanOp scan);

} // namespace mlir::tessel

#endif
