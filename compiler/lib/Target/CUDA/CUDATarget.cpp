//===- CUDATarget.cpp - CUDA target backend --------------------*- C++ -*-===//
//
// configure: find the toolkit (libdevice, ptxas) and the PTX architecture;
// translate: tessel-cuda-codegen-pipeline, then gpu-module-to-binary to PTX;
// serialize: ptxas per requested architecture.
// A kernel that calls a libdevice function that was not linked is a compile
// error here, never an `.extern .func __nv_*` left for the driver to trip on.
//
//===----------------------------------------------------------------------===//

#include "tessel/Target/CUDA/CUDATarget.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Target/TargetUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tessel;

namespace {

std::string findToolkit(const CUDATargetOptions &options) {
  if (!options.toolkit.empty())
    return options.toolkit;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(var); v && *v)
      return v;
  return "/usr/local/cuda";
}

/// Assembles `ptx` for `arch` with ptxas.
FailureOr<std::vector<uint8_t>> assemble(Location loc, StringRef ptxas,
                                         StringRef ptx, StringRef arch) {
  SmallString<128> ptxPath, cubinPath, logPath;
  if (llvm::sys::fs::createTemporaryFile("tessel-cuda", "ptx", ptxPath) ||
      llvm::sys::fs::createTemporaryFile("tessel-cuda", "cubin", cubinPath) ||
      llvm::sys::fs::createTemporaryFile("tessel-cuda", "log", logPath))
    return emitError(loc) << "cannot create temporary files";
  auto cleanup = llvm::make_scope_exit([&] {
    llvm::sys::fs::remove(ptxPath);
    llvm::sys::fs::remove(cubinPath);
    llvm::sys::fs::remove(logPath);
  });
  if (failed(writeFile(loc, ptxPath, ptx)))
    return failure();
  std::string archFlag = ("-arch=" + arch).str();
  SmallVector<StringRef> args = {ptxas, archFlag, "-O3", ptxPath, "-o",
                                 cubinPath};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0,
                                     0, &message);
  if (rc != 0) {
    auto log = llvm::MemoryBuffer::getFile(logPath);
    return emitError(loc) << "ptxas failed for " << arch << " (exit " << rc
                          << "): " << (log ? (*log)->getBuffer() : message);
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinPath, false, false);
  if (!cubin)
    return emitError(loc) << "cannot read cubin '" << cubinPath << "'";
  return std::vector<uint8_t>((*cubin)->getBufferStart(),
                              (*cubin)->getBufferEnd());
}

LogicalResult runPipeline(ModuleOp module, const CUDATargetOptions &options,
                          function_ref<void(PassManager &)> build) {
  PassManager pm(module.getContext());
  if (options.configurePassManager &&
      failed(options.configurePassManager(pm)))
    return failure();
  build(pm);
  return pm.run(module);
}

} // namespace

FailureOr<ExecutableImage>
mlir::tessel::buildCUDAExecutable(ModuleOp module,
                                  const CUDATargetOptions &options) {
  Location loc = module.getLoc();
  if (options.archs.empty())
    return emitError(loc) << "no CUDA architecture requested";
  for (const std::string &arch : options.archs)
    if (!llvm::Regex("^sm_[0-9]+a?$").match(arch))
      return emitError(loc) << "invalid CUDA architecture '" << arch
                            << "' (expected e.g. sm_80, sm_90)";
  std::string toolkit = findToolkit(options);
  SmallString<128> libdevice(toolkit);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  bool haveLibdevice = llvm::sys::fs::exists(libdevice);

  ExecutableImage image;
  image.target = "cuda";
  OwningOpRef<ModuleOp> kernels = cloneDispatchFunctions(module, image.exports);

  // One kernel serves every architecture of the module, so tensor cores
  // (mma.sync) only when all of them are sm_80 or newer.
  CUDACodegenOptions codegen;
  codegen.printStrategy = options.printStrategy;
  codegen.tf32 = options.tf32;
  for (const std::string &arch : options.archs) {
    unsigned number = 0;
    StringRef(arch).drop_front(3).take_while(llvm::isDigit).getAsInteger(
        10, number);
    if (number < 80)
      codegen.tensorCores = false;
  }
  if (failed(runPipeline(*kernels, options, [&](PassManager &pm) {
        buildCUDAKernelPipeline(pm, codegen);
      })))
    return emitError(loc) << "CUDA code generation failed";
  for (KernelExport &e : image.exports) {
    auto fn = kernels->lookupSymbol<func::FuncOp>(e.name);
    auto count = fn ? fn->getAttrOfType<DenseI64ArrayAttr>(kWorkgroupCountAttr)
                    : DenseI64ArrayAttr();
    auto size = fn ? fn->getAttrOfType<DenseI64ArrayAttr>(kWorkgroupSizeAttr)
                   : DenseI64ArrayAttr();
    if (!count || !size || count.size() != 3 || size.size() != 3)
      return emitError(loc) << "internal error: kernel '" << e.name
                            << "' lost its grid or block size";
    for (int i = 0; i < 3; ++i) {
      e.workgroupCount[i] = count[i];
      e.workgroupSize[i] = size[i];
    }
    if (auto shared = fn->getAttrOfType<IntegerAttr>(kSharedMemoryBytesAttr))
      e.sharedMemoryBytes = static_cast<uint32_t>(shared.getInt());
  }

  codegen.chip = options.archs.front();
  codegen.features = "+ptx80";
  if (haveLibdevice)
    codegen.libdevice = libdevice.str().str();
  // Without a toolkit, upstream's serializer reports the missing CUDA path
  // as an error although PTX needs none; a kernel that needed libdevice is
  // caught below with a clearer message.
  std::optional<ScopedDiagnosticHandler> quietMissingToolkit;
  if (!haveLibdevice)
    quietMissingToolkit.emplace(module.getContext(), [](Diagnostic &diag) {
      std::string text = diag.str();
      return success(StringRef(text).starts_with("CUDA path:") ||
                     StringRef(text).starts_with("LibDevice path:"));
    });
  if (failed(runPipeline(*kernels, options, [&](PassManager &pm) {
        buildCUDALoweringPipeline(pm, codegen);
        GpuModuleToBinaryPassOptions binary;
        binary.compilationTarget = "isa";
        // With a toolkit path the serializer insists on its libdevice.
        if (haveLibdevice)
          binary.toolkitPath = toolkit;
        pm.addPass(createGpuModuleToBinaryPass(binary));
      })))
    return emitError(loc) << "CUDA code generation failed";

  std::string ptx;
  kernels->walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      if (auto o = dyn_cast<gpu::ObjectAttr>(object))
        ptx = o.getObject().getValue().str();
  });
  if (ptx.empty())
    return emitError(loc) << "internal error: no PTX produced";
  // gpu-module-to-binary may keep a trailing NUL; the runtime adds its own.
  while (!ptx.empty() && ptx.back() == '\0')
    ptx.pop_back();
  llvm::Regex externLibdevice("\\.extern \\.func[^\n]*(__nv_[a-z0-9_]+)");
  SmallVector<StringRef> match;
  if (externLibdevice.match(ptx, &match))
    return emitError(loc) << "CUDA kernels call " << match[1]
                          << " from libdevice, which was not found at '"
                          << libdevice
                          << "' (set CUDA_HOME to the CUDA toolkit)";
  if (!options.dumpDir.empty())
    (void)writeFile(loc, options.dumpDir + "/cuda-kernels.ptx", ptx);

  BinaryImage ptxImage;
  ptxImage.format = "ptx";
  ptxImage.arch = options.archs.front();
  ptxImage.data.assign(ptx.begin(), ptx.end());
  image.binaries.push_back(std::move(ptxImage));

  SmallString<128> ptxasPath(toolkit);
  llvm::sys::path::append(ptxasPath, "bin", "ptxas");
  std::string ptxas = ptxasPath.str().str();
  if (!llvm::sys::fs::can_execute(ptxas)) {
    llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas");
    ptxas = onPath ? *onPath : "";
  }
  if (ptxas.empty()) {
    llvm::errs() << "tessel-compile: warning: ptxas not found; the module "
                    "carries PTX only (the driver JIT-compiles it)\n";
    return image;
  }
  for (const std::string &arch : options.archs) {
    FailureOr<std::vector<uint8_t>> cubin = assemble(loc, ptxas, ptx, arch);
    if (failed(cubin))
      return failure();
    BinaryImage cubinImage;
    cubinImage.format = "cubin";
    cubinImage.arch = arch;
    cubinImage.data = std::move(*cubin);
    image.binaries.push_back(std::move(cubinImage));
  }
  return image;
}
