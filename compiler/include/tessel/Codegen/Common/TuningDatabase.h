//===- TuningDatabase.h - tuned strategies and tuning reports --*- C++ -*-===//
//
// What tessel-tune reads and writes through the compiler:
// - the strategy report (tessel-compile --tessel-strategy-report): per
//   executable, its target description and, per dispatch, the dispatch
//   key, its signature, the cost model's strategy and the candidates a
//   tuner should time (enumerateGPUStrategies);
// - the tuning database (tessel-compile --tuning-db), JSON:
//     {"tessel_tuning_db": 1, "entries": [
//       {"target": "#tessel.cuda_target<...>", "key": "9f...",
//        "signature": "(memref<...>, ...) -> ()",
//        "strategy": "#tessel.strategy<...>", "time_us": 140.8,
//        "default_us": 147.2, "date": "...", "device": "NVIDIA H200"}]}
//   An entry applies to a dispatch of an executable whose description
//   prints as `target` and whose key is `key`.
// The key is a hash of the dispatch's computation (its signature and body,
// printed without names or locations): the same computation on the same
// shapes has the same key in any program.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_COMMON_TUNINGDATABASE_H
#define TESSEL_CODEGEN_COMMON_TUNINGDATABASE_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::tessel {

/// The key of a dispatch function (16 hex digits).
std::string getDispatchKey(func::FuncOp kernel);

/// The entries of the tuning database at `path` for executables described
/// by `target`, keyed by dispatch key. Errors (at `loc`) name the file
/// and the entry; an entry whose strategy does not parse is an error.
FailureOr<llvm::StringMap<StrategyAttr>>
readTuningDatabase(StringRef path, Attribute target, Location loc);

/// One dispatch of a strategy report.
struct StrategyReportEntry {
  std::string name, key, signature;
  StrategyAttr chosen;
  SmallVector<StrategyAttr> candidates;
};

/// Writes the strategy report of one executable to `path`.
LogicalResult writeStrategyReport(StringRef path, Attribute target,
                                  ArrayRef<StrategyReportEntry> entries,
                                  Location loc);

} // namespace mlir::tessel

#endif
