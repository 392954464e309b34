// CUDA executable: one CUmodule loaded from the module's cubin for this
// device's arch, else JIT-compiled from its PTX; one CUfunction per export.
#pragma once

#include "hal/cuda/cuda_context.h"
#include "hal/executable.h"

#include <memory>
#include <string>

namespace tessel::rt::hal::cuda {

/// The binaries of an executable that a device may load: the cubin for its
/// exact arch (tried first) and the PTX to JIT (the fallback); at least one
/// is set.
struct BinaryChoice {
  const BinaryInfo *cubin = nullptr;
  const BinaryInfo *ptx = nullptr;
};

/// Chooses among `spec`'s binaries for a device of compute capability
/// ccMajor.ccMinor: a "cubin" whose arch is the device's sm_XY (or sm_XYa),
/// and the newest "ptx" not newer than the device. Arch-specific binaries
/// (suffix "a", e.g. sm_90a) count only on that exact arch; a binary for a
/// newer arch never does. `archOverride` (TESSEL_CUDA_ARCH, "" for none)
/// restricts the choice to binaries of exactly that arch. Errors say why
/// nothing fits (an invalid override is kInvalidArgument).
StatusOr<BinaryChoice> chooseBinaries(const ExecutableSpec &spec, int ccMajor, int ccMinor,
                                      const std::string &archOverride);
/// What load() would try first: "cubin sm_90a" or "ptx sm_80 (JIT for sm_90)".
StatusOr<std::string> describeChoice(const ExecutableSpec &spec, int ccMajor, int ccMinor,
                                     const std::string &archOverride);
/// The value of TESSEL_CUDA_ARCH, "" if unset.
std::string cudaArchOverride();

class CudaExecutable final : public Executable {
public:
  /// Chooses a binary of `spec` (chooseBinaries with TESSEL_CUDA_ARCH),
  /// loads it and resolves and checks every export (block size, shared
  /// memory).
  static StatusOr<std::shared_ptr<CudaExecutable>> load(std::shared_ptr<CudaContext> ctx,
                                                        const ExecutableSpec &spec);
  ~CudaExecutable() override;

  const std::vector<ExportInfo> &exports() const override { return exports_; }
  CUfunction function(uint32_t ordinal) const { return functions_[ordinal]; }
  /// CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK of export `ordinal`.
  int maxThreadsPerBlock(uint32_t ordinal) const { return limits_[ordinal].maxThreads; }
  /// For a CUDA C launch with `bytes` of dynamic shared memory: checks the
  /// device's opt-in limit and, above 48 KiB of dynamic + static shared
  /// memory, raises CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (once
  /// per larger size). Call with the context lock held, after enter().
  Status allowDynamicShared(uint32_t ordinal, uint32_t bytes);
  const CudaContext *context() const { return ctx_.get(); }
  /// Which binary was loaded, e.g. "cubin sm_90" or "ptx sm_80 (JIT for sm_90)".
  const std::string &loadedBinary() const { return loadedBinary_; }

private:
  explicit CudaExecutable(std::shared_ptr<CudaContext> ctx) : ctx_(std::move(ctx)) {}
  std::shared_ptr<CudaContext> ctx_;
  CUmodule module_ = nullptr;
  std::vector<ExportInfo> exports_;
  std::vector<CUfunction> functions_;
  struct FunctionLimits {
    int maxThreads = 0;
    int staticSharedBytes = 0;         // CUDA C kernels
    uint32_t dynamicSharedAllowed = 0; // what the attribute was raised to
  };
  std::vector<FunctionLimits> limits_; // parallel to functions_
  std::string loadedBinary_;
};

} // namespace tessel::rt::hal::cuda
