//===- tessel-cc.cpp - CUDA C programs for the CPU and the GPU -*- C++ -*-===//
//
//   tessel-cc prog.cu [more.cu host.c ...] -o prog [--target=cpu|cuda|cpu,cuda]
//   tessel-cc -c prog.cu -o prog.o           one object, linked later by
//                                            tessel-cc (or with libtessel_cudart)
//   tessel-cc prog.cu --emit=mlir            the imported kernels (MLIR)
//   tessel-cc prog.cu --emit=tmod -o k.tmod  the compiled kernels (.tmod)
//
// A driver in the manner of nvcc. For each .cu file: clang parses the
// device side and Tessel imports its kernels (compiler/lib/Frontend/CUDA),
// compiles them for each target into a .tmod (GPU->CPU transpilation for
// cpu), and clang compiles the host side with that module embedded where
// the fat binary would be. C and C++ files are compiled by the host
// compiler (cc / c++, as nvcc's -ccbin), with the CUDA headers; the
// program is linked with libtessel_cudart.a, Tessel's CUDA runtime library,
// which runs the kernels on the GPU when one is present and the module has
// cuda code, and on the CPU otherwise.
//
//===----------------------------------------------------------------------===//

#include "tessel/Frontend/CUDA/CUDAFrontend.h"
#include "tessel/Target/CUDACModule.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace mlir;
using namespace mlir::tessel;

static llvm::cl::OptionCategory category("tessel-cc options");
static llvm::cl::list<std::string>
    inputFiles(llvm::cl::Positional, llvm::cl::OneOrMore,
               llvm::cl::desc("<inputs: .cu, .c, .cpp/.cc/.cxx, .o, .a>"),
               llvm::cl::cat(category));
static llvm::cl::opt<std::string> outputFile("o",
                                             llvm::cl::desc("Output file"),
                                             llvm::cl::value_desc("file"),
                                             llvm::cl::cat(category));
static llvm::cl::opt<bool> compileOnly(
    "c", llvm::cl::desc("Compile each input to an object file, do not link"),
    llvm::cl::cat(category));
static llvm::cl::opt<std::string> emit(
    "emit",
    llvm::cl::desc("What to produce: exe (default), mlir (the imported "
                   "kernels), tmod (the compiled kernels of one .cu file)"),
    llvm::cl::init("exe"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> targets(
    "target",
    llvm::cl::desc("Where the kernels run: cpu, cuda, or cpu,cuda (the GPU "
                   "when one is present, else the CPU)"),
    llvm::cl::init("cpu"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> cudaArch(
    "cuda-arch",
    llvm::cl::desc("GPU architectures of the cuda target, comma-separated"),
    llvm::cl::init("sm_80,sm_90"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> cpuName(
    "cpu",
    llvm::cl::desc("CPUs of the cpu target's kernels, comma-separated: "
                   "host (default) or LLVM CPU names such as x86-64-v3; one "
                   "variant each (e.g. x86-64-v4,x86-64-v3), the most "
                   "capable that the host runs is used"),
    llvm::cl::init("host"), llvm::cl::cat(category));
static llvm::cl::list<std::string> includeDirs("I", llvm::cl::Prefix,
                                               llvm::cl::desc("Include directory"),
                                               llvm::cl::cat(category));
static llvm::cl::list<std::string> defines("D", llvm::cl::Prefix,
                                           llvm::cl::desc("Preprocessor definition"),
                                           llvm::cl::cat(category));
static llvm::cl::list<std::string> libraries("l", llvm::cl::Prefix,
                                             llvm::cl::desc("Link a library"),
                                             llvm::cl::cat(category));
static llvm::cl::list<std::string> libraryDirs("L", llvm::cl::Prefix,
                                               llvm::cl::desc("Library directory"),
                                               llvm::cl::cat(category));
static llvm::cl::list<std::string>
    linkerFlags("Wl,", llvm::cl::Prefix, llvm::cl::CommaSeparated,
                llvm::cl::desc("Pass flags to the linker"),
                llvm::cl::cat(category));
static llvm::cl::opt<std::string>
    optLevel("O", llvm::cl::Prefix,
             llvm::cl::desc("Host code optimization level (0-3, s)"),
             llvm::cl::init("2"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> cStandard(
    "std", llvm::cl::desc("Language standard of the host code (clang's -std)"),
    llvm::cl::cat(category));
static llvm::cl::opt<bool> debugInfo("g", llvm::cl::desc("Host debug info"),
                                     llvm::cl::cat(category));
static llvm::cl::list<std::string> hostFlags(
    "Xcompiler", llvm::cl::CommaSeparated,
    llvm::cl::desc("Pass flags to clang when it compiles host code"),
    llvm::cl::cat(category));
static llvm::cl::opt<std::string> hostCC(
    "host-cc", llvm::cl::desc("C compiler for .c inputs (default: $CC, cc)"),
    llvm::cl::init(getenv("CC") ? getenv("CC") : "cc"),
    llvm::cl::cat(category));
static llvm::cl::opt<std::string> hostCXX(
    "host-cxx",
    llvm::cl::desc("C++ compiler for .cpp/.cc/.cxx inputs (default: $CXX, c++)"),
    llvm::cl::init(getenv("CXX") ? getenv("CXX") : "c++"),
    llvm::cl::cat(category));
static llvm::cl::opt<std::string> cudaHeaders(
    "cuda-headers",
    llvm::cl::desc("Which CUDA headers to compile with: 'tessel' (Tessel's "
                   "own, default) or the path of a CUDA toolkit"),
    llvm::cl::init("tessel"), llvm::cl::cat(category));
static llvm::cl::opt<std::string> cudartLibrary(
    "cudart",
    llvm::cl::desc("Tessel's CUDA runtime library to link"),
    llvm::cl::init(TESSEL_CUDART_LIBRARY), llvm::cl::cat(category));
static llvm::cl::opt<std::string> dumpDir(
    "dump-intermediates",
    llvm::cl::desc("Write the kernels' intermediate files to this directory"),
    llvm::cl::cat(category));
static llvm::cl::opt<bool> fmad(
    "fmad",
    llvm::cl::desc("Contract floating-point multiplies and adds into fused "
                   "multiply-adds (default true, as nvcc's --fmad)"),
    llvm::cl::init(true), llvm::cl::cat(category));
static llvm::cl::opt<bool> verbose(
    "v", llvm::cl::desc("Print the commands tessel-cc runs"),
    llvm::cl::cat(category));
// Switches for measuring what each step of the CPU code gains
// (bench/rodinia's VARIANTS): shown by --help-hidden.
static llvm::cl::opt<std::string> transpile(
    "tessel-transpile",
    llvm::cl::desc("Options of the GPU-to-CPU transpilation, as "
                   "tessel-opt's --tessel-cuda-cpu-pipeline takes them "
                   "(e.g. 'min-cut=false loop-hints=false')"),
    llvm::cl::Hidden, llvm::cl::cat(category));
static llvm::cl::opt<bool> loopVectorize(
    "tessel-cpu-loop-vectorize",
    llvm::cl::desc("Run LLVM's loop vectorizer on the CPU code"),
    llvm::cl::init(true), llvm::cl::Hidden, llvm::cl::cat(category));
// 512: transpiled thread loops of 16-thread blocks fill a zmm register per
// row (CPUTargetOptions::preferVectorWidth).
static llvm::cl::opt<unsigned> preferVectorWidth(
    "tessel-cpu-prefer-vector-width",
    llvm::cl::desc("Widest vector LLVM's vectorizers prefer on CPUs that "
                   "have wider ones (0: the CPU's own tuning)"),
    llvm::cl::init(512), llvm::cl::Hidden, llvm::cl::cat(category));

namespace {

enum class InputKind { CUDA, C, CXX, Object };

InputKind kindOf(StringRef path) {
  StringRef ext = llvm::sys::path::extension(path);
  if (ext == ".cu")
    return InputKind::CUDA;
  if (ext == ".c")
    return InputKind::C;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C")
    return InputKind::CXX;
  return InputKind::Object;
}

/// Errors as compilers print them: file:line:col: error: message.
void printDiagnostics(MLIRContext &context) {
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
    for (Diagnostic &note : diag.getNotes()) {
      std::string at;
      if (auto fl = dyn_cast<FileLineColLoc>(note.getLocation()))
        at = fl.getFilename().str() + ":" + std::to_string(fl.getLine()) +
             ":" + std::to_string(fl.getColumn()) + ": ";
      llvm::errs() << at << "note: " << note.str() << "\n";
    }
    return success();
  });
}

/// Runs `args` (args[0] is the program); prints it first with -v.
bool run(const std::vector<std::string> &args) {
  if (verbose) {
    for (const std::string &a : args)
      llvm::errs() << a << " ";
    llvm::errs() << "\n";
  }
  SmallVector<StringRef> refs(args.begin(), args.end());
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(args[0], refs, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0) {
    llvm::errs() << "tessel-cc: " << llvm::sys::path::filename(args[0])
                 << " failed"
                 << (message.empty() ? "" : ": " + message) << "\n";
    return false;
  }
  return true;
}

/// Temporary files, removed when tessel-cc exits.
class TempFiles {
public:
  std::string create(StringRef stem, StringRef suffix) {
    SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile(stem, suffix, path)) {
      llvm::errs() << "tessel-cc: cannot create a temporary file\n";
      return "";
    }
    removers_.push_back(std::make_unique<llvm::FileRemover>(path));
    return path.str().str();
  }

private:
  std::vector<std::unique_ptr<llvm::FileRemover>> removers_;
};

bool writeBytes(StringRef path, const std::vector<uint8_t> &bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "tessel-cc: cannot write '" << path << "': "
                 << ec.message() << "\n";
    return false;
  }
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  return true;
}

/// The program `name` names (a path or a name on PATH), or nullopt after
/// an error.
std::optional<std::string> hostCompiler(StringRef name) {
  if (llvm::sys::path::has_parent_path(name))
    return name.str();
  llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(name);
  if (!found) {
    llvm::errs() << "tessel-cc: cannot find the host compiler '" << name
                 << "' on PATH (name one with --host-cc / --host-cxx)\n";
    return std::nullopt;
  }
  return *found;
}

struct Driver {
  CUDAFrontendOptions frontend;
  CUDACModuleOptions kernels;
  TempFiles temps;

  std::vector<std::string> preprocessorFlags() const {
    std::vector<std::string> flags;
    for (const std::string &d : includeDirs)
      flags.push_back("-I" + d);
    for (const std::string &d : defines)
      flags.push_back("-D" + d);
    return flags;
  }

  std::vector<std::string> hostCompileFlags() const {
    std::vector<std::string> flags = {"-O" + optLevel};
    if (debugInfo)
      flags.push_back("-g");
    if (!cStandard.empty())
      flags.push_back("-std=" + cStandard);
    for (const std::string &f : hostFlags)
      flags.push_back(f);
    for (std::string &f : preprocessorFlags())
      flags.push_back(std::move(f));
    return flags;
  }

  /// The kernels of `path`, compiled, as a .tmod; nullopt after an error.
  std::optional<std::vector<uint8_t>>
  kernelModule(StringRef path, const CUDAFrontendOptions &options) {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerAllToLLVMIRTranslations(registry);
    MLIRContext context(registry);
    context.printOpOnDiagnostic(false);
    printDiagnostics(context);
    OwningOpRef<ModuleOp> module =
        importCUDAFile(context, path.str(), options);
    if (!module)
      return std::nullopt;
    if (emit == "mlir") {
      module->print(llvm::outs());
      llvm::outs() << "\n";
      return std::vector<uint8_t>();
    }
    FailureOr<std::vector<uint8_t>> tmod = buildCUDACModule(*module, kernels);
    if (failed(tmod))
      return std::nullopt;
    return std::move(*tmod);
  }

  /// `path`, or a copy of it that clang accepts (split launches respaced,
  /// see respaceSplitLaunches) which reports the original name and finds
  /// its includes; "" after an error. `extraArgs` gets what the copy needs.
  std::string cudaSource(StringRef path, std::vector<std::string> &extraArgs) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      llvm::errs() << "tessel-cc: cannot read '" << path << "'\n";
      return "";
    }
    unsigned count = 0;
    std::string text =
        respaceSplitLaunches((*buffer)->getBuffer(), count);
    if (count == 0)
      return path.str();
    SmallString<128> absolute(path);
    llvm::sys::fs::make_absolute(absolute);
    std::string copy = temps.create(llvm::sys::path::stem(path), "cu");
    std::string withLine = "#line 1 \"" + absolute.str().str() + "\"\n" + text;
    if (copy.empty() ||
        !writeBytes(copy, std::vector<uint8_t>(withLine.begin(), withLine.end())))
      return "";
    extraArgs.push_back("-iquote");
    extraArgs.push_back(llvm::sys::path::parent_path(absolute).str());
    return copy;
  }

  /// Compiles one input to an object file at `object`.
  bool compile(StringRef originalPath, InputKind kind, StringRef object) {
    std::vector<std::string> args = {TESSEL_CLANG_CXX};
    std::string path = originalPath.str();
    if (kind == InputKind::CUDA) {
      CUDAFrontendOptions fileFrontend = frontend;
      std::vector<std::string> sourceArgs;
      path = cudaSource(originalPath, sourceArgs);
      if (path.empty())
        return false;
      for (const std::string &a : sourceArgs)
        fileFrontend.extraArgs.push_back(a);
      std::optional<std::vector<uint8_t>> tmod =
          kernelModule(path, fileFrontend);
      if (!tmod)
        return false;
      std::string blob = temps.create("tessel-cc-kernels", "bin");
      if (blob.empty() || !writeBytes(blob, wrapCUDACModule(*tmod)))
        return false;
      for (const char *a :
           {"-x", "cuda", "--cuda-host-only", "-nocudalib",
            "-Wno-unknown-cuda-version"})
        args.push_back(a);
      args.push_back("--cuda-gpu-arch=" + frontend.cudaArch);
      for (std::string &a : cudaHeaderArguments(frontend))
        args.push_back(std::move(a));
      for (const char *a :
           {"-Xclang", "-fcuda-include-gpubinary", "-Xclang"})
        args.push_back(a);
      args.push_back(blob);
      for (const std::string &a : sourceArgs)
        args.push_back(a);
    } else {
      // C and C++ files: the host compiler, as nvcc does, with the CUDA
      // headers on the include path (host code includes cuda_runtime.h).
      std::optional<std::string> compiler =
          hostCompiler(kind == InputKind::C ? hostCC : hostCXX);
      if (!compiler)
        return false;
      args[0] = *compiler;
      if (!frontend.headerDir.empty()) {
        args.push_back("-isystem");
        args.push_back(frontend.headerDir);
      } else {
        args.push_back("-isystem");
        args.push_back(frontend.cudaPath + "/include");
      }
    }
    for (std::string &f : hostCompileFlags())
      args.push_back(std::move(f));
    args.push_back("-c");
    args.push_back(path);
    args.push_back("-o");
    args.push_back(object.str());
    return run(args);
  }

  bool link(const std::vector<std::string> &objects, StringRef output) {
    if (!llvm::sys::fs::exists(cudartLibrary)) {
      llvm::errs() << "tessel-cc: Tessel's CUDA runtime library '"
                   << cudartLibrary
                   << "' is missing (build the tessel_cudart target, or "
                      "name it with --cudart=)\n";
      return false;
    }
    std::vector<std::string> args = {TESSEL_CLANG_CXX};
    for (const std::string &o : objects)
      args.push_back(o);
    for (const std::string &d : libraryDirs)
      args.push_back("-L" + d);
    for (const std::string &l : libraries) {
      // Tessel's library stands for the CUDA runtime; the driver API is
      // not provided (a call to it fails to link, naming the function).
      if (l == "cudart" || l == "cudart_static" || l == "cuda")
        continue;
      args.push_back("-l" + l);
    }
    for (const std::string &f : linkerFlags)
      args.push_back("-Wl," + f);
    args.push_back(cudartLibrary);
    for (const char *a : {"-lz", "-ldl", "-lpthread", "-lm"})
      args.push_back(a);
    args.push_back("-o");
    args.push_back(output.str());
    return run(args);
  }
};

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(argc, argv, "Tessel CUDA C compiler\n");

  Driver driver;
  driver.frontend.resourceDir = TESSEL_CLANG_RESOURCE_DIR;
  if (cudaHeaders == "tessel") {
    driver.frontend.headerDir = TESSEL_CUDA_HEADER_DIR;
    if (!llvm::sys::fs::exists(driver.frontend.headerDir +
                               "/__tessel_cuda_runtime.h")) {
      llvm::errs() << "tessel-cc: Tessel's CUDA headers are missing from '"
                   << driver.frontend.headerDir << "'\n";
      return 1;
    }
  } else {
    driver.frontend.cudaPath = cudaHeaders;
  }
  driver.frontend.extraArgs = driver.preprocessorFlags();
  // What the kernels' importer reads (clang's FP options at each operator,
  // so `#pragma clang fp contract` in the source still rules).
  driver.frontend.extraArgs.push_back(fmad ? "-ffp-contract=fast"
                                           : "-ffp-contract=off");
  if (!cStandard.empty())
    driver.frontend.extraArgs.push_back("-std=" + cStandard);

  driver.kernels.cpu = driver.kernels.cuda = false;
  SmallVector<StringRef> targetList;
  StringRef(targets).split(targetList, ',');
  for (StringRef t : targetList) {
    if (t == "cpu")
      driver.kernels.cpu = true;
    else if (t == "cuda")
      driver.kernels.cuda = true;
    else {
      llvm::errs() << "tessel-cc: unknown target '" << t
                   << "' (expected cpu, cuda or cpu,cuda)\n";
      return 1;
    }
  }
  driver.kernels.cudaOptions.archs.clear();
  SmallVector<StringRef> archs;
  StringRef(cudaArch).split(archs, ',');
  for (StringRef a : archs)
    driver.kernels.cudaOptions.archs.push_back(a.str());
  driver.kernels.cpuOptions.cpu = cpuName;
  driver.kernels.cpuOptions.preferVectorWidth = preferVectorWidth;
  driver.kernels.cpuOptions.loopVectorize = loopVectorize;
  driver.kernels.cpuOptions.transpile = transpile;
  // As tessel-compile: the directory is made if it does not exist.
  if (!dumpDir.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(dumpDir)) {
      llvm::errs() << "tessel-cc: cannot create '" << dumpDir
                   << "': " << ec.message() << "\n";
      return 1;
    }
  driver.kernels.cpuOptions.dumpDir = dumpDir;
  driver.kernels.cudaOptions.dumpDir = dumpDir;
  auto debugFlags = [](PassManager &pm) { return applyPassManagerCLOptions(pm); };
  driver.kernels.cpuOptions.configurePassManager = debugFlags;
  driver.kernels.cudaOptions.configurePassManager = debugFlags;

  if (emit == "mlir" || emit == "tmod") {
    if (inputFiles.size() != 1 || kindOf(inputFiles[0]) != InputKind::CUDA) {
      llvm::errs() << "tessel-cc: --emit=" << emit << " takes one .cu file\n";
      return 1;
    }
    std::vector<std::string> sourceArgs;
    std::string source = driver.cudaSource(inputFiles[0], sourceArgs);
    if (source.empty())
      return 1;
    CUDAFrontendOptions frontend = driver.frontend;
    for (const std::string &a : sourceArgs)
      frontend.extraArgs.push_back(a);
    std::optional<std::vector<uint8_t>> tmod =
        driver.kernelModule(source, frontend);
    if (!tmod)
      return 1;
    if (emit == "mlir")
      return 0;
    if (outputFile.empty()) {
      llvm::errs() << "tessel-cc: --emit=tmod needs -o\n";
      return 1;
    }
    return writeBytes(outputFile, *tmod) ? 0 : 1;
  }
  if (emit != "exe") {
    llvm::errs() << "tessel-cc: unknown --emit=" << emit
                 << " (expected exe, mlir or tmod)\n";
    return 1;
  }

  if (compileOnly) {
    size_t sources = 0;
    for (const std::string &in : inputFiles)
      sources += kindOf(in) != InputKind::Object;
    if (!outputFile.empty() && sources > 1) {
      llvm::errs() << "tessel-cc: -c -o takes one source file\n";
      return 1;
    }
  }

  std::vector<std::string> objects;
  for (const std::string &in : inputFiles) {
    InputKind kind = kindOf(in);
    if (kind == InputKind::Object) {
      objects.push_back(in);
      continue;
    }
    if (!llvm::sys::fs::exists(in)) {
      llvm::errs() << "tessel-cc: no such file: '" << in << "'\n";
      return 1;
    }
    std::string object;
    if (compileOnly) {
      SmallString<128> name(llvm::sys::path::filename(in));
      llvm::sys::path::replace_extension(name, "o");
      object = outputFile.empty() ? name.str().str() : outputFile.getValue();
    } else {
      object = driver.temps.create(llvm::sys::path::stem(in), "o");
      if (object.empty())
        return 1;
    }
    if (!driver.compile(in, kind, object))
      return 1;
    objects.push_back(object);
  }
  if (compileOnly)
    return 0;
  std::string output = outputFile.empty() ? "a.out" : outputFile.getValue();
  return driver.link(objects, output) ? 0 : 1;
}
