//===- GPUSelectStrategy.cpp - tessel-gpu-select-strategy ------*- C++ -*-===//
//
// Writes each kernel's strategy (GPUStrategyTable.h) as #tessel.strategy,
// from the cost model, a strategy file or a tuning database
// (SelectStrategy.h), and marks its root op.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/Common/SelectStrategy.h"
#include "tessel/Codegen/GPU/GPUStrategyTable.h"
#include "tessel/Target/TargetDescription.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_GPUSELECTSTRATEGY
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

struct GPUSelectStrategyPass
    : mlir::tessel::impl::GPUSelectStrategyBase<GPUSelectStrategyPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    GPUStrategyOptions options;
    options.tf32 = tf32;
    options.wgmmaMinTiles = wgmmaMinTiles;
    if (Attribute target = module->getAttr(kTargetAttr)) {
      options.target = dyn_cast<CUDATargetAttr>(target);
      if (!options.target) {
        module.emitError() << kTargetAttr << " is " << target
                           << ", not a #tessel.cuda_target";
        return signalPassFailure();
      }
    } else {
      std::string why;
      FailureOr<CUDATargetAttr> described =
          getCUDATargetDescription(module.getContext(), StringRef(arch), why);
      if (failed(described)) {
        module.emitError() << why;
        return signalPassFailure();
      }
      options.target = *described;
    }
    StrategySources sources;
    sources.strategyFile = strategyFile;
    sources.tuningDb = tuningDb;
    sources.strategyReport = strategyReport;
    sources.printStrategy = printStrategy;
    auto selectFn = [&](func::FuncOp kernel, const ForcedStrategy *forced) {
      return selectGPUStrategy(kernel, options, forced);
    };
    auto enumerateFn = [&](func::FuncOp kernel) {
      return enumerateGPUStrategies(kernel, options);
    };
    if (failed(selectStrategies(module, options.target, "cuda",
                                options.target.getArch().getValue(), sources,
                                {selectFn, enumerateFn})))
      return signalPassFailure();
  }
};

} // namespace
