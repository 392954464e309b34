// Modules as containers of kernels rather than host programs: what Tessel's
// CUDA runtime library (runtime/cudart) needs to launch the CUDA C kernels
// (exports of abi CudaC) of a module that may have no functions at all. The
// module is verified exactly as Module::loadBytes verifies it.
#pragma once

#include "hal/executable.h"
#include "tessel/runtime/device.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::rt::detail {

/// What a verified module holds, without a device.
struct KernelModuleInfo {
  uint32_t version = 0;
  /// The target of each executable, in order ("cpu", "cuda", ...).
  std::vector<std::string> targets;
  /// Names of the CUDA C kernels (exports of abi CudaC), by ordinal order.
  std::vector<std::string> cudaCKernels;
};

/// Verifies module `bytes` (every check of Module::loadBytes); `name`
/// stands for the file in errors.
StatusOr<KernelModuleInfo> inspectKernelModule(const std::vector<uint8_t> &bytes,
                                               const std::string &name);

/// Verifies module `bytes` and prepares the first of its executables for
/// `device`'s target that loads (the choice Module::loadBytes makes), even
/// if no function dispatches a kernel. The executable's exports() are the
/// module's exports in ordinal order.
StatusOr<std::shared_ptr<hal::Executable>> loadKernelExecutable(const Device &device,
                                                                const std::vector<uint8_t> &bytes,
                                                                const std::string &name);

} // namespace tessel::rt::detail
