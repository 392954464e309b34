// CPU device and its driver factory.
#include "hal/cpu/cpu_device.h"

#include "hal/cpu/cpu_buffer.h"
#include "hal/cpu/cpu_command_buffer.h"
#include "hal/cpu/cpu_executable.h"
#include "hal/driver_registry.h"

namespace tessel::rt::hal {

namespace cpu {

CpuDevice::CpuDevice(unsigned threads, uint64_t memoryLimit)
    : pool_(threads), budget_(std::make_shared<MemoryBudget>("cpu", memoryLimit)) {}

std::string CpuDevice::description() const {
  unsigned n = pool_.size();
  std::string limit = budget_->limit() ? ", memory limit " + formatBytes(budget_->limit()) : "";
  return "cpu (" + std::to_string(n) + (n == 1 ? " thread" : " threads") + limit + ")";
}

StatusOr<std::shared_ptr<Buffer>> CpuDevice::allocate(size_t size) {
  TESSEL_ASSIGN_OR_RETURN(auto buffer, CpuBuffer::allocate(size, budget_));
  return std::shared_ptr<Buffer>(std::move(buffer));
}

StatusOr<std::shared_ptr<Executable>> CpuDevice::prepareExecutable(const ExecutableSpec &spec) {
  TESSEL_ASSIGN_OR_RETURN(auto exe, CpuExecutable::load(spec));
  return std::shared_ptr<Executable>(std::move(exe));
}

std::unique_ptr<CommandBuffer> CpuDevice::createCommandBuffer() {
  return std::make_unique<CpuCommandBuffer>(pool_);
}

Status CpuDevice::submitAndWait(CommandBuffer &commands) {
  // Command buffers handed to this device were created by it.
  static_cast<CpuCommandBuffer &>(commands).execute();
  return Status();
}

} // namespace cpu

StatusOr<std::shared_ptr<Device>> createCpuDevice(const DeviceOptions &options) {
  TESSEL_ASSIGN_OR_RETURN(unsigned threads, cpu::defaultThreadCount());
  TESSEL_ASSIGN_OR_RETURN(uint64_t limit, memoryLimitFor(options));
  return std::shared_ptr<Device>(std::make_shared<cpu::CpuDevice>(threads, limit));
}

} // namespace tessel::rt::hal
