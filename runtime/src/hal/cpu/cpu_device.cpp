// CPU device and its driver factory.
#include "hal/cpu/cpu_device.h"

#include "hal/cpu/cpu_buffer.h"
#include "hal/cpu/cpu_command_buffer.h"
#include "hal/cpu/cpu_executable.h"
#include "hal/driver_registry.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace tessel::rt::hal {

namespace cpu {

namespace {
/// Freed buffer memory the cpu device keeps for reuse, at most.
constexpr uint64_t kCachedBlockBytes = uint64_t(2) << 30;
} // namespace

CpuDevice::CpuDevice(std::shared_ptr<ThreadPool> pool, uint64_t memoryLimit)
    : pool_(std::move(pool)), budget_(std::make_shared<MemoryBudget>("cpu", memoryLimit)),
      blocks_(std::make_shared<BlockCache>(
          kCachedBlockBytes,
          [](uint64_t address, uint64_t) {
            std::free(reinterpret_cast<void *>(static_cast<uintptr_t>(address)));
          })),
      scratch_(std::make_shared<ScratchCache>(
          [budget = budget_, blocks = blocks_](size_t size) -> StatusOr<std::shared_ptr<Buffer>> {
            TESSEL_ASSIGN_OR_RETURN(auto buffer, CpuBuffer::allocate(size, budget, blocks));
            return std::shared_ptr<Buffer>(std::move(buffer));
          })) {}

CpuDevice::CpuDevice(unsigned threads, uint64_t memoryLimit)
    : CpuDevice(std::make_shared<ThreadPool>(threads), memoryLimit) {}

std::string CpuDevice::description() const {
  unsigned n = pool_->size();
  std::string pinned = pool_->pinnedWorkers() ? ", pinned" : "";
  std::string limit = budget_->limit() ? ", memory limit " + formatBytes(budget_->limit()) : "";
  return "cpu (" + std::to_string(n) + (n == 1 ? " thread" : " threads") + pinned + limit + ")";
}

StatusOr<std::shared_ptr<Buffer>> CpuDevice::allocate(size_t size) {
  TESSEL_ASSIGN_OR_RETURN(auto buffer, CpuBuffer::allocate(size, budget_, blocks_));
  return std::shared_ptr<Buffer>(std::move(buffer));
}

StatusOr<std::shared_ptr<Executable>> CpuDevice::prepareExecutable(const ExecutableSpec &spec) {
  TESSEL_ASSIGN_OR_RETURN(auto exe, CpuExecutable::load(spec));
  return std::shared_ptr<Executable>(std::move(exe));
}

std::unique_ptr<CommandBuffer> CpuDevice::createCommandBuffer() {
  return std::make_unique<CpuCommandBuffer>(pool_, scratch_);
}

Status CpuDevice::submitAndWait(CommandBuffer &commands) {
  // Command buffers handed to this device were created by it.
  static_cast<CpuCommandBuffer &>(commands).execute();
  return Status();
}

Status CpuDevice::memoryInfo(uint64_t *free, uint64_t *total) const {
  long page = ::sysconf(_SC_PAGESIZE);
  long physical = ::sysconf(_SC_PHYS_PAGES);
  long available = ::sysconf(_SC_AVPHYS_PAGES);
  if (page <= 0 || physical <= 0 || available < 0)
    return unavailable("cpu: cannot read the size of the host memory (sysconf)");
  uint64_t t = uint64_t(physical) * uint64_t(page);
  uint64_t f = std::min(uint64_t(available) * uint64_t(page), t);
  if (uint64_t limit = budget_->limit()) {
    t = std::min(t, limit);
    uint64_t inUse = std::min(budget_->inUse(), limit);
    f = std::min(f, limit - inUse);
  }
  *free = f;
  *total = t;
  return Status();
}

} // namespace cpu

StatusOr<std::shared_ptr<Device>> createCpuDevice(const DeviceOptions &options) {
  if (options.cpuThreads > cpu::kMaxThreads)
    return invalidArgument("DeviceOptions::cpuThreads is " + std::to_string(options.cpuThreads) +
                           " (at most " + std::to_string(cpu::kMaxThreads) + ")");
  // 0: TESSEL_CPU_THREADS, else the physical cores; devices asking for the
  // same count share one pool.
  TESSEL_ASSIGN_OR_RETURN(std::shared_ptr<cpu::ThreadPool> pool,
                          cpu::sharedThreadPool(options.cpuThreads));
  TESSEL_ASSIGN_OR_RETURN(uint64_t limit, memoryLimitFor(options));
  return std::shared_ptr<Device>(std::make_shared<cpu::CpuDevice>(std::move(pool), limit));
}

} // namespace tessel::rt::hal
