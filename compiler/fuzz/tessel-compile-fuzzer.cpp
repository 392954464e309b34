//===- tessel-compile-fuzzer.cpp - libFuzzer entry for the compiler -------===//
//
// Feeds each input to what tessel-compile runs before code generation:
// the source guards, parse (with the verifier), tessel-input-pipeline and
// tessel-dispatch-pipeline, once with the options a cpu module gets and
// once with a cuda module's (row fusion, matmul epilogues, split-K). A
// diagnostic is an acceptable outcome; a crash, a sanitizer report or a
// timeout is a bug. Code generation (LLVM, ptxas) is left out: it sees
// only what the dispatch pipeline produced from accepted programs.
//
// Built with -DTESSEL_FUZZ=ON and clang (scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "tessel/Input/SourceGuards.h"
#include "tessel/Passes.h"
#include "tessel/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

const DialectRegistry &registry() {
  static DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    registerAllDialects(*reg);
    registerAllExtensions(*reg);
    reg->insert<TesselDialect>();
    return reg;
  }();
  return *r;
}

void runPipelines(ModuleOp module, bool cuda) {
  PassManager pm(module.getContext());
  buildInputPipeline(pm);
  DispatchOptions options;
  options.fuseRows = cuda;
  options.fuseEpilogues = cuda;
  options.splitKTargetBlocks = cuda ? 256 : 0;
  buildDispatchPipeline(pm, options);
  (void)pm.run(module);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A context per input: nothing one input interned or loaded can change
  // how the next one behaves (and memory stays bounded).
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) { return success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "input"),
      llvm::SMLoc());
  if (failed(checkSourceForParserHazards(sourceMgr, &context)))
    return 0;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 0;
  OwningOpRef<ModuleOp> forCuda = module->clone();
  runPipelines(*module, /*cuda=*/false);
  runPipelines(*forCuda, /*cuda=*/true);
  return 0;
}
