//===- SinkThreadLoops.h - thread loops into uniform loops ----------------===//
//
// See lib/Transpile/SinkThreadLoops.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_SINKTHREADLOOPS_H
#define TESSEL_TRANSPILE_SINKTHREADLOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::tessel {

/// Which loops the thread loops move into.
struct SinkThreadLoopsOptions {
  /// Loops that carry nothing but uniform values (a row loop of a tile copy).
  bool uniformLoops = true;
  /// Loops that also carry per-thread values: inductions (`c += xy`), put
  /// in closed form, and others (a rotation of loaded values), kept in
  /// per-thread slots.
  bool carriedValues = true;
  /// The cut rule of splitThreadLoopBefore.
  bool minCut = true;
};

/// Moves barrier-free thread loop `threads` inside the first loop of its
/// body that `options` admits, that holds no loop, that every thread runs
/// alike once its per-thread values are in closed form or in slots, and
/// whose accesses are more often contiguous across threads than along the
/// loop (ops before it with effects stay in a thread loop of their own).
/// Returns whether the IR changed; `threads` is then erased.
bool sinkThreadLoop(scf::ParallelOp threads, const SinkThreadLoopsOptions &options = {});

/// tessel-sink-thread-loops for the loops `options` admits (the pipeline's
/// choice; the registered pass admits both kinds).
std::unique_ptr<Pass> createSinkThreadLoopsPass(const SinkThreadLoopsOptions &options);

} // namespace mlir::tessel

#endif
