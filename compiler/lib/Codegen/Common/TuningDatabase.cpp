//===- TuningDatabase.cpp - tuned strategies and tuning reports -*- C++ -*-===//

#include "tessel/Codegen/Common/TuningDatabase.h"

#include "tessel/Codegen/Common/StrategyFile.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::tessel;

/// `attr` as printed (the database's and the report's spelling).
static std::string printed(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

std::string mlir::tessel::getDispatchKey(func::FuncOp kernel) {
  std::string text;
  llvm::raw_string_ostream os(text);
  kernel.getFunctionType().print(os);
  // Ops printed one by one in a local scope: value names are numbered the
  // same way whatever surrounds the function; the function's own name and
  // attributes (its strategy among them) are not part of the computation.
  OpPrintingFlags flags;
  flags.printGenericOpForm().useLocalScope();
  for (Operation &op : kernel.getBody().front()) {
    os << "\n";
    op.print(os, flags);
  }
  std::string key;
  llvm::raw_string_ostream keyOs(key);
  keyOs << llvm::format_hex_no_prefix(llvm::xxh3_64bits(text), 16);
  return key;
}

FailureOr<llvm::StringMap<StrategyAttr>>
mlir::tessel::readTuningDatabase(StringRef path, Attribute target,
                                 Location loc) {
  auto fail = [&](const Twine &what) {
    return emitError(loc) << "tuning database '" << path << "': " << what;
  };
  FailureOr<llvm::json::Value> json = readJSONFile(path, fail);
  if (failed(json))
    return failure();
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *entries = root ? root->getArray("entries") : nullptr;
  if (!root || root->getInteger("tessel_tuning_db") != 1 || !entries)
    return fail("expected {\"tessel_tuning_db\": 1, \"entries\": [...]}");
  std::string targetText = printed(target);
  llvm::StringMap<StrategyAttr> strategies;
  for (auto [i, value] : llvm::enumerate(*entries)) {
    const llvm::json::Object *entry = value.getAsObject();
    std::optional<StringRef> entryTarget =
        entry ? entry->getString("target") : std::nullopt;
    std::optional<StringRef> key =
        entry ? entry->getString("key") : std::nullopt;
    std::optional<StringRef> strategy =
        entry ? entry->getString("strategy") : std::nullopt;
    if (!entryTarget || !key || !strategy)
      return fail("entry " + Twine(i) +
                  " needs \"target\", \"key\" and \"strategy\" strings");
    if (*entryTarget != targetText)
      continue;
    std::string why;
    StrategyAttr attr = parseStrategy(*strategy, loc.getContext(), why);
    if (!attr)
      return fail("entry " + Twine(i) + ": " + why);
    strategies[*key] = attr;
  }
  return strategies;
}

LogicalResult
mlir::tessel::writeStrategyReport(StringRef path, Attribute target,
                                  ArrayRef<StrategyReportEntry> entries,
                                  Location loc) {
  llvm::json::Array dispatches;
  for (const StrategyReportEntry &e : entries) {
    llvm::json::Array candidates;
    for (StrategyAttr c : e.candidates)
      candidates.push_back(printed(c));
    dispatches.push_back(
        llvm::json::Object{{"name", e.name},
                           {"key", e.key},
                           {"signature", e.signature},
                           {"strategy", printed(e.chosen)},
                           {"candidates", std::move(candidates)}});
  }
  llvm::json::Object report{{"target", printed(target)},
                            {"dispatches", std::move(dispatches)}};
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(loc) << "cannot write the strategy report '" << path
                          << "': " << ec.message();
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))) << "\n";
  return success();
}
