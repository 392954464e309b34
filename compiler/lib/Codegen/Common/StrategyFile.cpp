//===- StrategyFile.cpp - strategies forced per dispatch -------*- C++ -*-===//

#include "tessel/Codegen/Common/StrategyFile.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::tessel;

FailureOr<llvm::json::Value> mlir::tessel::readJSONFile(
    StringRef path, function_ref<InFlightDiagnostic(const Twine &)> fail) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail("cannot read it: " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return fail("not JSON: " + llvm::toString(json.takeError()));
  return std::move(*json);
}

StrategyAttr mlir::tessel::parseStrategy(StringRef text, MLIRContext *ctx,
                                         std::string &why) {
  // The parser's own message (what is wrong, where in the text) becomes
  // the reason.
  std::string message;
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  auto strategy = dyn_cast_or_null<StrategyAttr>(parseAttribute(text, ctx));
  if (!strategy)
    why = "'" + text.str() + "' is not a #tessel.strategy" +
          (message.empty() ? std::string() : ": " + message);
  return strategy;
}

/// The strategy text of an entry: a kind alone or a whole attribute.
static FailureOr<ForcedStrategy> parseForced(StringRef text, MLIRContext *ctx,
                                             std::string &why) {
  text = text.trim();
  if (std::optional<StrategyKind> kind = symbolizeStrategyKind(text))
    return ForcedStrategy{*kind, StrategyAttr()};
  StrategyAttr strategy = parseStrategy(text, ctx, why);
  if (!strategy)
    return failure();
  return ForcedStrategy{strategy.getKind(), strategy};
}

FailureOr<llvm::StringMap<ForcedStrategy>>
mlir::tessel::readStrategyFile(StringRef path, ModuleOp module,
                               StringRef target, StringRef arch) {
  Location loc = module.getLoc();
  auto fail = [&](const Twine &what) {
    return emitError(loc) << "strategy file '" << path << "': " << what;
  };
  FailureOr<llvm::json::Value> json = readJSONFile(path, fail);
  if (failed(json))
    return failure();
  const llvm::json::Object *root = json->getAsObject();
  const llvm::json::Array *entries =
      root ? root->getArray("strategies") : nullptr;
  if (!entries)
    return fail("expected an object with a \"strategies\" array");

  llvm::StringSet<> dispatches;
  for (auto fn : module.getOps<func::FuncOp>())
    dispatches.insert(fn.getSymName());
  llvm::StringMap<ForcedStrategy> forced;
  for (auto [i, value] : llvm::enumerate(*entries)) {
    auto entryError = [&](const Twine &what) {
      return fail("entry " + Twine(i) + ": " + what);
    };
    const llvm::json::Object *entry = value.getAsObject();
    if (!entry)
      return entryError("not an object");
    std::optional<StringRef> dispatch = entry->getString("dispatch");
    std::optional<StringRef> strategy = entry->getString("strategy");
    if (!dispatch || !strategy)
      return entryError("needs \"dispatch\" and \"strategy\" strings");
    for (const auto &member : *entry)
      if (member.first != "dispatch" && member.first != "strategy" &&
          member.first != "target")
        return entryError("unknown key \"" + member.first.str() +
                          "\" (expected dispatch, strategy, target)");
    if (!dispatches.contains(*dispatch))
      return entryError("the module has no dispatch '" + *dispatch + "'");
    StringRef entryTarget = entry->getString("target").value_or("");
    if (entry->get("target") && !entry->getString("target"))
      return entryError("\"target\" must be a string");
    if (!entryTarget.empty() && entryTarget != target && entryTarget != arch)
      continue;
    std::string why;
    FailureOr<ForcedStrategy> parsed =
        parseForced(*strategy, module.getContext(), why);
    if (failed(parsed))
      return entryError(why);
    if (!forced.try_emplace(*dispatch, *parsed).second)
      return entryError("a second strategy for '" + *dispatch + "'");
  }
  return forced;
}
