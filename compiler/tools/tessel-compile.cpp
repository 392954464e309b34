//===- tessel-compile.cpp - MLIR program -> .tmod module -------*- C++ -*-===//
//
//   tessel-compile INPUT.mlir --target=cpu -o OUT.tmod
//
// Runs tessel-input-pipeline and tessel-dispatch-pipeline on the program,
// then each requested target's backend on the dispatch functions, and
// writes one module file. MLIR's debugging flags (--mlir-print-ir-after-all,
// --mlir-timing, ...) apply to every pass manager.
//
//===----------------------------------------------------------------------===//

#include "tessel/Input/SourceGuards.h"
#include "tessel/Passes.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Target/CPU/CPUTarget.h"
#include "tessel/Target/CUDA/CUDATarget.h"
#include "tessel/Target/ModuleWriter.h"
#include "tessel/Target/TargetDescription.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::tessel;

/// Tessel's own options: the only ones --help lists (LLVM's and MLIR's,
/// --mlir-print-ir-after-all and --mlir-timing among them, are still
/// accepted and listed by --help-hidden).
static llvm::cl::OptionCategory tesselOptions("tessel-compile options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input.mlir>"),
                                            llvm::cl::init("-"));
static llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("Output .tmod"),
                                             llvm::cl::value_desc("file"),
                                             llvm::cl::init(""));
static llvm::cl::opt<std::string>
    targets("target",
            llvm::cl::desc("Comma-separated targets: cpu, cuda (e.g. cpu,cuda)"),
            llvm::cl::init("cpu"));
static llvm::cl::opt<std::string> cudaArchs(
    "cuda-arch",
    llvm::cl::desc("Comma-separated GPU architectures for cubins; the PTX "
                   "targets the first. sm_90a (H100/H200: wgmma + TMA "
                   "matmuls) is an executable of its own, loaded only on "
                   "compute capability 9.0 (default sm_80,sm_90a)"),
    llvm::cl::init("sm_80,sm_90a"));
static llvm::cl::opt<std::string>
    cpuName("cpu",
            llvm::cl::desc("CPUs to compile for, comma-separated: 'host' "
                           "(default) or LLVM CPU names such as x86-64-v3; "
                           "one executable each (e.g. x86-64-v4,x86-64-v3), "
                           "the runtime loads the most capable that the "
                           "host runs"),
            llvm::cl::init("host"));
static llvm::cl::opt<bool> printStrategy(
    "tessel-print-strategy",
    llvm::cl::desc("Print each kernel's strategy, per executable (a remark "
                   "per kernel: its #tessel.strategy, what runs, and why "
                   "the strategies asked before it declined)"),
    llvm::cl::init(false));
static llvm::cl::opt<std::string> strategyFile(
    "tessel-strategy-file",
    llvm::cl::desc("Force the strategies of chosen dispatches: a JSON file "
                   "{\"strategies\": [{\"dispatch\": NAME, \"strategy\": "
                   "KIND or #tessel.strategy<...>, \"target\": optional}]}"),
    llvm::cl::value_desc("file"), llvm::cl::init(""));
static llvm::cl::opt<std::string> tuningDb(
    "tuning-db",
    llvm::cl::desc("Take each dispatch's strategy from this tuning database "
                   "(written by tessel-tune) where it has an entry for the "
                   "dispatch and the executable's target"),
    llvm::cl::value_desc("file"), llvm::cl::init(""));
static llvm::cl::opt<std::string> strategyReport(
    "tessel-strategy-report",
    llvm::cl::desc("Write, per executable, PREFIX.ARCH.json (ARCH: its "
                   "first cuda architecture or its --cpu entry): each "
                   "dispatch's key, strategy and the candidates a tuner "
                   "times (tessel-tune reads it)"),
    llvm::cl::value_desc("prefix"), llvm::cl::init(""));
static llvm::cl::opt<bool> packFirstKBlockOnly(
    "tessel-cpu-diagnostic-pack-first-k-block-only",
    llvm::cl::desc("Timing experiment, WRONG RESULTS: the cpu's packed "
                   "matmuls pack A and B in the first K block only (what "
                   "re-packing costs is the difference in time)"),
    llvm::cl::Hidden, llvm::cl::init(false));
static llvm::cl::opt<bool> cudaTF32(
    "cuda-tf32",
    llvm::cl::desc("Let f32 contractions run on TF32 tensor cores (inputs "
                   "rounded to a 10-bit mantissa, f32 accumulation); off by "
                   "default: exact f32, as cuBLAS's pedantic mode"),
    llvm::cl::init(false));
static llvm::cl::opt<int64_t> splitKTargetBlocks(
    "tessel-split-k-target-blocks",
    llvm::cl::desc("Split-K: split the K loop of a matmul whose 128x128 "
                   "output tiles number fewer than half this (about 2 "
                   "blocks per SM); on by default for cuda targets, for "
                   "any target when given; 0 turns it off"),
    llvm::cl::init(256));
static llvm::cl::opt<int64_t> wgmmaMinTiles(
    "tessel-wgmma-min-tiles",
    llvm::cl::desc("sm_90a: a contraction with fewer 128x128 output tiles "
                   "than this keeps mma.sync's 64x64 blocks (more blocks "
                   "for small problems); 0 gives every qualifying "
                   "contraction to wgmma"),
    llvm::cl::init(66));
static llvm::cl::opt<bool> fuseEpilogues(
    "tessel-fuse-epilogues",
    llvm::cl::desc("Form matmul + elementwise epilogue dispatches (bias, "
                   "activation in the matmul's kernel), for every target"),
    llvm::cl::init(true));
/// Whether IR is printed after passes (set from the command line in main).
static bool printsIR = false;
static llvm::cl::opt<bool> fusedAttention(
    "tessel-fused-attention",
    llvm::cl::desc("Attention in imported graphs is recognised, and "
                   "tessel.attention ops that every target's kernel takes "
                   "(cuda: flash attention; cpu: a loop nest) run as one "
                   "dispatch (false: always decomposed into contractions "
                   "and a softmax)"),
    llvm::cl::init(true));
static llvm::cl::opt<bool> testCrash(
    "tessel-test-crash", llvm::cl::Hidden,
    llvm::cl::desc("Crash inside the compile (tests the crash recovery)"),
    llvm::cl::init(false));
static llvm::cl::opt<std::string> parametersFile(
    "parameters-file",
    llvm::cl::desc("Keep the module's parameters (large constants, "
                   "ml_program globals) outside it, in this safetensors file "
                   "(tessel-run --parameters=FILE supplies them)"),
    llvm::cl::value_desc("file.safetensors"), llvm::cl::init(""));

static llvm::cl::opt<std::string> dumpDir(
    "dump-intermediates",
    llvm::cl::desc("Write every stage (MLIR, LLVM IR) into this directory"),
    llvm::cl::value_desc("dir"), llvm::cl::init(""));

/// Moves every option that is not Tessel's (LLVM's 400 backend flags,
/// MLIR's) behind --help-hidden; --help and --version stay.
static void hideOtherOptions() {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    StringRef name = entry.first;
    if (llvm::is_contained(option->Categories, &tesselOptions) ||
        name == "help" || name == "help-hidden" || name == "version")
      continue;
    if (option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

/// Where the strategies come from besides the cost models, for every
/// target.
static StrategySources strategySources() {
  StrategySources sources;
  sources.strategyFile = strategyFile;
  sources.tuningDb = tuningDb;
  sources.strategyReport = strategyReport;
  sources.printStrategy = printStrategy;
  return sources;
}

static LogicalResult dump(ModuleOp module, StringRef name) {
  if (dumpDir.empty())
    return success();
  std::string path = dumpDir + "/" + name.str();
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(module.getLoc())
           << "cannot write '" << path << "': " << ec.message();
  module.print(os);
  return success();
}

/// Writes the module next to `outputFile` and renames it into place, so
/// that a failed write leaves no partial file and the previous one intact.
/// An existing output that is not a regular file (/dev/null, a pipe) is
/// written in place: renaming over it would replace the device or pipe.
static LogicalResult writeAtomically(Location loc, ArrayRef<uint8_t> bytes) {
  if (outputFile == "-") {
    llvm::outs().write(reinterpret_cast<const char *>(bytes.data()),
                       bytes.size());
    return success();
  }
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(outputFile, status) &&
      llvm::sys::fs::exists(status) &&
      status.type() != llvm::sys::fs::file_type::regular_file) {
    std::error_code ec;
    llvm::raw_fd_ostream os(outputFile, ec);
    if (!ec)
      os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    os.flush();
    if (ec || os.has_error()) {
      std::string why = ec ? ec.message() : os.error().message();
      os.clear_error();
      return emitError(loc) << "cannot write '" << outputFile << "': " << why;
    }
    return success();
  }
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(outputFile + ".tmp-%%%%%%");
  if (!temp)
    return emitError(loc) << "cannot open output file '" << outputFile
                          << "': " << llvm::toString(temp.takeError());
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    os.flush();
    if (os.has_error()) {
      std::string why = os.error().message();
      os.clear_error();
      llvm::consumeError(temp->discard());
      return emitError(loc) << "cannot write '" << outputFile << "': " << why;
    }
  }
  if (llvm::Error e = temp->keep(outputFile)) {
    std::string why = llvm::toString(std::move(e));
    llvm::consumeError(temp->discard());
    return emitError(loc) << "cannot write '" << outputFile << "': " << why;
  }
  return success();
}

static LogicalResult compile(MLIRContext &context, llvm::SourceMgr &sourceMgr) {
  if (testCrash)
    __builtin_trap();
  OwningOpRef<ModuleOp> module = parseInputSource(sourceMgr, &context);
  if (!module)
    return failure();
  if (!dumpDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dumpDir))
      return emitError(module->getLoc())
             << "cannot create '" << dumpDir << "': " << ec.message();
  }
  SmallVector<StringRef> targetList;
  StringRef(targets).split(targetList, ',', -1, false);
  if (targetList.empty())
    return emitError(module->getLoc()) << "--target is empty";
  for (StringRef t : targetList)
    if (failed(getTargetTraits(t)))
      return emitError(module->getLoc())
             << "unsupported target '" << t << "' (expected cpu or cuda)";

  // --mlir-timing: every pass manager (input/dispatch and each target's)
  // reports into one tree, printed when the compile ends.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope timingRoot = timing.getRootScope();
  auto configure = [&](PassManager &pm) -> LogicalResult {
    pm.enableTiming(timingRoot);
    return applyPassManagerCLOptions(pm);
  };
  PassManager pm(&context);
  if (failed(configure(pm)))
    return failure();
  // tessel.attention stays one op where every target has a kernel for it
  // (cuda: flash attention; cpu: the attention loop nest).
  InputOptions inputOptions;
  if (fusedAttention)
    inputOptions.attentionTargets = llvm::join(targetList, ",");
  buildInputPipeline(pm, inputOptions);
  DispatchOptions dispatchOptions;
  setDispatchOptions(dispatchOptions, targetList, fuseEpilogues,
                     splitKTargetBlocks,
                     splitKTargetBlocks.getNumOccurrences() > 0);
  // A strategy file's entries name dispatches: each keeps its own.
  dispatchOptions.deduplicate = strategyFile.empty();
  buildDispatchPipeline(pm, dispatchOptions);
  if (failed(pm.run(*module)))
    return failure();
  if (failed(dump(*module, "host-and-dispatches.mlir")))
    return failure();

  std::vector<ExecutableImage> executables;
  for (StringRef t : targetList) {
    FailureOr<std::vector<ExecutableImage>> images = failure();
    if (t == "cpu") {
      CPUTargetOptions options;
      options.cpu = cpuName;
      options.dumpDir = dumpDir;
      options.strategies = strategySources();
      options.diagnosticPackFirstKBlockOnly = packFirstKBlockOnly;
      options.configurePassManager = configure;
      images = buildCPUExecutables(*module, options);
    } else {
      CUDATargetOptions options;
      options.archs.clear();
      SmallVector<StringRef> archs;
      StringRef(cudaArchs).split(archs, ',', -1, false);
      for (StringRef a : archs)
        options.archs.push_back(a.trim().str());
      options.dumpDir = dumpDir;
      options.tf32 = cudaTF32;
      options.wgmmaMinTiles = wgmmaMinTiles;
      options.strategies = strategySources();
      options.parallelBuilds = !printsIR;
      options.configurePassManager = configure;
      images = buildCUDAExecutables(*module, options);
    }
    if (failed(images))
      return failure();
    for (ExecutableImage &image : *images)
      executables.push_back(std::move(image));
  }

  ModuleWriterOptions writerOptions;
  writerOptions.parametersFile = parametersFile;
  FailureOr<std::vector<uint8_t>> bytes =
      writeModule(*module, executables, writerOptions);
  if (failed(bytes))
    return failure();
  return writeAtomically(module->getLoc(), *bytes);
}


int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --mlir-print-ir-*: the CUDA executables compile one after the other so
  // that the printed IR does not interleave.
  for (int i = 1; i < argc; ++i)
    printsIR |= StringRef(argv[i]).contains("mlir-print-ir");
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  for (llvm::cl::Option *option : std::initializer_list<llvm::cl::Option *>{
           &inputFile, &outputFile, &targets, &cudaArchs, &cpuName,
           &printStrategy, &strategyFile, &tuningDb, &strategyReport,
           &cudaTF32, &splitKTargetBlocks,
           &wgmmaMinTiles, &fuseEpilogues, &fusedAttention, &parametersFile,
           &dumpDir})
    option->addCategory(tesselOptions);
  hideOtherOptions();
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "tessel-compile: compile a tensor program (linalg, tensor, arith, math "
      "on static-shape tensors) into a Tessel module (.tmod)\n\n"
      "  MLIR's debugging flags (--mlir-print-ir-after-all, --mlir-timing, "
      "...) apply to every pass manager; --help-hidden lists them.\n");
  if (outputFile.empty()) {
    llvm::errs() << "tessel-compile: error: no output file (use -o OUT.tmod)\n";
    return 2;
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<TesselDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the user's source; a dump of the op in generic
  // form after each one buries them.
  context.printOpOnDiagnostic(false);

  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "tessel-compile: error: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  // A crash anywhere in the compile (a bug here or upstream: MLIR 22's
  // parser crashes on a few malformed inputs that the source guards do not
  // know) ends in an error naming the input, not in a signal. No output
  // file has been written at that point.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  LogicalResult result = failure();
  if (!recovery.RunSafely([&] { result = compile(context, sourceMgr); })) {
    llvm::errs() << "tessel-compile: error: internal compiler error while "
                    "compiling '"
                 << inputFile
                 << "' (a crash, caught); this is a bug: please report it "
                    "with the input\n";
    llvm::errs().flush();
    std::_Exit(1);
  }
  return failed(result) ? 1 : 0;
}
