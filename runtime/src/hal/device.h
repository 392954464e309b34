// HAL device: allocation, executable preparation and submission for one
// driver (cpu now, cuda later).
#pragma once

#include "hal/buffer.h"
#include "hal/command_buffer.h"
#include "hal/executable.h"

#include <memory>
#include <string>

namespace tessel::rt::hal {

/// One device of one driver.
class Device {
public:
  virtual ~Device() = default;

  /// Driver name, also the module executable target it runs ("cpu").
  virtual const std::string &name() const = 0;
  /// Human-readable summary, e.g. "cpu (2 threads)".
  virtual std::string description() const = 0;

  /// Allocates `size` bytes aligned to kBufferAlignment; contents undefined.
  virtual StatusOr<std::shared_ptr<Buffer>> allocate(size_t size) = 0;
  /// Selects a binary of `spec` this device can run and loads it.
  virtual StatusOr<std::shared_ptr<Executable>> prepareExecutable(const ExecutableSpec &spec) = 0;
  virtual std::unique_ptr<CommandBuffer> createCommandBuffer() = 0;
  /// Executes `commands` and blocks until they are done.
  virtual Status submitAndWait(CommandBuffer &commands) = 0;
};

} // namespace tessel::rt::hal
