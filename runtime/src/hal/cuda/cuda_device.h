// CUDA device: one GPU through the driver API, with the command buffer mode
// (stream or graph) fixed at creation.
#pragma once

#include "hal/cuda/cuda_context.h"
#include "hal/device.h"

namespace tessel::rt::hal::cuda {

/// How command buffers replay their commands.
enum class CommandBufferMode { kStream, kGraph };

/// "stream" / "graph"; "" means TESSEL_CUDA_COMMAND_BUFFER, else graph. An
/// unknown spelling is an error naming where it came from.
StatusOr<CommandBufferMode> parseCommandBufferMode(const std::string &option);

class CudaDevice final : public Device {
public:
  CudaDevice(std::shared_ptr<CudaContext> ctx, CommandBufferMode mode)
      : ctx_(std::move(ctx)), mode_(mode) {}

  const std::string &name() const override { return name_; }
  std::string description() const override;
  StatusOr<std::shared_ptr<Buffer>> allocate(size_t size) override;
  StatusOr<std::shared_ptr<Executable>> prepareExecutable(const ExecutableSpec &spec) override;
  StatusOr<std::string> chooseBinary(const ExecutableSpec &spec) override;
  std::unique_ptr<CommandBuffer> createCommandBuffer() override;
  Status submitAndWait(CommandBuffer &commands) override;
  /// Device time of each run from a pair of CUevents around it; the runs
  /// are enqueued back to back and synchronized once at the end.
  StatusOr<std::vector<double>> submitTimed(const std::vector<CommandBuffer *> &commands,
                                            int runs) override;
  /// cuDeviceGetAttribute; std::nullopt if the driver refuses the number.
  std::optional<int> cudaAttribute(int attribute) const override;
  /// cuMemGetInfo in the device's context, within the memory limit if set.
  Status memoryInfo(uint64_t *free, uint64_t *total) const override;

  CommandBufferMode mode() const { return mode_; }
  const CudaContext &context() const { return *ctx_; }

private:
  std::string name_ = "cuda";
  std::shared_ptr<CudaContext> ctx_;
  CommandBufferMode mode_;
};

} // namespace tessel::rt::hal::cuda
