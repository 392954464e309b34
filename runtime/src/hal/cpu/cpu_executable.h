// CPU executable: an ELF shared object embedded in the module, loaded from
// memory with dlopen; one C symbol per export.
#pragma once

#include "hal/executable.h"

#include <memory>
#include <string>

namespace tessel::rt::hal::cpu {

/// The kernel ABI: called once per workgroup id; bindings[i] is the base
/// pointer of binding i (kBufferAlignment-aligned).
using KernelFn = void (*)(void **bindings, int64_t wgX, int64_t wgY, int64_t wgZ);

/// The binary CpuExecutable::load would load: the first "elf-shared-object"
/// one for the host arch whose features the host has (checkHostFeatures,
/// TESSEL_CPU_DISABLE_FEATURES included); the error says why none fits.
StatusOr<const BinaryInfo *> chooseBinary(const ExecutableSpec &spec);
/// "elf-shared-object x86_64 for x86-64-v3, features [avx, avx2]".
std::string describeBinary(const BinaryInfo &b);

class CpuExecutable final : public Executable {
public:
  /// Picks the "elf-shared-object" binary for the host arch whose features
  /// the host supports, loads it and resolves every export.
  static StatusOr<std::shared_ptr<CpuExecutable>> load(const ExecutableSpec &spec);
  ~CpuExecutable() override;

  const std::vector<ExportInfo> &exports() const override { return exports_; }
  KernelFn kernel(uint32_t ordinal) const { return kernels_[ordinal]; }

private:
  CpuExecutable() = default;
  std::vector<ExportInfo> exports_;
  std::vector<KernelFn> kernels_;
  void *handle_ = nullptr;
  // The memfd stays open while the library is loaded: glibc recognizes loaded
  // libraries by path, and "/proc/self/fd/N" must not name another library
  // while this one is still loaded.
  int fd_ = -1;
};

} // namespace tessel::rt::hal::cpu
