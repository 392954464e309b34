//===- PrefetchNextBlock.h - the next block's tile, prefetched ------------===//
//
// See lib/Transpile/PrefetchNextBlock.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_PREFETCHNEXTBLOCK_H
#define TESSEL_TRANSPILE_PREFETCHNEXTBLOCK_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tessel {

/// In the block loop `blocks` (barrier-free thread loops), after the
/// staging loops that open the block (thread loops copying global memory
/// into the block's own arrays), prefetches what those loops will load for
/// the block the same CPU thread runs next (blockIdx.x + 1, or the next
/// row of blocks). Returns the number of staging loops copied as
/// prefetches (0: the block does not start with such loops, or their
/// addresses depend on loaded values).
unsigned prefetchNextBlock(scf::ParallelOp blocks);

} // namespace mlir::tessel

#endif
