// CUDA executable: one CUmodule loaded from the module's cubin for this
// device's arch, else JIT-compiled from its PTX; one CUfunction per export.
#pragma once

#include "hal/cuda/cuda_context.h"
#include "hal/executable.h"

#include <memory>

namespace tessel::rt::hal::cuda {

class CudaExecutable final : public Executable {
public:
  /// Chooses a binary of `spec` (a "cubin" whose arch is the device's
  /// sm_XY, else the newest "ptx" not newer than the device), loads it and
  /// resolves and checks every export (block size, shared memory).
  static StatusOr<std::shared_ptr<CudaExecutable>> load(std::shared_ptr<CudaContext> ctx,
                                                        const ExecutableSpec &spec);
  ~CudaExecutable() override;

  const std::vector<ExportInfo> &exports() const override { return exports_; }
  CUfunction function(uint32_t ordinal) const { return functions_[ordinal]; }
  const CudaContext *context() const { return ctx_.get(); }
  /// Which binary was loaded, e.g. "cubin sm_90" or "ptx sm_80 (JIT for sm_90)".
  const std::string &loadedBinary() const { return loadedBinary_; }

private:
  explicit CudaExecutable(std::shared_ptr<CudaContext> ctx) : ctx_(std::move(ctx)) {}
  std::shared_ptr<CudaContext> ctx_;
  CUmodule module_ = nullptr;
  std::vector<ExportInfo> exports_;
  std::vector<CUfunction> functions_;
  std::string loadedBinary_;
};

} // namespace tessel::rt::hal::cuda
