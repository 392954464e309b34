//===- TargetUtils.cpp - steps every target backend shares -----*- C++ -*-===//

#include "tessel/Target/TargetUtils.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tessel;

OwningOpRef<ModuleOp>
mlir::tessel::cloneDispatchFunctions(ModuleOp module,
                                     std::vector<KernelExport> &exports) {
  OwningOpRef<ModuleOp> kernels = cast<ModuleOp>(module->clone());
  for (auto fn : llvm::make_early_inc_range(kernels->getOps<func::FuncOp>())) {
    if (!fn->hasAttr(kDispatchFunctionAttr)) {
      fn.erase();
      continue;
    }
    KernelExport e;
    e.name = fn.getSymName().str();
    e.bindingCount = fn.getNumArguments() + fn.getNumResults();
    exports.push_back(e);
  }
  return kernels;
}

FailureOr<std::vector<KernelExport>>
mlir::tessel::cudaCKernelExports(ModuleOp module) {
  std::vector<KernelExport> exports;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn->hasAttr(kCUDAKernelAttr) || fn.isExternal())
      continue;
    KernelExport e;
    e.name = fn.getSymName().str();
    e.abi = KernelAbi::CudaC;
    auto sizes = fn->getAttrOfType<DenseI64ArrayAttr>(kCUDAParameterSizesAttr);
    if (!sizes)
      return emitError(fn.getLoc()) << "internal error: kernel '" << e.name
                                    << "' has no parameter sizes";
    for (int64_t size : sizes.asArrayRef())
      e.parameterSizes.push_back(static_cast<uint32_t>(size));
    exports.push_back(std::move(e));
  }
  return exports;
}

LogicalResult mlir::tessel::writeFile(Location loc, StringRef path,
                                      StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return emitError(loc) << "cannot write '" << path << "': " << ec.message();
  os << bytes;
  return success();
}
