//===- StateAccess.cpp - reads and writes of module state ------*- C++ -*-===//

#include "tessel/Dispatch/StateAccess.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The global a load, store or in-place candidate insert refers to.
SymbolRefAttr stateOf(Operation *op) {
  if (auto load = dyn_cast<ml_program::GlobalLoadOp>(op))
    return load.getGlobalAttr();
  if (auto store = dyn_cast<ml_program::GlobalStoreOp>(op))
    return store.getGlobalAttr();
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    if (auto load = insert.getDest().getDefiningOp<ml_program::GlobalLoadOp>())
      return load.getGlobalAttr();
  return nullptr;
}

/// The ops that read `v`, looking through views of it (slices, reshapes,
/// casts): dispatch formation clones a slice into the dispatch that reads
/// it and keeps reshapes as aliases, so they read where their users are.
SmallVector<Operation *> readers(Value v) {
  SmallVector<Operation *> out;
  for (Operation *user : v.getUsers()) {
    if (isa<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
            tensor::CollapseShapeOp, tensor::CastOp>(user))
      llvm::append_range(out, readers(user->getResult(0)));
    else
      out.push_back(user);
  }
  return out;
}

/// Whether a read of `load`'s value by `user` may see the state after a
/// write: `write` (a store or an in-place candidate insert of the same
/// global, in the subtree of the load's block) runs between the load and
/// that read. Writes outside that subtree run wholly before or after it.
bool writeIntervenes(ml_program::GlobalLoadOp load, Operation *user,
                     Operation *write) {
  Block *block = load->getBlock();
  Operation *w = block->findAncestorOpInBlock(*write);
  Operation *u = block->findAncestorOpInBlock(*user);
  if (!w || !u || w->isBeforeInBlock(load) || user == write)
    return false;
  // The write comes after the load: the read must come before it (an op
  // holding both, such as a loop, may run them in either order).
  return !u->isBeforeInBlock(w);
}

} // namespace

void mlir::tessel::snapshotStaleStateReads(func::FuncOp fn) {
  SmallVector<ml_program::GlobalLoadOp> loads;
  SmallVector<Operation *> writes;
  fn.walk([&](Operation *op) {
    if (auto load = dyn_cast<ml_program::GlobalLoadOp>(op))
      loads.push_back(load);
    else if (stateOf(op))
      writes.push_back(op);
  });
  for (ml_program::GlobalLoadOp load : loads) {
    bool stale = llvm::any_of(readers(load.getResult()), [&](Operation *user) {
      if (user->hasTrait<OpTrait::IsTerminator>() && !isa<func::ReturnOp>(user))
        return true; // carried out of the block: read who knows when
      return llvm::any_of(writes, [&](Operation *write) {
        return stateOf(write) == load.getGlobalAttr() &&
               writeIntervenes(load, user, write);
      });
    });
    if (!stale)
      continue;
    OpBuilder b(load->getContext());
    b.setInsertionPointAfter(load);
    auto type = cast<RankedTensorType>(load.getType());
    Value empty = tensor::EmptyOp::create(b, load.getLoc(), type.getShape(),
                                          type.getElementType());
    auto copy = linalg::CopyOp::create(b, load.getLoc(), load.getResult(),
                                       empty);
    load.getResult().replaceAllUsesExcept(copy.getResult(0), copy);
  }
}

bool mlir::tessel::updatesStateInPlace(tensor::InsertSliceOp insert) {
  if (!insert.getDest().getDefiningOp<ml_program::GlobalLoadOp>())
    return false;
  return llvm::all_of(readers(insert.getDest()), [&](Operation *user) {
    if (user == insert)
      return true;
    Operation *inBlock = insert->getBlock()->findAncestorOpInBlock(*user);
    return inBlock && inBlock->isBeforeInBlock(insert);
  });
}
