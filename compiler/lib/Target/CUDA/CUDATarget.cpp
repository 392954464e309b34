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
#include "tessel/Target/TargetDescription.h"
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
#include <thread>

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

/// A tensor map of tessel.tensor_maps (GPUWgmmaMatmul) as the module
/// writer's TensorMapSpec.
FailureOr<TensorMapSpec> tensorMapSpec(Attribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return failure();
  auto integer = [&](StringRef name) -> std::optional<int64_t> {
    auto v = dict.getAs<IntegerAttr>(name);
    return v ? std::optional<int64_t>(v.getInt()) : std::nullopt;
  };
  auto array = [&](StringRef name) -> std::optional<ArrayRef<int64_t>> {
    auto v = dict.getAs<DenseI64ArrayAttr>(name);
    return v ? std::optional<ArrayRef<int64_t>>(v.asArrayRef())
             : std::nullopt;
  };
  std::optional<int64_t> binding = integer("binding"),
                         dataType = integer("data_type"),
                         swizzle = integer("swizzle"),
                         l2 = integer("l2_promotion");
  auto dims = array("global_dims"), strides = array("global_strides"),
       box = array("box_dims"), elementStrides = array("element_strides");
  if (!binding || !dataType || !swizzle || !l2 || !dims || !strides ||
      !box || !elementStrides)
    return failure();
  TensorMapSpec spec;
  spec.binding = static_cast<uint32_t>(*binding);
  spec.dataType = static_cast<uint8_t>(*dataType);
  spec.globalDims.assign(dims->begin(), dims->end());
  spec.globalStrides.assign(strides->begin(), strides->end());
  spec.boxDims.assign(box->begin(), box->end());
  spec.elementStrides.assign(elementStrides->begin(), elementStrides->end());
  spec.swizzle = static_cast<uint8_t>(*swizzle);
  spec.l2Promotion = static_cast<uint8_t>(*l2);
  if (auto pcs = array("global_dim_push_constants")) {
    if (pcs->size() != dims->size())
      return failure();
    spec.globalDimPushConstants.assign(pcs->begin(), pcs->end());
  }
  return spec;
}

/// The number of an architecture name ("sm_90a" -> 90).
unsigned archNumber(StringRef arch) {
  unsigned number = 0;
  (void)arch.drop_front(3).take_while(llvm::isDigit).getAsInteger(10,
                                                                   number);
  return number;
}

/// Lowers `kernels` with `lower` (which attaches `codegen`'s NVVM target),
/// translates them to PTX for archs.front() and assembles a cubin for each
/// of `archs`; appends the binaries to `image`.
LogicalResult
emitBinaries(ModuleOp kernels, const CUDATargetOptions &options,
             ArrayRef<std::string> archs, const std::string &dumpSuffix,
             CUDACodegenOptions &codegen,
             function_ref<void(OpPassManager &, const CUDACodegenOptions &)>
                 lower,
             ExecutableImage &image) {
  Location loc = kernels.getLoc();
  std::string toolkit = findToolkit(options);
  SmallString<128> libdevice(toolkit);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  bool haveLibdevice = llvm::sys::fs::exists(libdevice);
  codegen.chip = archs.front();
  codegen.features = "+ptx80";
  if (haveLibdevice)
    codegen.libdevice = libdevice.str().str();
  // Without a toolkit, upstream's serializer reports the missing CUDA path
  // as an error although PTX needs none; a kernel that needed libdevice is
  // caught below with a clearer message.
  std::optional<ScopedDiagnosticHandler> quietMissingToolkit;
  if (!haveLibdevice)
    quietMissingToolkit.emplace(kernels.getContext(), [](Diagnostic &diag) {
      std::string text = diag.str();
      return success(StringRef(text).starts_with("CUDA path:") ||
                     StringRef(text).starts_with("LibDevice path:"));
    });
  if (failed(runPipeline(kernels, options, [&](PassManager &pm) {
        lower(pm, codegen);
        GpuModuleToBinaryPassOptions binary;
        binary.compilationTarget = "isa";
        // With a toolkit path the serializer insists on its libdevice.
        if (haveLibdevice)
          binary.toolkitPath = toolkit;
        pm.addPass(createGpuModuleToBinaryPass(binary));
      })))
    return emitError(loc) << "CUDA code generation failed";

  std::string ptx;
  kernels.walk([&](gpu::BinaryOp binary) {
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
    (void)writeFile(loc,
                    options.dumpDir + "/cuda-kernels" +
                        dumpSuffix + ".ptx",
                    ptx);

  BinaryImage ptxImage;
  ptxImage.format = "ptx";
  ptxImage.arch = archs.front();
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
    return success();
  }
  for (const std::string &arch : archs) {
    FailureOr<std::vector<uint8_t>> cubin = assemble(loc, ptxas, ptx, arch);
    if (failed(cubin))
      return failure();
    BinaryImage cubinImage;
    cubinImage.format = "cubin";
    cubinImage.arch = arch;
    cubinImage.data = std::move(*cubin);
    image.binaries.push_back(std::move(cubinImage));
  }
  return success();
}

/// Compiles the kernels once for `archs` (PTX for the first, a cubin for
/// each), with the strategies of the description of them all.
FailureOr<ExecutableImage> buildForArchs(ModuleOp module,
                                         const CUDATargetOptions &options,
                                         ArrayRef<std::string> archs,
                                         bool hopper) {
  Location loc = module.getLoc();
  ExecutableImage image;
  image.target = "cuda";
  OwningOpRef<ModuleOp> kernels = cloneDispatchFunctions(module, image.exports);

  // One kernel serves every architecture of the executable: the
  // strategies see what all of them have.
  std::string why;
  FailureOr<CUDATargetAttr> target =
      getCUDAExecutableDescription(module.getContext(), archs, why);
  if (failed(target))
    return emitError(loc) << why;
  (*kernels)->setAttr(kTargetAttr, *target);
  CUDACodegenOptions codegen;
  codegen.printStrategy = options.strategies.printStrategy;
  codegen.tf32 = options.tf32;
  codegen.wgmmaMinTiles = options.wgmmaMinTiles;
  codegen.strategyFile = options.strategies.strategyFile;
  codegen.tuningDb = options.strategies.tuningDb;
  if (!options.strategies.strategyReport.empty())
    codegen.strategyReport =
        options.strategies.strategyReport + "." + archs.front() + ".json";
  if (failed(runPipeline(*kernels, options, [&](PassManager &pm) {
        buildCUDAKernelPipeline(pm, codegen);
      })))
    return emitError(loc) << "CUDA code generation failed";
  for (KernelExport &e : image.exports) {
    auto fn = kernels->lookupSymbol<func::FuncOp>(e.name);
    if (failed(readWorkgroupCount(loc, fn, e)))
      return failure();
    auto size = fn->getAttrOfType<DenseI64ArrayAttr>(kWorkgroupSizeAttr);
    if (!size || size.size() != 3)
      return emitError(loc) << "internal error: kernel '" << e.name
                            << "' lost its block size";
    for (int i = 0; i < 3; ++i)
      e.workgroupSize[i] = size[i];
    if (auto shared = fn->getAttrOfType<IntegerAttr>(kSharedMemoryBytesAttr))
      e.sharedMemoryBytes = static_cast<uint32_t>(shared.getInt());
    if (auto resident =
            fn->getAttrOfType<IntegerAttr>(kResidentBlocksPerSmAttr))
      e.residentBlocksPerSm = static_cast<uint32_t>(resident.getInt());
    if (auto maps = fn->getAttrOfType<ArrayAttr>(kTensorMapsAttr))
      for (Attribute m : maps) {
        FailureOr<TensorMapSpec> spec = tensorMapSpec(m);
        if (failed(spec))
          return emitError(loc) << "internal error: kernel '" << e.name
                                << "' has a malformed tensor map " << m;
        e.tensorMaps.push_back(std::move(*spec));
      }
  }

  if (failed(emitBinaries(*kernels, options, archs,
                          hopper ? "-" + archs.front() : std::string(),
                          codegen, buildCUDALoweringPipeline, image)))
    return failure();
  return image;
}

} // namespace

FailureOr<std::vector<ExecutableImage>>
mlir::tessel::buildCUDAExecutables(ModuleOp module,
                                   const CUDATargetOptions &options) {
  Location loc = module.getLoc();
  if (options.archs.empty())
    return emitError(loc) << "no CUDA architecture requested";
  for (const std::string &arch : options.archs)
    if (!llvm::Regex("^sm_[0-9]+a?$").match(arch))
      return emitError(loc) << "invalid CUDA architecture '" << arch
                            << "' (expected e.g. sm_80, sm_90, sm_90a)";
  // sm_90a code (wgmma, setmaxnreg) runs only on compute capability 9.0,
  // so it is an executable of its own, first: the runtime loads the first
  // executable whose code fits the device.
  std::vector<std::string> hopper, others;
  for (const std::string &arch : options.archs)
    (arch == "sm_90a" ? hopper : others).push_back(arch);
  SmallVector<std::pair<std::vector<std::string> *, bool>> builds;
  for (auto [archs, isHopper] :
       {std::pair{&hopper, true}, {&others, false}})
    if (!archs->empty())
      builds.push_back({archs, isHopper});
  // The two executables compile in parallel (diagnostics come out in
  // build order). Dialects are loaded first: none
  // may be loaded while pass managers run on several threads.
  MLIRContext *ctx = module.getContext();
  bool parallel = options.parallelBuilds && builds.size() > 1 &&
                  ctx->isMultithreadingEnabled();
  if (parallel)
    ctx->loadAllAvailableDialects();
  SmallVector<FailureOr<ExecutableImage>> built(builds.size(), failure());
  auto build = [&](size_t i) {
    built[i] = buildForArchs(module, options, *builds[i].first,
                             builds[i].second);
    return success(succeeded(built[i]));
  };
  if (parallel) {
    // Threads of their own rather than the context's pool: the pass
    // managers inside use the pool (verifier, function passes), which two
    // outer tasks occupying both of its workers would starve.
    ParallelDiagnosticHandler diagnostics(ctx);
    std::vector<std::thread> threads;
    SmallVector<LogicalResult> results(builds.size(), failure());
    for (size_t i = 1; i < builds.size(); ++i)
      threads.emplace_back([&, i] {
        diagnostics.setOrderIDForThread(i);
        results[i] = build(i);
        diagnostics.eraseOrderIDForThread();
      });
    diagnostics.setOrderIDForThread(0);
    results[0] = build(0);
    diagnostics.eraseOrderIDForThread();
    for (std::thread &t : threads)
      t.join();
    if (llvm::any_of(results, [](LogicalResult r) { return failed(r); }))
      return failure();
  } else {
    for (size_t i = 0; i < builds.size(); ++i)
      if (failed(build(i)))
        return failure();
  }
  std::vector<ExecutableImage> images;
  for (FailureOr<ExecutableImage> &image : built)
    images.push_back(std::move(*image));
  return images;
}

FailureOr<std::vector<ExecutableImage>>
mlir::tessel::buildCUDACCUDAExecutables(ModuleOp module,
                                        const CUDATargetOptions &options) {
  Location loc = module.getLoc();
  if (options.archs.empty())
    return emitError(loc) << "no CUDA architecture requested";
  std::vector<std::string> archs = options.archs;
  for (const std::string &arch : archs)
    if (!llvm::Regex("^sm_[0-9]+a?$").match(arch))
      return emitError(loc) << "invalid CUDA architecture '" << arch
                            << "' (expected e.g. sm_80, sm_90)";
  // The PTX targets the first (lowest) architecture: the driver can JIT it
  // for any later GPU.
  llvm::sort(archs, [](const std::string &a, const std::string &b) {
    return archNumber(a) < archNumber(b);
  });

  ExecutableImage image;
  image.target = "cuda";
  FailureOr<std::vector<KernelExport>> exports = cudaCKernelExports(module);
  if (failed(exports))
    return failure();
  image.exports = std::move(*exports);
  // No kernels, no GPU code (a translation unit of host code only).
  if (image.exports.empty())
    return std::vector<ExecutableImage>{};

  OwningOpRef<ModuleOp> kernels = cast<ModuleOp>(module->clone());
  CUDACodegenOptions codegen;
  if (failed(emitBinaries(*kernels, options, archs, std::string(), codegen,
                          buildCUDAToNVVMPipeline, image)))
    return failure();
  std::vector<ExecutableImage> images;
  images.push_back(std::move(image));
  return images;
}
