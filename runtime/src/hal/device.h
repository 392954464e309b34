// HAL device: allocation, executable preparation and submission for one
// driver (cpu now, cuda later).
#pragma once

#include "hal/buffer.h"
#include "hal/command_buffer.h"
#include "hal/executable.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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
  /// Which binary of `spec` prepareExecutable would try, e.g. "cubin
  /// sm_90a", without loading anything; the error says why none fits.
  /// kUnimplemented for drivers that do not tell.
  virtual StatusOr<std::string> chooseBinary(const ExecutableSpec &spec) {
    (void)spec;
    return unimplemented(name() + ": cannot tell which binary it would load");
  }
  virtual std::unique_ptr<CommandBuffer> createCommandBuffer() = 0;
  /// A command buffer that will be submitted once (a host program's
  /// commands between two waits): drivers that make replays cheap at a
  /// cost per recording (cuda graphs: capture and instantiate) record it
  /// the cheapest way for one submit instead.
  virtual std::unique_ptr<CommandBuffer> createOneShotCommandBuffer() {
    return createCommandBuffer();
  }

  /// The device's value of a CUDA device attribute, numbered as the runtime
  /// API's cudaDeviceAttr (the same numbers as the driver's
  /// CUdevice_attribute), for Tessel's CUDA runtime library. std::nullopt if
  /// the device does not answer it: an unknown number, or a driver without a
  /// CUDA notion of its own (cpu; cudart answers for it).
  virtual std::optional<int> cudaAttribute(int attribute) const {
    (void)attribute;
    return std::nullopt;
  }
  /// Free and total bytes of the memory buffers are allocated from, within
  /// the device's memory limit if one is set (free is then at most the
  /// limit minus the bytes the device's buffers hold). kUnimplemented for
  /// drivers that do not tell.
  virtual Status memoryInfo(uint64_t *free, uint64_t *total) const {
    (void)free, (void)total;
    return unimplemented(name() + ": cannot tell how much memory it has");
  }

  /// Executes `commands` and blocks until they are done.
  virtual Status submitAndWait(CommandBuffer &commands) = 0;

  /// Queues `commands` after all earlier submissions and returns; the
  /// device keeps them until they are done. Errors in recording or queueing
  /// them are returned here; errors of the work itself (a kernel fault) by a
  /// later wait(). With `timed`, the device measures the work's duration
  /// (cuda: events around it on the stream), added up by wait(). Drivers
  /// without queues (cpu) run the work before returning (timed: host clock).
  /// Not thread-safe with respect to wait(): callers serialize the two.
  virtual Status submit(std::shared_ptr<CommandBuffer> commands, bool timed = false) {
    if (!timed)
      return submitAndWait(*commands);
    TESSEL_ASSIGN_OR_RETURN(std::vector<double> ms, submitTimed({commands.get()}, 1));
    for (double m : ms)
      completedTimedMs_ += m;
    return Status();
  }

  /// Blocks until every submitted command buffer is done and releases them;
  /// the first error of that work, if any. Adds the durations of the timed
  /// submissions that completed since the last wait to `*timedMs` (if given).
  virtual Status wait(double *timedMs = nullptr) {
    if (timedMs)
      *timedMs += completedTimedMs_;
    completedTimedMs_ = 0;
    return Status();
  }

  /// For benchmarks: executes `runs` times, run i executing
  /// `commands[i % commands.size()]` (rotating among buffer sets), and
  /// returns each run's duration in milliseconds. Devices with timers of
  /// their own (cuda: events around each run, runs back to back) override
  /// this; the default times each submitAndWait with the host clock.
  virtual StatusOr<std::vector<double>> submitTimed(const std::vector<CommandBuffer *> &commands,
                                                    int runs) {
    std::vector<double> ms;
    if (commands.empty())
      return ms;
    for (int i = 0; i < runs; ++i) {
      auto start = std::chrono::steady_clock::now();
      TESSEL_RETURN_IF_ERROR(submitAndWait(*commands[i % commands.size()]));
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                             start)
                       .count());
    }
    return ms;
  }

protected:
  /// Timed durations of synchronous submit() calls not yet reported by wait().
  double completedTimedMs_ = 0;
};

} // namespace tessel::rt::hal
