//===- tessel-compile-fuzzer.cpp - libFuzzer entry for the compiler -------===//
//
// Feeds each input to what tessel-compile runs before code generation:
// the source guards, parse (with the verifier), tessel-input-pipeline and
// tessel-dispatch-pipeline, once with the options a cpu module gets and
// once with a cuda module's (row fusion, matmul epilogues, split-K). An
// error diagnostic with a file:line:col is an acceptable outcome; a crash,
// a sanitizer report, a timeout, or a failure without a located error is
// a bug. Code generation (LLVM, ptxas) is left out: it sees
// only what the dispatch pipeline produced from accepted programs.
//
// Built with -DTESSEL_FUZZ=ON and clang (scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "tessel/Input/SourceGuards.h"
#include "tessel/Passes.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Target/TargetUtils.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>

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

/// Errors reported so far, and whether one of them had no source location.
struct Errors {
  int count = 0;
  bool unlocated = false;
};

/// A rejected program must be told why, at a place in its source: a
/// failure without an error, or an error without a file:line:col, is a
/// finding (trapped, so that libFuzzer saves the input).
void requireLocatedError(LogicalResult result, const Errors &errors) {
  if (failed(result) && (errors.count == 0 || errors.unlocated))
    __builtin_trap();
}

/// TESSEL_FUZZ_CODEGEN=1: accepted programs also go through the target's
/// kernel codegen on MLIR (cpu: down to the LLVM dialect; cuda: tiling,
/// vectorization and the GPU strategies), without LLVM's backends or
/// ptxas. Off in CI: much slower per input.
bool fuzzCodegen() {
  static bool on = [] {
    const char *v = std::getenv("TESSEL_FUZZ_CODEGEN");
    return v && *v && *v != '0';
  }();
  return on;
}

void runPipelines(ModuleOp module, bool cuda, Errors &errors) {
  errors = Errors();
  PassManager pm(module.getContext());
  // The fuzzed target, as tessel-compile passes it: attention is raised
  // and reductions are split as that target asks.
  InputOptions input;
  input.attentionTargets = cuda ? "cuda" : "cpu";
  buildInputPipeline(pm, input);
  DispatchOptions options;
  options.fuseRows = cuda;
  options.fuseEpilogues = cuda;
  options.splitKTargetBlocks = cuda ? 256 : 0;
  buildDispatchPipeline(pm, options);
  LogicalResult result = pm.run(module);
  requireLocatedError(result, errors);
  if (failed(result) || !fuzzCodegen())
    return;
  std::vector<KernelExport> exports;
  OwningOpRef<ModuleOp> kernels = cloneDispatchFunctions(module, exports);
  PassManager codegen(module.getContext());
  if (cuda)
    buildCUDAKernelPipeline(codegen, CUDACodegenOptions());
  else
    buildCPUCodegenPipeline(codegen, CPUCodegenOptions());
  (void)codegen.run(*kernels);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A context per input: nothing one input interned or loaded can change
  // how the next one behaves (and memory stays bounded).
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  Errors errors;
  ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error) {
      ++errors.count;
      errors.unlocated |= !isa<FileLineColLoc>(d.getLocation()) &&
                          !d.getLocation()->findInstanceOf<FileLineColLoc>();
    }
    return success();
  });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "input"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseInputSource(sourceMgr, &context);
  if (!module) {
    requireLocatedError(failure(), errors);
    return 0;
  }
  OwningOpRef<ModuleOp> forCuda = module->clone();
  runPipelines(*module, /*cuda=*/false, errors);
  runPipelines(*forCuda, /*cuda=*/true, errors);
  return 0;
}
