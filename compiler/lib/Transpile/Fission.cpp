//===- Fission.cpp - cut thread loops at their barriers -------------------===//
//
// tessel-fission-at-barriers: a thread loop whose body holds barriers
// (after tessel-interchange-thread-loops, only as ops of the body itself)
// becomes one thread loop per barrier-free piece, run one after the other:
//
//   parallel t { A(t); barrier; B(t) }  ->  parallel t { A(t) }
//                                           parallel t { B(t) }
//
// Values of A used in B are stored per thread in A and loaded in B, or
// recomputed in B from such values, the thread id and values from outside
// (index arithmetic, addresses of per-thread slots); the stored set is a
// minimum cut (MinCut.h, ThreadLoops.cpp). Stack slots of the loop become
// per-thread arrays first, so that each thread's locals survive the cut.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Passes.h"
#include "tessel/Transpile/ThreadLoops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_FISSIONATBARRIERSPASS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct FissionAtBarriersPass
    : public tessel::impl::FissionAtBarriersPassBase<FissionAtBarriersPass> {
  using FissionAtBarriersPassBase::FissionAtBarriersPassBase;
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp p) {
      if (isThreadLoop(p) && containsBarrier(p))
        loops.push_back(p);
    });
    for (scf::ParallelOp loop : loops) {
      privatizeSlots(loop);
      while (loop) {
        BarrierOp barrier;
        for (Operation &op : loop.getBody()->without_terminator())
          if ((barrier = dyn_cast<BarrierOp>(op)))
            break;
        if (!barrier)
          break;
        scf::ParallelOp next = splitThreadLoopBefore(loop, barrier, minCut);
        barrier.erase();
        loop = next;
      }
    }
    // Anything left is in a place fission cannot cut.
    WalkResult left = getOperation().walk([](BarrierOp b) {
      b.emitError("barrier in a place the CPU transpilation cannot handle "
                  "(run tessel-interchange-thread-loops first)");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
