// An optional cap on the bytes a device has allocated at once
// (DeviceOptions::memoryLimit or TESSEL_DEVICE_MEMORY_LIMIT), shared by the
// device and its buffers. It makes "out of device memory" reproducible and
// bounded (a test can exhaust 64 MiB instead of the machine's RAM or a
// GPU's 141 GB) and lets a process keep a device within a share of it.
#pragma once

#include "tessel/runtime/device.h"
#include "tessel/runtime/status.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace tessel::rt::hal {

/// "1 GiB", "1.5 MiB", "24 bytes".
std::string formatBytes(uint64_t bytes);
/// "24 bytes", "1073741824 bytes (1 GiB)": exact, plus the rounded size
/// from 1 KiB on.
std::string sizeText(uint64_t bytes);

/// The limit in effect for a new device: options.memoryLimit if non-zero,
/// else TESSEL_DEVICE_MEMORY_LIMIT (bytes, optionally with a K/M/G/T suffix
/// meaning KiB/MiB/GiB/TiB), else 0 (no limit). A malformed variable is an
/// error naming it.
StatusOr<uint64_t> memoryLimitFor(const DeviceOptions &options);

class MemoryBudget {
public:
  /// `device` names the device in errors ("cpu", "cuda device 0 (...)").
  MemoryBudget(std::string device, uint64_t limit) : device_(std::move(device)), limit_(limit) {}

  /// Counts `size` bytes against the limit; kResourceExhausted naming the
  /// device, the size, the limit and what is in use if they do not fit.
  Status reserve(uint64_t size);
  /// Gives back bytes of an earlier successful reserve().
  void release(uint64_t size) { inUse_.fetch_sub(size, std::memory_order_relaxed); }

  uint64_t limit() const { return limit_; }
  uint64_t inUse() const { return inUse_.load(std::memory_order_relaxed); }
  const std::string &device() const { return device_; }

private:
  std::string device_;
  uint64_t limit_; // 0: none
  std::atomic<uint64_t> inUse_{0};
};

} // namespace tessel::rt::hal
