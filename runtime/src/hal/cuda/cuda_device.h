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
  /// Waits for queued work (errors are dropped) and destroys the events.
  ~CudaDevice() override;

  const std::string &name() const override { return name_; }
  std::string description() const override;
  StatusOr<std::shared_ptr<Buffer>> allocate(size_t size) override;
  StatusOr<std::shared_ptr<Executable>> prepareExecutable(const ExecutableSpec &spec) override;
  StatusOr<std::string> chooseBinary(const ExecutableSpec &spec) override;
  std::unique_ptr<CommandBuffer> createCommandBuffer() override;
  /// Replayed on the stream in either mode: a graph's capture and
  /// instantiation cost more than one launch saves.
  std::unique_ptr<CommandBuffer> createOneShotCommandBuffer() override;
  Status submitAndWait(CommandBuffer &commands) override;
  /// Enqueues one run on the device's stream and returns; at most
  /// kMaxInFlight command buffers are held, a further submit waits first.
  /// TESSEL_CUDA_SYNC_EACH=1 waits after every submit.
  Status submit(std::shared_ptr<CommandBuffer> commands, bool timed) override;
  /// Synchronizes the stream; a failure names the kernels that were queued.
  Status wait(double *timedMs) override;
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

  static constexpr size_t kMaxInFlight = 1024;

private:
  // A submitted command buffer not yet waited for, with its timing events.
  struct InFlight {
    std::shared_ptr<CommandBuffer> commands;
    CUevent start = nullptr, stop = nullptr;
  };
  // Synchronizes and moves the finished work to `done` (destroyed by the
  // caller after it released the context lock: a graph command buffer's
  // destructor takes it). Call with the lock held, after enter().
  Status drainLocked(std::vector<InFlight> &done);
  StatusOr<CUevent> takeEventLocked();
  // Returns `f`'s timing events (if any) to the spares.
  void releaseEventsLocked(const InFlight &f);

  std::string name_ = "cuda";
  std::shared_ptr<CudaContext> ctx_;
  CommandBufferMode mode_;
  std::vector<InFlight> inFlight_; // guarded by the context's mutex
  std::vector<CUevent> spareEvents_;
};

} // namespace tessel::rt::hal::cuda
