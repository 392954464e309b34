//===- SinkThreadLoops.h - thread loops into uniform loops ----------------===//
//
// See lib/Transpile/SinkThreadLoops.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_SINKTHREADLOOPS_H
#define TESSEL_TRANSPILE_SINKTHREADLOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tessel {

/// Moves barrier-free thread loop `threads` inside the first uniform loop
/// of its body that holds no loop and whose accesses are more often
/// contiguous across threads than along the loop (ops before it with
/// effects stay in a thread loop of their own). Returns whether the IR
/// changed; `threads` is then erased.
bool sinkThreadLoop(scf::ParallelOp threads);

} // namespace mlir::tessel

#endif
