//===- UniformLoops.h - loops with barriers that every thread runs alike --===//
//
// After tessel-promote-slots, a CUDA loop such as
//
//   for (int i = 0; i < n; i++) { ...; __syncthreads(); ... }
//
// is an scf.while whose counter is a loop-carried value. When the loop's
// condition and its carried values are the same for every thread of the
// block (uniform: computed from kernel arguments, block ids, constants and
// each other only), the thread loop can simply move inside it:
//
//   parallel t { while (i = 0; i < n) { B(t, i); i + 1 } }
//     -> while (i = 0; i < n) { parallel t { B(t, i) }; i + 1 }
//
// with the counter a scalar, where the general interchange
// (Interchange.cpp) needs a per-thread active flag, a per-thread copy of
// every carried value and a pass over all threads per iteration to decide
// whether to go on. Carried values that are not uniform go back to memory
// (per-thread slots) first.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TRANSPILE_UNIFORMLOOPS_H
#define TESSEL_TRANSPILE_UNIFORMLOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/BitVector.h"

namespace mlir::tessel {

/// Whether `loop` has the one-to-one shape slot promotion gives a loop:
/// before-block argument k, forwarded value k, after-block argument k,
/// yield k and result k are one carried value (of one type).
bool isPairedLoop(scf::WhileOp loop);

/// Rebuilds paired `loop` without the carried values in `drop`, whose
/// before-block arguments may only be forwarded by the condition and whose
/// after-block arguments and results must be unused. Returns the new loop
/// (`loop` is erased).
scf::WhileOp dropLoopValues(scf::WhileOp loop, const llvm::BitVector &drop);

/// Puts the carried values of `loop` (inside thread loop `threads`) back
/// into stack slots of the thread loop: all of them, or only those that
/// are not uniform when `keepUniform` is set and `loop` is an op of the
/// thread loop's body. Afterwards the loop carries only uniform values (or
/// none). Returns the loop (a new op if values were demoted). Fails
/// (leaving `loop` unchanged) on a loop whose before-block arguments,
/// forwarded values, after-block arguments, yields and results do not pair
/// up one to one (slot promotion makes only such loops).
FailureOr<scf::WhileOp> demoteLoopValues(scf::WhileOp loop,
                                         scf::ParallelOp threads,
                                         bool keepUniform);

/// Moves the ops of `threads`' body before `end` (one of them) that compute
/// the same values for every thread without effects (bounds, flags from
/// kernel arguments and block ids, loops without barriers over those) out
/// of the thread loop, before it: computed once, and no value fission
/// would store per thread. A block has at least one thread, so each runs
/// as often as before for a block.
void hoistUniformOps(scf::ParallelOp threads, Operation *end);

/// Whether `loop`, an op of `threads`' body, is uniform: its inits and
/// condition are uniform, and so is every value it carries or forwards.
bool isUniformLoop(scf::WhileOp loop, scf::ParallelOp threads);

/// Moves `threads` inside uniform `loop`, an op of its body: ops of the
/// body before `loop` (values that fission recomputes or reloads) are
/// cloned into every new thread loop, those the loop's uniform part uses
/// are hoisted; ops after `loop` go to a thread loop after it.
LogicalResult interchangeUniformWhile(scf::ParallelOp threads,
                                      scf::WhileOp loop);

} // namespace mlir::tessel

#endif
