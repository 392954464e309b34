// The table of HAL drivers. Adding a driver means writing its factory and
// listing it in driver_registry.cpp; device.cpp (public createDevice) only
// talks to this table.
#pragma once

#include "hal/device.h"
#include "tessel/runtime/device.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::rt::hal {

/// A driver: its name (the --device spelling) and how to create its device.
struct Driver {
  const char *name;
  StatusOr<std::shared_ptr<Device>> (*create)(const DeviceOptions &options);
};

/// Drivers in order of preference for "best available".
const std::vector<Driver> &drivers();

/// Factories, each defined in its driver's directory.
StatusOr<std::shared_ptr<Device>> createCpuDevice(const DeviceOptions &options);
StatusOr<std::shared_ptr<Device>> createCudaDevice(const DeviceOptions &options);

} // namespace tessel::rt::hal
