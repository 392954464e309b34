//===- GPUPipelineLoops.cpp - tessel-gpu-pipeline-loops --------*- C++ -*-===//
//
// Two-stage software pipelining of each thread's contraction loop: loads
// (and the index math they need) for step k + 1 are issued before the
// FMAs of step k, so a thread's own loads overlap its arithmetic instead of
// relying on other warps alone to hide memory latency.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_GPUPIPELINELOOPS
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;

namespace {

/// Stage 0: ops that do not depend (transitively, within the body) on the
/// loop-carried values; stage 1: the rest. Stage-0 ops come first.
void scheduleTwoStages(scf::ForOp loop,
                       std::vector<std::pair<Operation *, unsigned>> &order) {
  DenseSet<Value> carried(loop.getRegionIterArgs().begin(),
                          loop.getRegionIterArgs().end());
  DenseSet<Operation *> late;
  for (Operation &op : loop.getBody()->without_terminator()) {
    bool dependsOnCarried = false;
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (carried.contains(v) ||
            (v.getDefiningOp() && late.contains(v.getDefiningOp())))
          dependsOnCarried = true;
    });
    if (dependsOnCarried)
      late.insert(&op);
  }
  for (Operation &op : loop.getBody()->without_terminator())
    if (!late.contains(&op))
      order.emplace_back(&op, 0);
  for (Operation &op : loop.getBody()->without_terminator())
    if (late.contains(&op))
      order.emplace_back(&op, 1);
}

/// Whether `loop` is a contraction loop worth pipelining: it holds a
/// vector.contract, carries values, and runs a static number >= 2 of times.
bool isPipelinable(scf::ForOp loop) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->getZExtValue() < 2 || loop.getNumRegionIterArgs() == 0)
    return false;
  bool hasContract = false;
  loop.getBody()->walk([&](vector::ContractionOp) { hasContract = true; });
  return hasContract;
}

} // namespace

namespace mlir::tessel {

/// Pipelines the contraction loops of `kernel`.
LogicalResult pipelineGPUKernelLoops(func::FuncOp kernel) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    if (isPipelinable(loop))
      loops.push_back(loop);
  });
  IRRewriter rewriter(kernel.getContext());
  for (scf::ForOp loop : loops) {
    scf::PipeliningOption options;
    options.getScheduleFn = scheduleTwoStages;
    rewriter.setInsertionPoint(loop);
    bool modified = false;
    if (failed(scf::pipelineForLoop(rewriter, loop, options, &modified)) &&
        modified)
      return loop.emitError("software pipelining left the loop half done");
  }
  return success();
}

namespace {
struct GPUPipelineLoopsPass : impl::GPUPipelineLoopsBase<GPUPipelineLoopsPass> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>())
      if (fn->hasAttr(kKernelAttr))
        if (failed(pipelineGPUKernelLoops(fn)))
          return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tessel
