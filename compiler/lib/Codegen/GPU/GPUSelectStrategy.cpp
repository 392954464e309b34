//===- GPUSelectStrategy.cpp - tessel-gpu-select-strategy ------*- C++ -*-===//
//
// Writes each kernel's strategy (GPUStrategyTable.h) as #tessel.strategy,
// from the cost model or from a strategy file, and marks its root op.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/Common/StrategyFile.h"
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

/// The remark of --tessel-print-strategy.
void remarkStrategy(func::FuncOp kernel, const GPUStrategySelection &s,
                    bool forced) {
  InFlightDiagnostic remark = kernel.emitRemark();
  remark << "kernel " << kernel.getSymName() << ": " << s.choice.strategy
         << (forced ? " (forced)" : "") << ": " << s.choice.description;
  for (const auto &[kind, why] : s.rejected)
    remark << "; not " << stringifyStrategyKind(kind) << ": " << why;
}

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
    llvm::StringMap<ForcedStrategy> forced;
    if (!strategyFile.empty()) {
      FailureOr<llvm::StringMap<ForcedStrategy>> read = readStrategyFile(
          strategyFile, module, "cuda", options.target.getArch().getValue());
      if (failed(read))
        return signalPassFailure();
      forced = std::move(*read);
    }
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (!kernel->hasAttr(kKernelAttr))
        continue;
      auto it = forced.find(kernel.getSymName());
      const ForcedStrategy *force = it == forced.end() ? nullptr : &it->second;
      FailureOr<GPUStrategySelection> selection =
          selectGPUStrategy(kernel, options, force);
      if (failed(selection))
        return signalPassFailure();
      kernel->setAttr(kStrategyAttr, selection->choice.strategy);
      if (Operation *root = selection->choice.root)
        root->setAttr(kStrategyRootAttr, UnitAttr::get(&getContext()));
      if (printStrategy)
        remarkStrategy(kernel, *selection, force != nullptr);
    }
  }
};

} // namespace
