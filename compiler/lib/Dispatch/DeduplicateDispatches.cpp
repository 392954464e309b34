//===- DeduplicateDispatches.cpp - tessel-deduplicate-dispatches -*- C++ -*-===//
//
// Models repeat themselves: BERT-base's 12 layers are 12 copies of the same
// dispatches (and its Q, K and V projections are one matmul with different
// weights). Each copy would be planned, lowered and assembled on its own
// (per variant, per GPU architecture), and shipped as its own kernel. Dispatch
// functions that are the same function but for their names become one;
// every tessel.dispatch calls the one that is kept (the first).
//
//===----------------------------------------------------------------------===//

#include "tessel/Passes.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_DEDUPLICATEDISPATCHES
#include "tessel/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// `fn` as text with its name left out: equal texts, equal functions.
std::string withoutName(func::FuncOp fn) {
  std::string text;
  llvm::raw_string_ostream os(text);
  StringAttr name = fn.getSymNameAttr();
  fn.setSymName("dispatch");
  fn->print(os, OpPrintingFlags().useLocalScope());
  fn.setSymNameAttr(name);
  return text;
}

struct DeduplicateDispatchesPass
    : tessel::impl::DeduplicateDispatchesBase<DeduplicateDispatchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<func::FuncOp> kept;
    SmallVector<std::pair<func::FuncOp, func::FuncOp>> duplicates;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (!fn->hasAttr(kDispatchFunctionAttr))
        continue;
      auto [it, fresh] = kept.try_emplace(withoutName(fn), fn);
      if (!fresh)
        duplicates.push_back({fn, it->second});
    }
    for (auto [duplicate, original] : duplicates) {
      if (failed(SymbolTable::replaceAllSymbolUses(
              duplicate.getSymNameAttr(), original.getSymNameAttr(),
              module))) {
        duplicate.emitError("cannot redirect the calls of a duplicate "
                            "dispatch function");
        return signalPassFailure();
      }
      duplicate.erase();
    }
  }
};

} // namespace
