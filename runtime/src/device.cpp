// Public device creation on top of the HAL driver table.
#include "tessel/runtime/device.h"

#include "hal/driver_registry.h"

namespace tessel::rt {

const std::string &Device::name() const { return impl_->name(); }
std::string Device::description() const { return impl_->description(); }

std::vector<std::string> driverNames() {
  std::vector<std::string> names;
  for (const hal::Driver &d : hal::drivers())
    names.push_back(d.name);
  return names;
}

StatusOr<std::shared_ptr<Device>> createDevice(std::string_view name,
                                               const DeviceOptions &options) {
  bool best = name.empty() || name == "best";
  std::string reasons;
  for (const hal::Driver &d : hal::drivers()) {
    if (!best && name != d.name)
      continue;
    auto device = d.create(options);
    if (device.ok())
      return std::make_shared<Device>(std::move(device).value());
    if (!best)
      return device.status();
    reasons += (reasons.empty() ? "" : "; ") + device.status().message();
  }
  if (best)
    return unavailable("no device available: " + reasons);
  std::string known;
  for (const std::string &n : driverNames())
    known += (known.empty() ? "" : ", ") + n;
  return notFound("unknown device '" + std::string(name) + "' (known: " + known + ")");
}

} // namespace tessel::rt
