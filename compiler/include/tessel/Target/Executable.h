//===- Executable.h - compiled executables of a module ---------*- C++ -*-===//
//
// What a target backend hands to the module writer: one kernel per dispatch
// (same ordinals for every target) and the binaries that implement them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TARGET_EXECUTABLE_H
#define TESSEL_TARGET_EXECUTABLE_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tessel {

struct KernelExport {
  std::string name;
  std::array<uint32_t, 3> workgroupCount = {1, 1, 1};
  std::array<uint32_t, 3> workgroupSize = {1, 1, 1};
  uint32_t bindingCount = 0;
  uint32_t sharedMemoryBytes = 0;
};

struct BinaryImage {
  std::string format; ///< "elf-shared-object", "ptx", "cubin"
  std::string arch;   ///< "x86_64", "sm_90", ...
  std::vector<std::string> features;
  std::vector<uint8_t> data;
};

struct ExecutableImage {
  std::string target; ///< "cpu", "cuda"
  std::vector<KernelExport> exports;
  std::vector<BinaryImage> binaries;
};

} // namespace mlir::tessel

#endif
