//===- SelectStrategy.h - what both select-strategy passes share -*- C++ -*-===//
//
// Each target has a strategy table (GPUStrategyTable.h, CPUStrategyTable.h)
// that answers, for a kernel, which #tessel.strategy the cost model picks
// (with the strategies it asked before and why they declined) or whether a
// forced strategy applies, and which candidates a tuner should time. The
// select-strategy pass of each target hands its table to selectStrategies,
// which adds what does not depend on the target: the strategy file, the
// tuning database, the strategy report, the remarks of
// --tessel-print-strategy, the attribute on each kernel and the root mark.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_COMMON_SELECTSTRATEGY_H
#define TESSEL_CODEGEN_COMMON_SELECTSTRATEGY_H

#include "tessel/Codegen/Common/StrategyFile.h"
#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::tessel {

/// A strategy's answer for a kernel it takes.
struct StrategyChoice {
  StrategyAttr strategy;
  /// The op the strategy applies to (marked tessel.strategy_root); null
  /// where it applies to the whole kernel (serial kernels, padding copies,
  /// row fusion on cuda).
  Operation *root = nullptr;
  /// What runs, in words (--tessel-print-strategy).
  std::string description;
};

/// A kernel's strategy and, for each strategy asked before it that has an
/// op to apply to in this kernel, why it declined.
struct StrategySelection {
  StrategyChoice choice;
  SmallVector<std::pair<StrategyKind, std::string>> rejected;
};

/// One strategy of a target's table answering for a kernel: its choice
/// (with the parameters of `forced` when a user forced it), or failure
/// with `why` ("" when the kernel has nothing the strategy applies to).
using TakeStrategyFn = function_ref<FailureOr<StrategyChoice>(
    StrategyKind kind, const ForcedStrategy *forced, std::string &why)>;

/// Asks the strategies `kinds` of a target's table in order, the first
/// that takes `kernel` winning (the last must take every kernel). With
/// `forced`, asks only its kind: failure, with an error at the kernel,
/// when the table has no such kind (not a `targetName` strategy) or it
/// does not apply.
FailureOr<StrategySelection> askStrategies(func::FuncOp kernel,
                                           ArrayRef<StrategyKind> kinds,
                                           StringRef targetName,
                                           const ForcedStrategy *forced,
                                           TakeStrategyFn take);

/// A target's strategy table, as the select-strategy pass uses it.
struct StrategyTable {
  /// The cost model's strategy (no forced strategy), or the forced
  /// strategy when it applies (else failure, with an error at the kernel).
  function_ref<FailureOr<StrategySelection>(func::FuncOp,
                                            const ForcedStrategy *)>
      select;
  /// The strategies a tuner should time, the cost model's first.
  function_ref<SmallVector<StrategyAttr>(func::FuncOp)> enumerate;
};

/// Where the select-strategy pass takes strategies from besides the cost
/// model, and what it writes.
struct StrategySources {
  /// --tessel-strategy-file (StrategyFile.h); wins over the database.
  std::string strategyFile;
  /// --tuning-db (TuningDatabase.h).
  std::string tuningDb;
  /// Where to write the strategy report (empty: none).
  std::string strategyReport;
  /// A remark per kernel: its strategy, what runs, what declined and why.
  bool printStrategy = false;
};

/// Writes the strategy of every kernel of `module` (an executable's kernel
/// module described by `target`; `targetName` "cuda" or "cpu" and `arch`
/// select the strategy file's entries) and marks its root op.
LogicalResult selectStrategies(ModuleOp module, Attribute target,
                               StringRef targetName, StringRef arch,
                               const StrategySources &sources,
                               const StrategyTable &table);

} // namespace mlir::tessel

#endif
