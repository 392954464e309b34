// Recording shared by the two cuda command buffers: commands are validated
// and stored as plain values (device addresses, kernel handles, launch
// shapes, update payloads); the stream and graph variants differ only in how
// they replay that list on submit.
#pragma once

#include "hal/command_buffer.h"
#include "hal/cuda/cuda_context.h"

#include <memory>
#include <string>

namespace tessel::rt::hal::cuda {

/// TESSEL_CUDA_SYNC_EACH is set (not empty, not "0"): synchronize after
/// every command, so that a fault names the failing dispatch.
bool syncEachFromEnv();

class CudaCommandBuffer : public CommandBuffer {
public:
  explicit CudaCommandBuffer(std::shared_ptr<CudaContext> ctx) : ctx_(std::move(ctx)) {}
  ~CudaCommandBuffer() override;

  Status fill(Buffer &buffer, size_t offset, size_t length, uint8_t value) override;
  Status update(const void *src, Buffer &dst, size_t dstOffset, size_t length) override;
  Status copy(Buffer &src, size_t srcOffset, Buffer &dst, size_t dstOffset,
              size_t length) override;
  Status dispatch(Executable &executable, uint32_t ordinal, std::array<uint32_t, 3> workgroupCount,
                  const std::vector<Buffer *> &bindings,
                  const std::vector<int64_t> &pushConstants) override;
  Status launch(Executable &executable, uint32_t ordinal, const LaunchConfig &config,
                const std::vector<std::vector<uint8_t>> &parameterValues) override;

  /// Runs the recorded commands on the device's stream and waits for them
  /// (CudaDevice::submitAndWait). May be called any number of times.
  virtual Status submit() = 0;
  /// Enqueues one run of the recorded commands on the stream without
  /// waiting (the graph variant builds its graph first if needed). Call with
  /// the context lock held, after CudaContext::enter. For timed runs.
  virtual Status enqueueRun() = 0;
  /// "stream" or "graph".
  virtual const char *mode() const = 0;
  /// The dispatches of this command buffer for an error message about an
  /// asynchronous failure, e.g. "dispatch 0 'add_f32' (the only dispatch)".
  std::string describeDispatches() const;

protected:
  /// Number of commands recorded so far.
  size_t commandCount() const { return commands_.size(); }
  /// Makes the pinned host copy of all update() payloads current (the
  /// source of their host-to-device copies; pinned, so that the copies are
  /// asynchronous and can be captured into a graph). Call with the context
  /// lock held, after CudaContext::enter.
  Status prepareStaging();
  /// Enqueues every command on the stream, in order. With `syncEach` it
  /// synchronizes after every command, so a fault names its dispatch.
  Status enqueue(bool syncEach);
  std::shared_ptr<CudaContext> ctx_;

private:
  struct Command {
    enum class Kind { Fill, Update, Copy, Dispatch, Launch };
    explicit Command(Kind k) : kind(k) {}
    Kind kind;
    CUdeviceptr dst = 0, src = 0;
    size_t length = 0, stagingOffset = 0;
    uint8_t value = 0;
    CUfunction function = nullptr;
    std::array<uint32_t, 3> grid{}, block{};
    uint32_t sharedBytes = 0;
    std::vector<CUdeviceptr> args; // one device pointer per binding
    std::vector<int64_t> pushConstants; // passed by value after `args`
    // One encoded CUtensorMap per ExportInfo::tensorMaps entry, passed by
    // value after `args`; lives as long as the command (cuLaunchKernel and
    // stream capture copy parameter values).
    std::vector<TensorMapStorage> maps;
    // Launch (CUDA C kernels): the parameter values, parameter i at byte
    // paramOffsets[i] (16-byte aligned) of paramWords.
    std::vector<uint64_t> paramWords;
    std::vector<size_t> paramOffsets;
    std::string name;              // export name, for errors
    size_t dispatchIndex = 0;      // among dispatches and launches
  };
  StatusOr<CUdeviceptr> address(Buffer &buffer, size_t offset, size_t length, const char *what);
  /// Encodes the tensor maps of `info` into `c.maps` from the binding
  /// addresses in `c.args`.
  Status encodeTensorMaps(const ExportInfo &info, const std::vector<Buffer *> &bindings,
                          Command &c);
  Status enqueueOne(const Command &c);
  std::string describe(const Command &c) const;

  std::vector<Command> commands_;
  size_t dispatchCount_ = 0;
  std::vector<uint8_t> stagingHost_; // update payloads, in recording order
  void *pinned_ = nullptr;
  size_t pinnedCapacity_ = 0, pinnedValid_ = 0;
};

} // namespace tessel::rt::hal::cuda
