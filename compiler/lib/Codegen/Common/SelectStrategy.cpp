//===- SelectStrategy.cpp - what both select-strategy passes share -------===//

#include "tessel/Codegen/Common/SelectStrategy.h"

#include "tessel/Codegen/Common/TuningDatabase.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The remark of --tessel-print-strategy.
void remarkStrategy(func::FuncOp kernel, const StrategySelection &s,
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
FailureOr<StrategySelection>
select(func::FuncOp kernel, StringRef key, const StrategyTable &table,
       const llvm::StringMap<ForcedStrategy> &forced,
       const llvm::StringMap<StrategyAttr> &tuned) {
  auto it = forced.find(kernel.getSymName());
  if (it != forced.end())
    return table.select(kernel, &it->second);
  auto entry = tuned.find(key);
  if (entry != tuned.end()) {
    // A database written by another compiler version may name a strategy
    // that no longer takes the kernel: the cost model's then, and a
    // warning that says why.
    std::string why;
    FailureOr<StrategySelection> selection = failure();
    {
      ScopedDiagnosticHandler capture(kernel.getContext(),
                                      [&](Diagnostic &diag) {
                                        why = diag.str();
                                        return success();
                                      });
      ForcedStrategy fromDb{entry->second.getKind(), entry->second};
      selection = table.select(kernel, &fromDb);
    }
    if (succeeded(selection))
      return selection;
    kernel.emitWarning() << "the tuning database's strategy " << entry->second
                         << " for " << kernel.getSymName() << " (key " << key
                         << ") is not used: " << why;
  }
  return table.select(kernel, nullptr);
}

} // namespace

FailureOr<StrategySelection>
mlir::tessel::askStrategies(func::FuncOp kernel, ArrayRef<StrategyKind> kinds,
                            StringRef targetName, const ForcedStrategy *forced,
                            TakeStrategyFn take) {
  StrategySelection selection;
  if (forced) {
    std::string why;
    bool known = llvm::is_contained(kinds, forced->kind);
    FailureOr<StrategyChoice> choice =
        known ? take(forced->kind, forced, why)
              : FailureOr<StrategyChoice>(failure());
    if (failed(choice)) {
      if (!known)
        why = ("not a " + targetName + " strategy").str();
      else if (why.empty())
        why = "the kernel has no op it applies to";
      return kernel.emitError()
             << "strategy '" << stringifyStrategyKind(forced->kind)
             << "' forced on " << kernel.getSymName()
             << " does not apply: " << why;
    }
    selection.choice = std::move(*choice);
    return selection;
  }
  for (StrategyKind kind : kinds) {
    std::string why;
    FailureOr<StrategyChoice> choice = take(kind, nullptr, why);
    if (succeeded(choice)) {
      selection.choice = std::move(*choice);
      return selection;
    }
    if (!why.empty())
      selection.rejected.push_back({kind, why});
  }
  llvm_unreachable("the last strategy takes every kernel");
}

LogicalResult mlir::tessel::selectStrategies(ModuleOp module,
                                             Attribute target,
                                             StringRef targetName,
                                             StringRef arch,
                                             const StrategySources &sources,
                                             const StrategyTable &table) {
  llvm::StringMap<ForcedStrategy> forced;
  if (!sources.strategyFile.empty()) {
    FailureOr<llvm::StringMap<ForcedStrategy>> read =
        readStrategyFile(sources.strategyFile, module, targetName, arch);
    if (failed(read))
      return failure();
    forced = std::move(*read);
  }
  llvm::StringMap<StrategyAttr> tuned;
  if (!sources.tuningDb.empty()) {
    FailureOr<llvm::StringMap<StrategyAttr>> read =
        readTuningDatabase(sources.tuningDb, target, module.getLoc());
    if (failed(read))
      return failure();
    tuned = std::move(*read);
  }
  std::vector<StrategyReportEntry> report;
  MLIRContext *ctx = module.getContext();
  for (auto kernel : module.getOps<func::FuncOp>()) {
    if (!kernel->hasAttr(kKernelAttr))
      continue;
    // The key prints the whole kernel: only for a database or a report.
    std::string key = tuned.empty() && sources.strategyReport.empty()
                          ? std::string()
                          : getDispatchKey(kernel);
    FailureOr<StrategySelection> selection =
        select(kernel, key, table, forced, tuned);
    if (failed(selection))
      return failure();
    if (!sources.strategyReport.empty()) {
      std::string signature;
      llvm::raw_string_ostream os(signature);
      kernel.getFunctionType().print(os);
      report.push_back({kernel.getSymName().str(), key, signature,
                        selection->choice.strategy, table.enumerate(kernel)});
    }
    kernel->setAttr(kStrategyAttr, selection->choice.strategy);
    if (Operation *root = selection->choice.root)
      root->setAttr(kStrategyRootAttr, UnitAttr::get(ctx));
    if (sources.printStrategy)
      remarkStrategy(kernel, *selection, forced.count(kernel.getSymName()),
                     tuned.lookup(key) == selection->choice.strategy);
  }
  if (!sources.strategyReport.empty() &&
      failed(writeStrategyReport(sources.strategyReport, target, report,
                                 module.getLoc())))
    return failure();
  return success();
}
