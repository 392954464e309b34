//===- StateAccess.h - reads and writes of module state --------*- C++ -*-===//
//
// Module state is a mutable ml_program global (a KV cache). In the host
// program a `global_load` of it is a reference to the state's one device
// buffer, not a copy, and a `global_store` writes into that buffer (or is
// nothing, when a kernel already updated it in place). So a loaded value
// must not be read after the state changes, and a kernel may update the
// state in place only when nothing reads the old value afterwards. These
// are the rules, for tessel-form-dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DISPATCH_STATEACCESS_H
#define TESSEL_DISPATCH_STATEACCESS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tessel {

/// Gives every global_load of `fn` that is read after its global may have
/// changed (a later store or in-place insert of the same global runs
/// between the load and a read, or the value leaves its block through a
/// region terminator) a copy of its own, made right after the load, which
/// all its readers read instead.
void snapshotStaleStateReads(func::FuncOp fn);

/// Whether `insert` can update module state in place: its destination is
/// loaded from a mutable global (ml_program.global_load) and every other
/// reader of that value comes before it in its block (after
/// snapshotStaleStateReads, which copies values read later). Its kernel
/// then writes just the slice into the state's buffer (a KV cache: one
/// token's keys, not the whole cache).
bool updatesStateInPlace(tensor::InsertSliceOp insert);

} // namespace mlir::tessel

#endif
