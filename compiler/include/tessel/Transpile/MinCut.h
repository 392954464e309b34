//===- MinCut.h - which values to store across a thread-loop cut ----------===//
//
// When fission cuts a thread loop, each value of the first part used in the
// second is either stored per thread (a store and a load per thread) or
// recomputed in the second part from values that are. Polygeist's rule,
// here: pick the set of stored values of least total size such that every
// value needed after the cut can be recomputed from stored values, thread
// ids and values from outside the loop. That is a minimum vertex cut in the
// graph of the first part's values, between the values that cannot be
// recomputed (results of memory reads, of ops with regions or effects) and
// the uses after the cut; it is found by max-flow (Edmonds-Karp) with each
// value split into an in and an out node joined by an edge of its size.
// Among minimum cuts the one nearest the uses is taken, so that as little
// as possible is recomputed.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_MINCUT_H
#define TESSEL_TRANSPILE_MINCUT_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tessel {

/// Values to store so that all of `needed` are available after a cut.
/// `inside(v)`: whether `v` is defined in the part before the cut (others
/// are available everywhere); `free(v)`: whether an inside value is
/// available after the cut at no cost (the thread ids); `recomputable(op)`:
/// whether an op may be cloned after the cut.
llvm::DenseSet<Value>
chooseStoredValues(ArrayRef<Value> needed, function_ref<bool(Value)> inside,
                   function_ref<bool(Value)> free,
                   function_ref<bool(Operation *)> recomputable);

} // namespace mlir::tessel

#endif
