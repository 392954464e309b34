//===- GridBarrier.h - a barrier across a persistent grid -------*- C++ -*-===//
//
// The grid level's synchronisation for kernels whose blocks are all
// resident at once (persistent grids): every block's thread 0 releases
// the block's writes (membar.gl), adds one to a counter in global memory
// (a workspace zeroed by its own dispatch before the kernel) and polls it
// until every block of the launched grid (gridDim.x: the runtime sizes a
// persistent grid to the GPU that runs it) has arrived, then acquires. A
// kernel may cross several barriers on one counter: barrier g (from 1)
// waits for g * gridDim.x arrivals. A barrier that waits too long (a grid
// with more blocks than the GPU holds at once) traps, a launch failure
// that the runtime reports, instead of hanging.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PRIMITIVES_GRIDBARRIER_H
#define TESSEL_CODEGEN_PRIMITIVES_GRIDBARRIER_H

#include "mlir/IR/Builders.h"

namespace mlir::tessel {

/// Barrier number `generation` (1, 2, ...) of the launched grid on the
/// integer element `counter[at]` (a global memref); `tid` is the thread id
/// in the block (index).
void emitGridBarrier(OpBuilder &b, Location loc, Value counter, Value at,
                     Value tid, int64_t generation);

} // namespace mlir::tessel

#endif
