//===- PrimitiveTiling.h - how primitive ops split across workers -*- C++ -*-===//
//
// The parallel loops of a primitive op (every loop but the one it scans,
// sorts or reduces, and a scatter's batch loops) split across GPU blocks
// and threads or CPU workgroups; each worker then runs the element-level
// loops (LowerPrimitivesToLoops) for its points.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_PRIMITIVETILING_H
#define TESSEL_CODEGEN_PRIMITIVES_PRIMITIVETILING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace mlir::tessel {

struct PrimitiveTiles {
  /// Per loop: tile of a GPU block or CPU workgroup (0 = whole loop).
  SmallVector<int64_t> outer;
  /// Per loop: tile of a GPU thread inside the block tile (0 = not split).
  SmallVector<int64_t> inner;
  /// What each worker runs, for --tessel-print-strategy.
  std::string strategy;
};

/// The primitive op (scan, gather, ...) whose results every output binding
/// of `kernel` stores, or null.
Operation *findPrimitiveRoot(func::FuncOp kernel);

/// GPU: one thread per point of the innermost parallel loop (up to 128 in
/// a block), one block per point of up to two loops further out.
PrimitiveTiles getGPUPrimitiveTiles(Operation *primitive);

/// CPU: workgroups over the parallel loops, each with about 64K element
/// steps of work.
PrimitiveTiles getCPUPrimitiveTiles(Operation *primitive);

} // namespace mlir::tessel

#endif
