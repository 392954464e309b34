//===- ScanGroups.h - a scan and its elementwise neighbours ----*- C++ -*-===//
//
// A scan group is a tessel.scan with the elementwise ops around it that one
// kernel can evaluate element by element in registers while it scans
// (tessel-form-dispatches{fuse-primitives}, Grid/GridScan.cpp):
//  - a producer: the elementwise generic that computes the scan's input
//    (a predicate, x * x, ...);
//  - consumers: elementwise generics reading, element for element, the
//    scan's output, the producer's or an earlier consumer's (positions
//    from a scan of flags, a normalisation of a cumsum, ...);
//  - one scatter whose updates and indices are such values or tensors of
//    the scanned shape from outside, into an empty destination (stream
//    compaction, partition).
// Every value the group reads and does not compute comes from outside
// (`isExternal`: a binding in a kernel, another dispatch's result or an
// argument in a host program). This header is the one definition of what
// may be grouped, shared by dispatch formation and codegen.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DISPATCH_SCANGROUPS_H
#define TESSEL_DISPATCH_SCANGROUPS_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tessel {

/// An all-parallel generic over exactly `shape` whose operands are all read
/// and written with identity maps, whose outputs' initial values are
/// unused and whose body is scalar arith/math (and linalg.index): the ops
/// a scan kernel evaluates per element.
bool isRowElementwise(linalg::GenericOp op, ArrayRef<int64_t> shape);

struct ScanGroup {
  ScanOp scan;
  linalg::GenericOp producer; // may be null
  SmallVector<linalg::GenericOp> consumers;
  ScatterOp scatter; // may be null

  /// Whether anything besides the scan is in the group.
  bool hasNeighbours() const {
    return producer || !consumers.empty() || scatter;
  }
  /// The ops of the group in block order.
  SmallVector<Operation *> ops() const;
  /// Tensors of the scanned shape the group computes per element: the
  /// producer's result, the scan's output and the consumers' results.
  SmallVector<Value> elementValues() const;
};

/// Why `scan` cannot head a fused scan kernel (element type, dimension,
/// combiner, seed), or an empty string.
std::string scanGroupBlocker(ScanOp scan,
                             llvm::function_ref<bool(Value)> isExternal);

/// The group around `scan`, searched among the ops of its block: its
/// input's producer when every tensor that producer reads is external, then
/// consumers and a scatter after it whose other operands are external.
/// Uses outside the group are not checked here (a caller that moves the
/// group must); the group may have no neighbours.
ScanGroup findScanGroup(ScanOp scan,
                        llvm::function_ref<bool(Value)> isExternal);

} // namespace mlir::tessel

#endif
