//===- ThreadLoops.h - the thread loops of transpiled CUDA kernels --------===//
//
// After tessel-cuda-to-parallel-loops a kernel is
//
//   scf.parallel (block ids) {tessel.cuda_blocks} {
//     <__shared__ variables: allocas>
//     scf.parallel (thread ids) {tessel.cuda_threads} { per-thread code }
//   }
//
// and the GPU-to-CPU steps (Transpile/*.cpp) rewrite the thread loops.
// These helpers are what the steps share: finding barriers, splitting a
// thread loop in two with the values that cross the cut kept (recomputed
// when that is cheap and safe, else stored per thread), per-thread storage.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_THREADLOOPS_H
#define TESSEL_TRANSPILE_THREADLOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::tessel {

bool isThreadLoop(Operation *op);
bool isBlockLoop(Operation *op);
/// The innermost thread loop around `op` (not `op` itself), or null.
scf::ParallelOp enclosingThreadLoop(Operation *op);
/// Whether `op` is a tessel.barrier or has one nested inside.
bool containsBarrier(Operation *op);
/// The thread index x + X * (y + Y * z) of the current iteration of
/// `loop`, built at `b`'s insertion point (inside the loop).
Value linearThreadId(OpBuilder &b, Location loc, scf::ParallelOp loop);
/// How a value of type `t` is kept in memory across a cut: index as i64,
/// i1 as a byte (vectors of i1 are bit-packed), the rest as it is.
Type storageType(Type t);
/// Stores `v` at `addr` as storageType(v's type) / loads it back.
void storeToSlot(OpBuilder &b, Location loc, Value v, Value addr);
Value loadFromSlot(OpBuilder &b, Location loc, Type type, Value addr);
/// An array of one `type` element per thread of `loop`'s block, allocated
/// at the start of the enclosing block loop.
Value perThreadStorage(OpBuilder &b, scf::ParallelOp loop, Type type);
/// The address of the current thread's element of `storage`.
Value perThreadElement(OpBuilder &b, Location loc, scf::ParallelOp loop,
                       Value storage, Type type);
/// Gives each thread of `loop` its own copy of every stack slot allocated
/// inside it (llvm.alloca with a constant count): one array per slot at the
/// block level, indexed by the thread. Then a slot's address can be
/// recomputed on either side of a cut.
void privatizeSlots(scf::ParallelOp loop);
/// Moves every stack slot of constant size nested below `block` (in
/// loops, ifs) to the start of `block`, so that a loop does not allocate
/// again on every iteration.
void hoistSlotsToStart(Block *block, Operation *root);
/// Whether `op` can be computed again anywhere its operands are available:
/// no regions, no memory effects.
bool isRecomputableOp(Operation *op);
/// Splits `loop` before `op`, an op of its body: `op` and what follows run
/// in a new thread loop right after. Values defined before the cut and used
/// after it are stored per thread and loaded, or recomputed in the new loop
/// from such values (side-effect-free ops); which are stored is a minimum
/// cut (MinCut.h) with `minCut`, else every value that is not a
/// side-effect-free function of the thread ids (the rule of issue 14; the
/// passes' min-cut option, for ablations).
scf::ParallelOp splitThreadLoopBefore(scf::ParallelOp loop, Operation *op,
                                      bool minCut);

} // namespace mlir::tessel

#endif
