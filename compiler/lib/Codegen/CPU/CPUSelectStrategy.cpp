//===- CPUSelectStrategy.cpp - tessel-cpu-select-strategy ------*- C++ -*-===//
//
// Writes each CPU kernel's strategy (CPUStrategyTable.h) as
// #tessel.strategy, from the cost model, a strategy file or a tuning
// database (SelectStrategy.h), and marks its root op.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/CPU/CPUStrategyTable.h"
#include "tessel/Target/TargetDescription.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_CPUSELECTSTRATEGY
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

struct CPUSelectStrategyPass
    : mlir::tessel::impl::CPUSelectStrategyBase<CPUSelectStrategyPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    CPUStrategyOptions options;
    if (Attribute target = module->getAttr(kTargetAttr)) {
      options.target = dyn_cast<CPUTargetAttr>(target);
      if (!options.target) {
        module.emitError() << kTargetAttr << " is " << target
                           << ", not a #tessel.cpu_target";
        return signalPassFailure();
      }
    } else {
      options.target =
          getCPUTargetDescription(module.getContext(), cpu, vectorBits);
    }
    StrategySources sources;
    sources.strategyFile = strategyFile;
    sources.tuningDb = tuningDb;
    sources.strategyReport = strategyReport;
    sources.printStrategy = printStrategy;
    auto selectFn = [&](func::FuncOp kernel, const ForcedStrategy *forced) {
      return selectCPUStrategy(kernel, options, forced);
    };
    auto enumerateFn = [&](func::FuncOp kernel) {
      return enumerateCPUStrategies(kernel, options);
    };
    if (failed(selectStrategies(module, options.target, "cpu",
                                options.target.getCpu().getValue(), sources,
                                {selectFn, enumerateFn})))
      return signalPassFailure();
  }
};

} // namespace
