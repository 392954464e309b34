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

  /// Driver name, e.g. "cpu".
  const std::string &name() const;
  /// e.g. "cpu (2 threads)".
  std::string description() const;

  /// The HAL device, for runtime internals.
  hal::Device &hal() const { return *impl_; }
  const std::shared_ptr<hal::Device> &halShared() const { return impl_; }

private:
  std::shared_ptr<hal::Device> impl_;
};

/// Creates a device of driver `name`; "" or "best" picks the first driver
/// that is available, in order of preference (cuda, cpu). Errors say why a
/// driver is unavailable or list the known drivers.
StatusOr<std::shared_ptr<Device>> createDevice(std::string_view name = "");

/// Names of the drivers compiled into this runtime, in order of preference.
std::vector<std::string> driverNames();

} // namespace tessel::rt
