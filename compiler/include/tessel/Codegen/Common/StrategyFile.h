//===- StrategyFile.h - strategies forced per dispatch ---------*- C++ -*-===//
//
// tessel-compile --tessel-strategy-file=F.json forces the strategy of
// chosen dispatches:
//
//   {"strategies": [
//     {"dispatch": "main_dispatch_0", "target": "sm_90a",
//      "strategy": "#tessel.strategy<wgmma_matmul, tile = [128, 128, 64],
//                   stages = 6, grid = 132>"},
//     {"dispatch": "main_dispatch_1", "strategy": "simt_matmul"}]}
//
// "strategy" is a whole attribute (used as written) or a kind alone (the
// cost model fills in its parameters). "target" (optional) limits an entry
// to the executables of one target ("cuda", "cpu") or of one architecture
// ("sm_90a", "x86-64-v4"); an entry no executable matches is not used.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_COMMON_STRATEGYFILE_H
#define TESSEL_CODEGEN_COMMON_STRATEGYFILE_H

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace mlir::tessel {

/// A strategy forced on one dispatch: its kind and, when the entry gave a
/// whole attribute, every parameter (null: the cost model's).
struct ForcedStrategy {
  StrategyKind kind = StrategyKind::Serial;
  StrategyAttr strategy;
};

/// The JSON document in the file at `path`; failure reported by `fail`
/// (the file cannot be read, or is not JSON).
FailureOr<llvm::json::Value>
readJSONFile(StringRef path,
             function_ref<InFlightDiagnostic(const Twine &)> fail);

/// `text` as a #tessel.strategy, or null with the parser's or verifier's
/// message in `why`.
StrategyAttr parseStrategy(StringRef text, MLIRContext *ctx, std::string &why);

/// Reads the entries of `path` that apply to an executable of `target`
/// ("cuda" or "cpu") for `arch` (its description's architecture or CPU),
/// keyed by dispatch name. Every entry must name a dispatch of `module`.
/// Errors (at `module`'s location) name the file and
/// the entry.
FailureOr<llvm::StringMap<ForcedStrategy>> readStrategyFile(StringRef path,
                                                            ModuleOp module,
                                                            StringRef target,
                                                            StringRef arch);

} // namespace mlir::tessel

#endif
