//===- CPUTarget.cpp - CPU target backend ----------------------*- C++ -*-===//
//
// configure: pick each --cpu variant's CPU, features and vector width;
// translate: run tessel-cpu-codegen-pipeline per variant, then LLVM's O3
// pipeline (the variants' LLVM in parallel, one LLVMContext each);
// serialize: emit an object file and link it into a shared object with the
// system linker (`ld`), which the runtime loads from memory. One executable
// per variant, most capable first: the runtime loads the first whose CPU
// features the host has.
//
//===----------------------------------------------------------------------===//

#include "tessel/Target/CPU/CPUTarget.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Target/TargetDescription.h"
#include "tessel/Target/TargetUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Threading.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Features recorded in the module so that the runtime can refuse a CPU
/// that lacks them instead of dying of SIGILL: those LLVM may emit
/// instructions of on its own and that the runtime can query
/// (runtime/src/hal/cpu/cpu_features.cpp). Not AMD's sse4a, fma4 or xop,
/// which LLVM does not use unasked: a znver module would refuse Intel CPUs.
constexpr llvm::StringLiteral kCheckedFeatures[] = {
    "sse3",       "ssse3",      "sse4.1",     "sse4.2",     "popcnt",
    "avx",        "avx2",       "fma",        "f16c",       "bmi",
    "bmi2",       "avx512f",    "avx512bw",   "avx512vl",   "avx512dq",
    "avx512cd",   "avx512vnni", "avx512bf16", "avx512ifma", "avx512vbmi"};

struct CPUSelection {
  /// As --cpu spelled it ("host", "x86-64-v4").
  std::string name;
  llvm::Triple triple;
  /// The LLVM CPU compiled for (for "host", the host's).
  std::string cpu;
  std::string featureString;
  std::vector<std::string> recordedFeatures;
  int64_t vectorBits = 128;
};

void initializeNativeTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

/// The processor names LLVM knows for `triple` closest to `name` (a typo's
/// likely meaning), as " (did you mean 'x'?)", or "".
std::string suggestCPU(const llvm::MCSubtargetInfo &sti, llvm::StringRef name) {
  std::string best;
  unsigned bestDistance = 3;
  for (const llvm::SubtargetSubTypeKV &proc :
       sti.getAllProcessorDescriptions()) {
    unsigned d = name.edit_distance_insensitive(proc.Key, true, bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = proc.Key;
    }
  }
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

/// The CPU, features and vector width of one --cpu entry; an error for a
/// name LLVM does not know.
FailureOr<CPUSelection> selectCPU(Location loc, llvm::StringRef name) {
  CPUSelection sel;
  sel.name = name.str();
  sel.triple = llvm::Triple(llvm::sys::getDefaultTargetTriple());
  llvm::StringMap<bool> features;
  if (name == "host") {
    sel.cpu = llvm::sys::getHostCPUName().str();
    features = llvm::sys::getHostCPUFeatures();
  } else {
    sel.cpu = name.str();
    // A named CPU implies its features (x86-64-v4: AVX-512, which LLVM then
    // uses): record them, so that the runtime refuses a CPU without them
    // rather than dying of SIGILL, and size vectors by them.
    initializeNativeTarget();
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(sel.triple, error);
    if (!target)
      return emitError(loc) << "cannot compile for the CPU '" << name
                            << "': no target for '" << sel.triple.str()
                            << "': " << error;
    // Asked with no CPU first: an unknown one would only draw a warning.
    std::unique_ptr<llvm::MCSubtargetInfo> probe(
        target->createMCSubtargetInfo(sel.triple, "", ""));
    if (!probe || !probe->isCPUStringValid(name))
      return emitError(loc)
             << "unknown CPU '" << name << "' in --cpu: not a CPU LLVM knows "
             << "for " << sel.triple.str()
             << (probe ? suggestCPU(*probe, name) : std::string())
             << " (expected host or an LLVM CPU name such as x86-64-v3, "
                "x86-64-v4, skylake-avx512, znver4)";
    std::unique_ptr<llvm::MCSubtargetInfo> sti(
        target->createMCSubtargetInfo(sel.triple, sel.cpu, ""));
    if (sti)
      for (llvm::StringRef f : kCheckedFeatures)
        features[f] = sti->checkFeatures(("+" + f).str());
  }
  SmallVector<std::string> flags;
  for (auto &entry : features)
    flags.push_back((entry.second ? "+" : "-") + entry.getKey().str());
  llvm::sort(flags);
  sel.featureString = llvm::join(flags, ",");
  for (llvm::StringRef f : kCheckedFeatures)
    if (features.lookup(f))
      sel.recordedFeatures.push_back(f.str());
  if (features.lookup("avx512f"))
    sel.vectorBits = 512;
  else if (features.lookup("avx2") || features.lookup("avx"))
    sel.vectorBits = 256;
  return sel;
}

/// The entries of --cpu (`list`, comma-separated), most capable first:
/// wider vectors, then more recorded features (a superset of another's
/// comes before it), then as listed. The runtime loads the first whose
/// features the host has. Errors name an empty, repeated or unknown entry,
/// and two entries the runtime could not tell apart (same features).
FailureOr<std::vector<CPUSelection>> selectCPUs(Location loc,
                                                llvm::StringRef list) {
  SmallVector<llvm::StringRef> names;
  list.split(names, ',', -1, /*KeepEmpty=*/true);
  std::vector<CPUSelection> sels;
  for (llvm::StringRef raw : names) {
    llvm::StringRef name = raw.trim();
    if (name.empty())
      return emitError(loc) << "--cpu='" << list
                            << "' has an empty entry (expected CPU names "
                               "separated by commas, e.g. x86-64-v4,x86-64-v3)";
    for (const CPUSelection &other : sels)
      if (other.name == name)
        return emitError(loc) << "--cpu lists '" << name << "' twice";
    FailureOr<CPUSelection> sel = selectCPU(loc, name);
    if (failed(sel))
      return failure();
    for (const CPUSelection &other : sels)
      if (other.recordedFeatures == sel->recordedFeatures)
        return emitError(loc)
               << "--cpu: '" << name << "' and '" << other.name
               << "' need the same CPU features ["
               << llvm::join(sel->recordedFeatures, ", ")
               << "], so the runtime could never choose between them "
                  "(list one)";
    sels.push_back(std::move(*sel));
  }
  llvm::stable_sort(sels, [](const CPUSelection &a, const CPUSelection &b) {
    if (a.vectorBits != b.vectorBits)
      return a.vectorBits > b.vectorBits;
    return a.recordedFeatures.size() > b.recordedFeatures.size();
  });
  return sels;
}

std::unique_ptr<llvm::TargetMachine> createTargetMachine(const CPUSelection &sel,
                                                         std::string &error) {
  initializeNativeTarget();
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(sel.triple, error);
  if (!target)
    return nullptr;
  llvm::TargetOptions opts;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      sel.triple, sel.cpu, sel.featureString, opts, llvm::Reloc::PIC_,
      std::nullopt, llvm::CodeGenOptLevel::Aggressive));
}

/// C library functions kernels may call: the runtime process has libm and
/// libc loaded when it opens the kernel library.
bool isProvidedByRuntime(llvm::StringRef name) {
  static const llvm::StringSet<> provided = [] {
    llvm::StringSet<> s;
    for (const char *base :
         {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow",
          "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan",
          "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf",
          "erfc", "fabs", "floor", "ceil", "round", "roundeven", "trunc",
          "fmod", "fmin", "fmax", "copysign", "rint", "nearbyint", "fma",
          "ldexp", "frexp", "hypot"}) {
      s.insert(base);
      s.insert((llvm::Twine(base) + "f").str());
    }
    for (const char *fn : {"memcpy", "memmove", "memset", "malloc", "free",
                           "aligned_alloc", "posix_memalign"})
      s.insert(fn);
    return s;
  }();
  return provided.contains(name);
}

/// Fails, naming the function, if a kernel calls something that would only
/// show up as an unresolved symbol when the runtime loads the module.
LogicalResult checkExternalCalls(Location loc, const llvm::Module &module) {
  for (const llvm::Function &fn : module)
    if (fn.isDeclaration() && !fn.isIntrinsic() && !fn.use_empty() &&
        !isProvidedByRuntime(fn.getName()))
      return emitError(loc) << "CPU kernels call '" << fn.getName()
                            << "', which the Tessel runtime does not provide";
  return success();
}

/// x86 without AVX512-BF16 keeps bf16 values in f32 registers and rounds
/// them back with a libcall, __truncsfbf2 (compiler-rt, libgcc 13+), which
/// the kernels are not linked with. Defines it in `module`: round to
/// nearest even, NaN stays a quiet NaN.
void defineBf16Truncation(llvm::Module &module) {
  if (module.getFunction("__truncsfbf2"))
    return;
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *f32 = llvm::Type::getFloatTy(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getBFloatTy(ctx), {f32}, false),
      llvm::GlobalValue::ExternalLinkage, "__truncsfbf2", module);
  fn->setVisibility(llvm::GlobalValue::HiddenVisibility);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "", fn));
  llvm::Value *x = fn->getArg(0);
  llvm::Value *bits = b.CreateBitCast(x, i32);
  llvm::Value *high = b.CreateLShr(bits, 16);
  llvm::Value *lsb = b.CreateAnd(high, 1);
  llvm::Value *rounded =
      b.CreateLShr(b.CreateAdd(bits, b.CreateAdd(lsb, b.getInt32(0x7fff))), 16);
  llvm::Value *quietNan = b.CreateOr(high, 0x40);
  llvm::Value *result =
      b.CreateSelect(b.CreateFCmpUNO(x, x), quietNan, rounded);
  b.CreateRet(b.CreateBitCast(b.CreateTrunc(result, b.getInt16Ty()),
                              llvm::Type::getBFloatTy(ctx)));
}

void optimize(llvm::Module &module, llvm::TargetMachine &tm,
              unsigned preferVectorWidth, bool loopVectorize) {
  if (preferVectorWidth != 0)
    for (llvm::Function &fn : module)
      if (!fn.isDeclaration())
        fn.addFnAttr("prefer-vector-width", std::to_string(preferVectorWidth));
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = loopVectorize;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm =
      pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
}

/// Links `object` into a shared object with the system linker.
FailureOr<std::vector<uint8_t>> linkSharedObject(Location loc,
                                                 StringRef object) {
  llvm::ErrorOr<std::string> ld = llvm::sys::findProgramByName("ld");
  if (!ld)
    return emitError(loc)
           << "cannot find the system linker 'ld' on PATH (install binutils)";
  SmallString<128> objPath, soPath;
  if (llvm::sys::fs::createTemporaryFile("tessel-cpu", "o", objPath) ||
      llvm::sys::fs::createTemporaryFile("tessel-cpu", "so", soPath))
    return emitError(loc) << "cannot create temporary files";
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(objPath);
    llvm::sys::fs::remove(soPath);
  });
  if (failed(writeFile(loc, objPath, object)))
    return failure();
  SmallVector<StringRef> args = {*ld, "-shared", "--no-undefined-version",
                                 "-o", soPath, objPath};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*ld, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0)
    return emitError(loc) << "linking the CPU kernels failed (ld exit " << rc
                          << "): " << message;
  auto buffer = llvm::MemoryBuffer::getFile(soPath, false, false);
  if (!buffer)
    return emitError(loc) << "cannot read linked kernels '" << soPath << "'";
  return std::vector<uint8_t>((*buffer)->getBufferStart(),
                              (*buffer)->getBufferEnd());
}

/// The target machine for `sel`, or an error.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
targetMachineFor(Location loc, const CPUSelection &sel) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(sel, error);
  if (!tm)
    return emitError(loc) << "cannot create a CPU target for '"
                          << sel.triple.str() << "' / '" << sel.cpu
                          << "': " << error;
  return tm;
}

/// One variant of the kernels on its way from LLVM IR to a shared object:
/// a context and a target machine of its own, so that variants can be
/// optimized and emitted in parallel.
struct Variant {
  const CPUSelection *sel = nullptr;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  /// Where to write the optimized LLVM IR ("" = nowhere).
  std::string dumpPath;
  /// CPUTargetOptions::preferVectorWidth and loopVectorize.
  unsigned preferVectorWidth = 0;
  bool loopVectorize = true;
  BinaryImage binary;
};

/// "" with one variant (the files keep their names), else "-NAME".
std::string dumpSuffix(const std::vector<CPUSelection> &sels,
                       const CPUSelection &sel) {
  return sels.size() == 1 ? std::string() : "-" + sel.name;
}

/// LLVM-dialect kernels -> LLVM IR in a context of the variant's own.
LogicalResult translateKernels(Location loc, ModuleOp kernels,
                               Variant &variant) {
  variant.context = std::make_unique<llvm::LLVMContext>();
  variant.module =
      translateModuleToLLVMIR(kernels, *variant.context, "tessel_cpu_kernels");
  if (!variant.module)
    return emitError(loc) << "translation of CPU kernels to LLVM IR failed";
  variant.module->setTargetTriple(variant.sel->triple);
  variant.module->setDataLayout(variant.tm->createDataLayout());
  return success();
}

/// LLVM IR -> O3, an object file, a shared object. Touches nothing but
/// `variant` (safe to run for several variants at once).
LogicalResult emitSharedObject(Location loc, Variant &variant) {
  llvm::Module &llvmModule = *variant.module;
  optimize(llvmModule, *variant.tm, variant.preferVectorWidth,
           variant.loopVectorize);
  defineBf16Truncation(llvmModule);
  if (failed(checkExternalCalls(loc, llvmModule)))
    return failure();
  if (!variant.dumpPath.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvmModule.print(os, nullptr);
    (void)writeFile(loc, variant.dumpPath, text);
  }

  SmallString<0> object;
  {
    llvm::raw_svector_ostream os(object);
    llvm::legacy::PassManager codegenPM;
    if (variant.tm->addPassesToEmitFile(codegenPM, os, nullptr,
                                        llvm::CodeGenFileType::ObjectFile))
      return emitError(loc) << "the CPU target cannot emit object files";
    codegenPM.run(llvmModule);
  }
  // The IR is no longer needed: free it before the link.
  variant.module.reset();
  variant.context.reset();
  FailureOr<std::vector<uint8_t>> so = linkSharedObject(loc, object);
  if (failed(so))
    return failure();

  BinaryImage &binary = variant.binary;
  binary.format = "elf-shared-object";
  binary.arch = variant.sel->triple.getArchName().str();
  binary.cpu = variant.sel->cpu;
  binary.features = variant.sel->recordedFeatures;
  binary.data = std::move(*so);
  return success();
}

/// Variants for --cpu's entries, each with its target machine, or an error.
FailureOr<std::vector<Variant>>
prepareVariants(Location loc, const std::vector<CPUSelection> &sels,
                const CPUTargetOptions &options) {
  std::vector<Variant> variants(sels.size());
  for (size_t i = 0; i < sels.size(); ++i) {
    variants[i].sel = &sels[i];
    FailureOr<std::unique_ptr<llvm::TargetMachine>> tm =
        targetMachineFor(loc, sels[i]);
    if (failed(tm))
      return failure();
    variants[i].tm = std::move(*tm);
    variants[i].preferVectorWidth = options.preferVectorWidth;
    variants[i].loopVectorize = options.loopVectorize;
    if (!options.dumpDir.empty())
      variants[i].dumpPath =
          options.dumpDir + "/cpu-kernels" + dumpSuffix(sels, sels[i]) + ".ll";
  }
  return variants;
}

/// Optimizes, emits and links every variant (in parallel unless the
/// context's multithreading is off), then gives each its executable:
/// `exports[i]` are the exports of variant i.
FailureOr<std::vector<ExecutableImage>>
finishVariants(MLIRContext *context, Location loc,
               std::vector<Variant> &variants,
               std::vector<std::vector<KernelExport>> exports) {
  if (failed(failableParallelForEach(
          context, variants,
          [&](Variant &variant) { return emitSharedObject(loc, variant); })))
    return failure();
  std::vector<ExecutableImage> images;
  for (size_t i = 0; i < variants.size(); ++i) {
    ExecutableImage image;
    image.target = "cpu";
    image.exports = std::move(exports[i]);
    image.binaries.push_back(std::move(variants[i].binary));
    images.push_back(std::move(image));
  }
  return images;
}

} // namespace

FailureOr<std::vector<ExecutableImage>>
mlir::tessel::buildCPUExecutables(ModuleOp module,
                                  const CPUTargetOptions &options) {
  Location loc = module.getLoc();
  FailureOr<std::vector<CPUSelection>> sels = selectCPUs(loc, options.cpu);
  if (failed(sels))
    return failure();
  FailureOr<std::vector<Variant>> variants =
      prepareVariants(loc, *sels, options);
  if (failed(variants))
    return failure();

  // Code generation runs per variant (the vector width shapes the tiles,
  // so the workgroup counts differ); the kernels, in dispatch-ordinal
  // order, are in a module of their own.
  std::vector<std::vector<KernelExport>> exports;
  for (Variant &variant : *variants) {
    const CPUSelection &sel = *variant.sel;
    std::vector<KernelExport> &variantExports = exports.emplace_back();
    OwningOpRef<ModuleOp> kernels =
        cloneDispatchFunctions(module, variantExports);
    (*kernels)->setAttr(kTargetAttr,
                        getCPUTargetDescription(module.getContext(), sel.cpu,
                                                sel.vectorBits));
    PassManager pm(module.getContext());
    if (options.configurePassManager &&
        failed(options.configurePassManager(pm)))
      return failure();
    CPUCodegenOptions codegen;
    codegen.vectorBits = sel.vectorBits;
    codegen.printStrategy = options.strategies.printStrategy;
    codegen.strategyFile = options.strategies.strategyFile;
    codegen.tuningDb = options.strategies.tuningDb;
    if (!options.strategies.strategyReport.empty())
      codegen.strategyReport =
          options.strategies.strategyReport + "." + sel.name + ".json";
    codegen.diagnosticPackFirstKBlockOnly =
        options.diagnosticPackFirstKBlockOnly;
    buildCPUCodegenPipeline(pm, codegen);
    if (failed(pm.run(*kernels)))
      return emitError(loc) << "CPU code generation failed"
                            << (sels->size() > 1 ? " for '" + sel.name + "'"
                                                 : std::string());
    if (!options.dumpDir.empty()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      kernels->print(os);
      (void)writeFile(loc,
                      options.dumpDir + "/cpu-kernels" +
                          dumpSuffix(*sels, sel) + ".mlir",
                      text);
    }

    for (KernelExport &e : variantExports) {
      auto fn = kernels->lookupSymbol<LLVM::LLVMFuncOp>(e.name);
      if (failed(readWorkgroupCount(loc, fn, e)))
        return failure();
      if (auto bytes = fn->getAttrOfType<IntegerAttr>(kScratchBytesAttr))
        e.scratchBytes = bytes.getInt();
      if (auto zeroed = fn->getAttrOfType<IntegerAttr>(kScratchZeroedBytesAttr))
        e.scratchZeroedBytes = zeroed.getInt();
    }
    if (failed(translateKernels(loc, *kernels, variant)))
      return failure();
  }
  return finishVariants(module.getContext(), loc, *variants,
                        std::move(exports));
}

FailureOr<std::vector<ExecutableImage>>
mlir::tessel::buildCUDACCPUExecutables(ModuleOp module,
                                       const CPUTargetOptions &options) {
  Location loc = module.getLoc();
  FailureOr<std::vector<CPUSelection>> sels = selectCPUs(loc, options.cpu);
  if (failed(sels))
    return failure();
  FailureOr<std::vector<Variant>> variants =
      prepareVariants(loc, *sels, options);
  if (failed(variants))
    return failure();

  FailureOr<std::vector<KernelExport>> exports = cudaCKernelExports(module);
  if (failed(exports))
    return failure();

  // The transpiled kernels do not depend on the CPU: one MLIR pipeline,
  // then LLVM per variant.
  OwningOpRef<ModuleOp> kernels = cast<ModuleOp>(module->clone());
  PassManager pm(module.getContext());
  if (options.configurePassManager &&
      failed(options.configurePassManager(pm)))
    return failure();
  std::unique_ptr<TranspileOptions> transpile =
      TranspileOptions::createFromString(options.transpile);
  if (!transpile)
    return emitError(loc) << "malformed transpilation options '"
                          << options.transpile
                          << "' (expected e.g. 'min-cut=false loop-hints=false')";
  buildCUDAToCPUPipeline(pm, *transpile);
  if (failed(pm.run(*kernels)))
    return emitError(loc) << "transpiling the CUDA kernels to the CPU failed";

  for (Variant &variant : *variants)
    if (failed(translateKernels(loc, *kernels, variant)))
      return failure();
  return finishVariants(module.getContext(), loc, *variants,
                        std::vector<std::vector<KernelExport>>(
                            variants->size(), *exports));
}
