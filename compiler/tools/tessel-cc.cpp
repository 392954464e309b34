//===- tessel-cc.cpp - CUDA C programs for the CPU and the GPU -*- C++ -*-===//
//
//   tessel-cc prog.cu --emit=mlir          the imported kernels (MLIR)
//
// Parses a .cu file with clang and imports its kernels
// (compiler/lib/Frontend/CUDA).
//
//===----------------------------------------------------------------------===//

#include "tessel/Frontend/CUDA/CUDAFrontend.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tessel;

static llvm::cl::OptionCategory category("tessel-cc options");
static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input.cu>"),
                                            llvm::cl::Required,
                                            llvm::cl::cat(category));
static llvm::cl::opt<std::string> emit(
    "emit",
    llvm::cl::desc("What to produce: mlir (the imported kernels)"),
    llvm::cl::init("mlir"), llvm::cl::cat(category));
static llvm::cl::list<std::string> includeDirs("I", llvm::cl::Prefix,
                                               llvm::cl::desc("Include directory"),
                                               llvm::cl::cat(category));
static llvm::cl::list<std::string> defines("D", llvm::cl::Prefix,
                                           llvm::cl::desc("Preprocessor definition"),
                                           llvm::cl::cat(category));
static llvm::cl::opt<std::string> cudaHeaders(
    "cuda-headers",
    llvm::cl::desc("Which CUDA headers to parse with: 'tessel' (Tessel's own, "
                   "default) or the path of a CUDA toolkit"),
    llvm::cl::init("tessel"), llvm::cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(argc, argv, "Tessel CUDA C compiler\n");

  CUDAFrontendOptions options;
  options.resourceDir = TESSEL_CLANG_RESOURCE_DIR;
  if (cudaHeaders == "tessel") {
    options.headerDir = TESSEL_CUDA_HEADER_DIR;
    if (!llvm::sys::fs::exists(options.headerDir + "/__tessel_cuda_runtime.h")) {
      llvm::errs() << "tessel-cc: Tessel's CUDA headers are missing from '"
                   << options.headerDir << "'\n";
      return 1;
    }
  } else {
    options.cudaPath = cudaHeaders;
  }
  for (const std::string &d : includeDirs)
    options.extraArgs.push_back("-I" + d);
  for (const std::string &d : defines)
    options.extraArgs.push_back("-D" + d);

  MLIRContext context;
  // Errors as compilers print them: file:line:col: error: message.
  context.getDiagEngine().registerHandler([](Diagnostic &diag) {
    std::string where = "tessel-cc";
    if (auto fl = dyn_cast<FileLineColLoc>(diag.getLocation()))
      where = (fl.getFilename().str() + ":" + std::to_string(fl.getLine()) +
               ":" + std::to_string(fl.getColumn()));
    const char *kind = diag.getSeverity() == DiagnosticSeverity::Error ? "error"
                       : diag.getSeverity() == DiagnosticSeverity::Warning
                           ? "warning"
                           : "note";
    llvm::errs() << where << ": " << kind << ": " << diag.str() << "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = importCUDAFile(context, inputFile, options);
  if (!module)
    return 1;
  if (emit == "mlir") {
    module->print(llvm::outs());
    llvm::outs() << "\n";
    return 0;
  }
  llvm::errs() << "tessel-cc: unknown --emit=" << emit << "\n";
  return 1;
}
