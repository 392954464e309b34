// CPU device: host memory, dlopen'ed kernels and a thread pool (shared with
// the other cpu devices of the process that use as many threads).
#pragma once

#include "hal/block_cache.h"
#include "hal/cpu/scratch_cache.h"
#include "hal/cpu/thread_pool.h"
#include "hal/device.h"
#include "hal/memory_budget.h"

namespace tessel::rt::hal::cpu {

class CpuDevice final : public Device {
public:
  /// A device running its work on `pool`.
  /// `memoryLimit`: see DeviceOptions::memoryLimit (0: none).
  explicit CpuDevice(std::shared_ptr<ThreadPool> pool, uint64_t memoryLimit = 0);
  /// A device with a pool of its own of `threads` threads (caller included),
  /// unpinned; createCpuDevice shares pools instead (sharedThreadPool).
  explicit CpuDevice(unsigned threads, uint64_t memoryLimit = 0);

  const std::string &name() const override { return name_; }
  std::string description() const override;
  StatusOr<std::shared_ptr<Buffer>> allocate(size_t size) override;
  StatusOr<std::shared_ptr<Executable>> prepareExecutable(const ExecutableSpec &spec) override;
  std::unique_ptr<CommandBuffer> createCommandBuffer() override;
  Status submitAndWait(CommandBuffer &commands) override;
  /// Host memory: available and total physical pages (sysconf), within the
  /// memory limit if one is set.
  Status memoryInfo(uint64_t *free, uint64_t *total) const override;

  /// Threads of the pool that runs workgroups and blocks (caller included).
  unsigned threads() const { return pool_->size(); }
  const std::shared_ptr<ThreadPool> &pool() const { return pool_; }
  /// Where command buffers lease dispatch scratch from.
  const std::shared_ptr<ScratchCache> &scratch() const { return scratch_; }

private:
  std::string name_ = "cpu";
  std::shared_ptr<ThreadPool> pool_;
  std::shared_ptr<MemoryBudget> budget_;
  std::shared_ptr<BlockCache> blocks_;
  std::shared_ptr<ScratchCache> scratch_;
};

} // namespace tessel::rt::hal::cpu
