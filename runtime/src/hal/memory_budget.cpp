// Device memory limits: parsing and accounting.
#include "hal/memory_budget.h"

#include <cstdio>
#include <cstdlib>

namespace tessel::rt::hal {

std::string formatBytes(uint64_t bytes) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024)
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g %s", v, units[u]);
  return buf;
}

std::string sizeText(uint64_t bytes) {
  std::string s = std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  return bytes < 1024 ? s : s + " (" + formatBytes(bytes) + ")";
}

StatusOr<uint64_t> memoryLimitFor(const DeviceOptions &options) {
  if (options.memoryLimit)
    return options.memoryLimit;
  const char *env = std::getenv("TESSEL_DEVICE_MEMORY_LIMIT");
  if (!env || !*env)
    return uint64_t(0);
  std::string s = env;
  auto bad = [&] {
    std::string shown;
    for (char c : s.substr(0, 64))
      shown += (c >= 0x20 && c < 0x7f) ? c : '?';
    return invalidArgument("TESSEL_DEVICE_MEMORY_LIMIT='" + shown +
                           "' is not a positive byte count (e.g. 1073741824, 512M, 2G)");
  };
  size_t digits = s.find_first_not_of("0123456789");
  if (digits == 0 || s.size() > 20)
    return bad();
  uint64_t shift = 0;
  if (digits != std::string::npos) {
    if (digits + 1 != s.size())
      return bad();
    switch (s.back()) {
    case 'K': case 'k': shift = 10; break;
    case 'M': case 'm': shift = 20; break;
    case 'G': case 'g': shift = 30; break;
    case 'T': case 't': shift = 40; break;
    default: return bad();
    }
    s.pop_back();
  }
  if (s.size() > 15) // < 10^15 before the suffix: no overflow below
    return bad();
  uint64_t n = std::strtoull(s.c_str(), nullptr, 10);
  if (n == 0)
    return bad();
  return n << shift;
}

Status MemoryBudget::reserve(uint64_t size) {
  if (limit_ == 0)
    return Status();
  uint64_t used = inUse_.load(std::memory_order_relaxed);
  do {
    if (size > limit_ || used > limit_ - size)
      return resourceExhausted(
          device_ + ": cannot allocate " + sizeText(size) + ": the device memory limit of " +
          sizeText(limit_) + " would be exceeded (" + formatBytes(used) +
          " in use; the limit comes from TESSEL_DEVICE_MEMORY_LIMIT or DeviceOptions::memoryLimit)");
  } while (!inUse_.compare_exchange_weak(used, used + size, std::memory_order_relaxed));
  return Status();
}

} // namespace tessel::rt::hal
