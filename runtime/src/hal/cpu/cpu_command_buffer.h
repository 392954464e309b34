// CPU command buffer: records commands as closures over host pointers and
// runs them in order, spreading each dispatch's workgroups (and each CUDA C
// launch's blocks) over the pool.
#pragma once

#include "hal/command_buffer.h"
#include "hal/cpu/scratch_cache.h"
#include "hal/cpu/thread_pool.h"

#include <functional>
#include <memory>

namespace tessel::rt::hal::cpu {

class CpuCommandBuffer final : public CommandBuffer {
public:
  /// Keeps `pool` alive as long as the commands that run on it; dispatch
  /// scratch comes from `scratch`.
  CpuCommandBuffer(std::shared_ptr<ThreadPool> pool, std::shared_ptr<ScratchCache> scratch)
      : pool_(std::move(pool)), scratchCache_(std::move(scratch)) {}

  Status fill(Buffer &buffer, size_t offset, size_t length, uint8_t value) override;
  Status update(const void *src, Buffer &dst, size_t dstOffset, size_t length) override;
  Status copy(Buffer &src, size_t srcOffset, Buffer &dst, size_t dstOffset,
              size_t length) override;
  Status dispatch(Executable &executable, uint32_t ordinal,
                  std::array<uint32_t, 3> workgroupCount,
                  const std::vector<Buffer *> &bindings,
                  const std::vector<int64_t> &pushConstants) override;
  Status launch(Executable &executable, uint32_t ordinal, const LaunchConfig &config,
                const std::vector<std::vector<uint8_t>> &parameterValues) override;

  /// Runs the recorded commands in order (called by CpuDevice::submitAndWait).
  void execute();

private:
  std::shared_ptr<ThreadPool> pool_;
  std::shared_ptr<ScratchCache> scratchCache_;
  /// The scratch of every dispatch recorded here (they run one at a time),
  /// as large as the largest needs.
  std::shared_ptr<Buffer> scratch_;
  std::vector<std::function<void()>> commands_;
};

} // namespace tessel::rt::hal::cpu
