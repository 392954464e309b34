//===- CUDACModule.cpp - kernel modules of CUDA C programs -----*- C++ -*-===//

#include "tessel/Target/CUDACModule.h"

#include "tessel/Target/ModuleWriter.h"
#include "tessel/runtime/cuda_c_abi.h"

using namespace mlir;
using namespace mlir::tessel;

FailureOr<std::vector<uint8_t>>
mlir::tessel::buildCUDACModule(ModuleOp kernels,
                               const CUDACModuleOptions &options) {
  std::vector<ExecutableImage> executables;
  if (options.cpu) {
    FailureOr<std::vector<ExecutableImage>> cpu =
        buildCUDACCPUExecutables(kernels, options.cpuOptions);
    if (failed(cpu))
      return failure();
    for (ExecutableImage &image : *cpu)
      executables.push_back(std::move(image));
  }
  if (options.cuda) {
    FailureOr<std::vector<ExecutableImage>> cuda =
        buildCUDACCUDAExecutables(kernels, options.cudaOptions);
    if (failed(cuda))
      return failure();
    for (ExecutableImage &image : *cuda)
      executables.push_back(std::move(image));
  }
  // The host programs of the module: none (the CUDA runtime library
  // launches the kernels), so an empty module stands for them.
  OwningOpRef<ModuleOp> noHostPrograms = ModuleOp::create(kernels.getLoc());
  return writeModule(*noHostPrograms, executables);
}

std::vector<uint8_t>
mlir::tessel::wrapCUDACModule(const std::vector<uint8_t> &module) {
  std::vector<uint8_t> blob(TESSEL_CUDA_BLOB_MAGIC,
                            TESSEL_CUDA_BLOB_MAGIC + TESSEL_CUDA_BLOB_MAGIC_SIZE);
  uint64_t length = module.size();
  for (int i = 0; i < 8; ++i)
    blob.push_back(static_cast<uint8_t>(length >> (8 * i)));
  blob.insert(blob.end(), module.begin(), module.end());
  return blob;
}
