// HAL executable: the kernels of one module executable, loaded on a device.
#pragma once

#include "tessel/runtime/status.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessel::rt::hal {

/// One kernel as described by the module (schema `Export`).
struct ExportInfo {
  std::string name;
  std::array<uint32_t, 3> workgroupCount{1, 1, 1};
  std::array<uint32_t, 3> workgroupSize{1, 1, 1};
  uint32_t bindingCount = 0;
  uint32_t sharedMemoryBytes = 0;
};

/// One loadable image (schema `Binary`); `data` points into the module file,
/// which outlives executable creation.
struct BinaryInfo {
  std::string format;
  std::string arch;
  std::vector<std::string> features;
  const uint8_t *data = nullptr;
  size_t size = 0;
};

/// Everything a driver needs to prepare an executable (schema `Executable`),
/// independent of the FlatBuffers types. `name` is used in errors.
struct ExecutableSpec {
  std::string name;
  std::string target;
  std::vector<ExportInfo> exports;
  std::vector<BinaryInfo> binaries;
};

/// A prepared executable; export i serves dispatch ordinal i.
class Executable {
public:
  virtual ~Executable() = default;
  virtual const std::vector<ExportInfo> &exports() const = 0;
};

} // namespace tessel::rt::hal
