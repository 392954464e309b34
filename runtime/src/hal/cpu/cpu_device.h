// CPU device: host memory, dlopen'ed kernels and a thread pool.
#pragma once

#include "hal/cpu/thread_pool.h"
#include "hal/device.h"
#include "hal/memory_budget.h"

namespace tessel::rt::hal::cpu {

class CpuDevice final : public Device {
public:
  /// A device whose pool has `threads` threads (caller included).
  /// `memoryLimit`: see DeviceOptions::memoryLimit (0: none).
  CpuDevice(unsigned threads, uint64_t memoryLimit = 0);

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
  unsigned threads() const { return pool_.size(); }

private:
  std::string name_ = "cpu";
  ThreadPool pool_;
  std::shared_ptr<MemoryBudget> budget_;
};

} // namespace tessel::rt::hal::cpu
