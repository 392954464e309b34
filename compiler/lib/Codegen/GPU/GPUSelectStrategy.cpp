//===- GPUSelectStrategy.cpp - tessel-gpu-select-strategy ------*- C++ -*-===//
//
// Writes each kernel's strategy (GPUStrategyTable.h) as #tessel.strategy,
// from the cost model or from a strategy file, and marks its root op.
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Codegen/Common/StrategyFile.h"
#include "tessel/Codegen/Common/TuningDatabase.h"
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
                    bool forced, bool tuned) {
  InFlightDiagnostic remark = kernel.emitRemark();
  remark << "kernel " << kernel.getSymName() << ": " << s.choice.strategy
         << (forced  ? " (forced)"
             : tuned ? " (tuned)"
                     : "")
         << ": " << s.choice.description;
  for (const auto &[kind, why] : s.rejected)
    remark << "; not " << stringifyStrategyKind(kind) << ": " << why;
}

/// The strategy of `kernel`: forced by the strategy file, else the tuning
/// database's (where it still applies), else the cost model's.
FailureOr<GPUStrategySelection>
select(func::FuncOp kernel, StringRef key, const GPUStrategyOptions &options,
       const llvm::StringMap<ForcedStrategy> &forced,
       const llvm::StringMap<StrategyAttr> &tuned) {
  auto it = forced.find(kernel.getSymName());
  if (it != forced.end())
    return selectGPUStrategy(kernel, options, &it->second);
  auto entry = tuned.find(key);
  if (entry != tuned.end()) {
    // A database written by another compiler version may name a strategy
    // that no longer takes the kernel: the cost model's then, and a
    // warning that says why.
    std::string why;
    FailureOr<GPUStrategySelection> selection = failure();
    {
      ScopedDiagnosticHandler capture(kernel.getContext(),
                                      [&](Diagnostic &diag) {
                                        why = diag.str();
                                        return success();
                                      });
      ForcedStrategy fromDb{entry->second.getKind(), entry->second};
      selection = selectGPUStrategy(kernel, options, &fromDb);
    }
    if (succeeded(selection))
      return selection;
    kernel.emitWarning() << "the tuning database's strategy " << entry->second
                         << " for " << kernel.getSymName() << " (key " << key
                         << ") is not used: " << why;
  }
  return selectGPUStrategy(kernel, options);
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
    llvm::StringMap<StrategyAttr> tuned;
    if (!tuningDb.empty()) {
      FailureOr<llvm::StringMap<StrategyAttr>> read =
          readTuningDatabase(tuningDb, options.target, module.getLoc());
      if (failed(read))
        return signalPassFailure();
      tuned = std::move(*read);
    }
    std::vector<StrategyReportEntry> report;
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (!kernel->hasAttr(kKernelAttr))
        continue;
      // The key prints the whole kernel: only for a database or a report.
      std::string key = tuned.empty() && strategyReport.empty()
                            ? std::string()
                            : getDispatchKey(kernel);
      FailureOr<GPUStrategySelection> selection =
          select(kernel, key, options, forced, tuned);
      if (failed(selection))
        return signalPassFailure();
      if (!strategyReport.empty()) {
        std::string signature;
        llvm::raw_string_ostream os(signature);
        kernel.getFunctionType().print(os);
        report.push_back({kernel.getSymName().str(), key, signature,
                          selection->choice.strategy,
                          enumerateGPUStrategies(kernel, options)});
      }
      kernel->setAttr(kStrategyAttr, selection->choice.strategy);
      if (Operation *root = selection->choice.root)
        root->setAttr(kStrategyRootAttr, UnitAttr::get(&getContext()));
      if (printStrategy)
        remarkStrategy(kernel, *selection, forced.count(kernel.getSymName()),
                       tuned.lookup(key) == selection->choice.strategy);
    }
    if (!strategyReport.empty() &&
        failed(writeStrategyReport(strategyReport, options.target, report,
                                   module.getLoc())))
      return signalPassFailure();
  }
};

} // namespace
