//===- CUDACModule.h - kernel modules of CUDA C programs -------*- C++ -*-===//
//
// The module tessel-cc embeds in a CUDA C program's host object: the
// program's kernels compiled for each target, as CudaC exports of a .tmod,
// wrapped in the blob runtime/include/tessel/runtime/cuda_c_abi.h defines.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TARGET_CUDACMODULE_H
#define TESSEL_TARGET_CUDACMODULE_H

#include "tessel/Target/CPU/CPUTarget.h"
#include "tessel/Target/CUDA/CUDATarget.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <vector>

namespace mlir::tessel {

struct CUDACModuleOptions {
  bool cpu = true;
  bool cuda = false;
  CPUTargetOptions cpuOptions;
  CUDATargetOptions cudaOptions;
};

/// Compiles the kernels tessel-cc imported (`kernels`, left unchanged) for
/// the requested targets into a .tmod file's bytes.
FailureOr<std::vector<uint8_t>>
buildCUDACModule(ModuleOp kernels, const CUDACModuleOptions &options);

/// The blob for `clang -fcuda-include-gpubinary`: magic, length, module.
std::vector<uint8_t> wrapCUDACModule(const std::vector<uint8_t> &module);

} // namespace mlir::tessel

#endif
