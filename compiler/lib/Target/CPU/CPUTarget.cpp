//===- CPUTarget.cpp - CPU target backend ----------------------*- C++ -*-===//
//
// configure: pick the CPU, its features and vector width;
// translate: run tessel-cpu-codegen-pipeline, then LLVM's O3 pipeline;
// serialize: emit an object file and link it into a shared object with the
// system linker (`ld`), which the runtime loads from memory.
//
//===----------------------------------------------------------------------===//

#include "tessel/Target/CPU/CPUTarget.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Target/TargetUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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
/// that lacks them instead of dying of SIGILL.
constexpr llvm::StringLiteral kCheckedFeatures[] = {
    "sse4.2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw",
    "avx512vl", "avx512dq"};

struct CPUSelection {
  llvm::Triple triple;
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

CPUSelection selectCPU(const CPUTargetOptions &options) {
  CPUSelection sel;
  sel.triple = llvm::Triple(llvm::sys::getDefaultTargetTriple());
  llvm::StringMap<bool> features;
  if (options.cpu == "host") {
    sel.cpu = llvm::sys::getHostCPUName().str();
    features = llvm::sys::getHostCPUFeatures();
  } else {
    sel.cpu = options.cpu;
    // A named CPU implies its features (x86-64-v4: AVX-512, which LLVM then
    // uses): record them, so that the runtime refuses a CPU without them
    // rather than dying of SIGILL, and size vectors by them.
    initializeNativeTarget();
    std::string error;
    if (const llvm::Target *target =
            llvm::TargetRegistry::lookupTarget(sel.triple, error)) {
      std::unique_ptr<llvm::MCSubtargetInfo> sti(
          target->createMCSubtargetInfo(sel.triple, sel.cpu, ""));
      if (sti)
        for (llvm::StringRef f : kCheckedFeatures)
          features[f] = sti->checkFeatures(("+" + f).str());
    }
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

void optimize(llvm::Module &module, llvm::TargetMachine &tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
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
  auto cleanup = llvm::make_scope_exit([&] {
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

/// LLVM-dialect kernels -> LLVM IR, O3, an object file, a shared object.
FailureOr<BinaryImage> serializeKernels(Location loc, ModuleOp kernels,
                                        const CPUSelection &sel,
                                        llvm::TargetMachine &tm,
                                        const CPUTargetOptions &options) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(kernels, llvmContext, "tessel_cpu_kernels");
  if (!llvmModule)
    return emitError(loc) << "translation of CPU kernels to LLVM IR failed";
  llvmModule->setTargetTriple(sel.triple);
  llvmModule->setDataLayout(tm.createDataLayout());
  optimize(*llvmModule, tm);
  defineBf16Truncation(*llvmModule);
  if (failed(checkExternalCalls(loc, *llvmModule)))
    return failure();
  if (!options.dumpDir.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvmModule->print(os, nullptr);
    (void)writeFile(loc, options.dumpDir + "/cpu-kernels.ll", text);
  }

  SmallString<0> object;
  {
    llvm::raw_svector_ostream os(object);
    llvm::legacy::PassManager codegenPM;
    if (tm.addPassesToEmitFile(codegenPM, os, nullptr,
                                llvm::CodeGenFileType::ObjectFile))
      return emitError(loc) << "the CPU target cannot emit object files";
    codegenPM.run(*llvmModule);
  }
  FailureOr<std::vector<uint8_t>> so = linkSharedObject(loc, object);
  if (failed(so))
    return failure();

  BinaryImage binary;
  binary.format = "elf-shared-object";
  binary.arch = sel.triple.getArchName().str();
  binary.features = sel.recordedFeatures;
  binary.data = std::move(*so);
  return binary;
}

/// The target machine for `options`, or an error.
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

} // namespace

FailureOr<ExecutableImage>
mlir::tessel::buildCPUExecutable(ModuleOp module,
                                 const CPUTargetOptions &options) {
  Location loc = module.getLoc();
  CPUSelection sel = selectCPU(options);
  FailureOr<std::unique_ptr<llvm::TargetMachine>> tm =
      targetMachineFor(loc, sel);
  if (failed(tm))
    return failure();

  // The kernels, in dispatch-ordinal order, in a module of their own.
  ExecutableImage image;
  image.target = "cpu";
  OwningOpRef<ModuleOp> kernels = cloneDispatchFunctions(module, image.exports);

  PassManager pm(module.getContext());
  if (options.configurePassManager &&
      failed(options.configurePassManager(pm)))
    return failure();
  CPUCodegenOptions codegen;
  codegen.vectorBits = sel.vectorBits;
  buildCPUCodegenPipeline(pm, codegen);
  if (failed(pm.run(*kernels)))
    return emitError(loc) << "CPU code generation failed";
  if (!options.dumpDir.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    kernels->print(os);
    (void)writeFile(loc, options.dumpDir + "/cpu-kernels.mlir", text);
  }

  for (KernelExport &e : image.exports) {
    auto fn = kernels->lookupSymbol<LLVM::LLVMFuncOp>(e.name);
    auto count = fn ? fn->getAttrOfType<DenseI64ArrayAttr>(kWorkgroupCountAttr)
                    : DenseI64ArrayAttr();
    if (!count || count.size() != 3)
      return emitError(loc) << "internal error: kernel '" << e.name
                            << "' lost its workgroup count";
    for (int i = 0; i < 3; ++i)
      e.workgroupCount[i] = count[i];
  }

  FailureOr<BinaryImage> binary =
      serializeKernels(loc, *kernels, sel, **tm, options);
  if (failed(binary))
    return failure();
  image.binaries.push_back(std::move(*binary));
  return image;
}

FailureOr<ExecutableImage>
mlir::tessel::buildCUDACCPUExecutable(ModuleOp module,
                                      const CPUTargetOptions &options) {
  Location loc = module.getLoc();
  CPUSelection sel = selectCPU(options);
  FailureOr<std::unique_ptr<llvm::TargetMachine>> tm =
      targetMachineFor(loc, sel);
  if (failed(tm))
    return failure();

  ExecutableImage image;
  image.target = "cpu";
  FailureOr<std::vector<KernelExport>> exports = cudaCKernelExports(module);
  if (failed(exports))
    return failure();
  image.exports = std::move(*exports);

  OwningOpRef<ModuleOp> kernels = cast<ModuleOp>(module->clone());
  PassManager pm(module.getContext());
  if (options.configurePassManager &&
      failed(options.configurePassManager(pm)))
    return failure();
  buildCUDAToCPUPipeline(pm);
  if (failed(pm.run(*kernels)))
    return emitError(loc) << "transpiling the CUDA kernels to the CPU failed";

  FailureOr<BinaryImage> binary =
      serializeKernels(loc, *kernels, sel, **tm, options);
  if (failed(binary))
    return failure();
  image.binaries.push_back(std::move(*binary));
  return image;
}
