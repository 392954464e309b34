// Devices: where modules run. A device is created by driver name ("cpu",
// "cuda") or as the best available one.
#pragma once

#include "tessel/runtime/status.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::rt {

namespace hal {
class Device;
}

/// A handle to one HAL device; shared by the modules loaded on it.
class Device {
public:
  explicit Device(std::shared_ptr<hal::Device> impl) : impl_(std::move(impl)) {}

  /// Driver name, e.g. "cpu"; also the executable target it runs.
  const std::string &name() const;
  /// e.g. "cpu (2 threads)" or
  /// "cuda (NVIDIA H100 80GB HBM3, sm_90, graph command buffers)".
  std::string description() const;

  /// The HAL device, for runtime internals.
  hal::Device &hal() const { return *impl_; }
  const std::shared_ptr<hal::Device> &halShared() const { return impl_; }

private:
  std::shared_ptr<hal::Device> impl_;
};

/// Driver settings chosen at device creation.
struct DeviceOptions {
  /// How the cuda driver runs command buffers: "graph" (a CUDA graph built
  /// on first submit, instantiated once and replayed on every submit) or
  /// "stream" (commands replayed on a CUstream at every submit). "" means
  /// the environment variable TESSEL_CUDA_COMMAND_BUFFER, else "graph".
  /// Other drivers ignore it.
  std::string cudaCommandBuffer;
  /// The most bytes the device's buffers may hold at once; an allocation
  /// beyond it fails with kResourceExhausted naming the device, the size
  /// and the limit, as a real out-of-memory would, and the device stays
  /// usable. 0 means the environment variable TESSEL_DEVICE_MEMORY_LIMIT
  /// (bytes, or with a K/M/G/T suffix), else no limit beyond the memory.
  uint64_t memoryLimit = 0;
  /// Threads of the cpu driver's pool, the calling thread included (at most
  /// 1024): for an application that runs threads of its own and leaves
  /// Tessel fewer cores. 0 means the environment variable
  /// TESSEL_CPU_THREADS, else the physical cores this process may run on.
  /// cpu devices asking for the same count share one pool. Other drivers
  /// ignore it.
  unsigned cpuThreads = 0;
};

/// Creates a device of driver `name`; "" or "best" picks the first driver
/// that is available, in order of preference (cuda, cpu). Errors say why a
/// driver is unavailable (e.g. "cuda: no CUDA driver/device available
/// (libcuda.so.1 not found: ...)"), reject bad options, or list the known
/// drivers.
StatusOr<std::shared_ptr<Device>> createDevice(std::string_view name = "",
                                               const DeviceOptions &options = {});

/// Names of the drivers compiled into this runtime, in order of preference.
std::vector<std::string> driverNames();

} // namespace tessel::rt
