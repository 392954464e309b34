// The HAL conformance suite's view of a driver. The tests are written once
// (hal_cts_test.cpp, module_cts_test.cpp) and run against every registered
// driver configuration; a driver registers a factory, its copy of the test
// kernels, and what it does not support, with the reason.
#pragma once

#include "hal/device.h"
#include "tessel/runtime/device.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::rt::cts {

/// Threads (cuda) per workgroup and elements per workgroup of the test kernels.
constexpr uint32_t kKernelWorkgroupSize = 64;

/// One driver configuration under test.
struct CtsDriver {
  /// Test parameter name, e.g. "cpu", "cuda_graph".
  std::string name;
  /// The executable target it runs ("cpu", "cuda").
  std::string target;
  /// Creates a device. A kUnavailable error skips the driver's tests (the
  /// machine has no such device) when `optional`, and fails them otherwise.
  std::function<StatusOr<std::shared_ptr<hal::Device>>()> create;
  /// Creates a device with `options` (the driver's own settings, such as
  /// the cuda command buffer mode, are filled in).
  std::function<StatusOr<std::shared_ptr<hal::Device>>(DeviceOptions)> createWith;
  bool optional = false;
  /// Binaries holding the test kernels (add_f32, scale_f32, exp_f32,
  /// wg_ids_i32, step_u32, the CUDA C kernels axpb_cuda_c and
  /// launch_info_cuda_c and, where supported, fault_write); the data has
  /// static lifetime.
  std::vector<hal::BinaryInfo> kernelBinaries;
  /// Feature name -> why this driver does not support it.
  std::map<std::string, std::string> unsupported;
};

/// Every registered driver configuration, in registration order.
const std::vector<CtsDriver> &ctsDrivers();

/// The device for `driver`, created once per process and shared by tests
/// (device creation is slow on GPUs); the error if it cannot be created.
StatusOr<std::shared_ptr<hal::Device>> sharedDevice(const CtsDriver &driver);

/// An executable spec of the driver's test kernels with one export per name
/// in `kernels` (ordinal = position), each with its bindings from the table
/// of kernel signatures, or, for the CUDA C kernels, abi kCudaC and their
/// parameter sizes.
hal::ExecutableSpec kernelSpec(const CtsDriver &driver, const std::vector<std::string> &kernels);

/// Why `driver` does not support `feature`, if it does not.
std::optional<std::string> unsupportedReason(const CtsDriver &driver, const std::string &feature);

} // namespace tessel::rt::cts
