// HAL command buffer: a recorded sequence of transfers and dispatches that a
// device executes in order on submit.
#pragma once

#include "hal/buffer.h"
#include "hal/executable.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessel::rt::hal {

/// The shape of one launch of a CUDA C kernel (CommandBuffer::launch):
/// gridDim, blockDim and the dynamic shared memory of `<<<grid, block,
/// bytes>>>`.
struct LaunchConfig {
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  uint32_t dynamicSharedBytes = 0;
};

/// Limits every driver applies to a LaunchConfig (CUDA's): each entry >= 1,
/// block x*y*z <= 1024 threads and z <= 64, grid x < 2^31, y and z <=
/// 65535.
constexpr uint32_t kMaxLaunchThreads = 1024;
constexpr uint32_t kMaxLaunchBlockZ = 64;
constexpr uint32_t kMaxLaunchGridX = 0x7fffffffu;
constexpr uint32_t kMaxLaunchGridYZ = 65535;

/// "grid 3x1x1, block 5x7x1" (plus ", N bytes of dynamic shared memory").
std::string describeLaunch(const LaunchConfig &config);

/// The checks shared by every driver's launch(): `info` must be a CUDA C
/// export, `parameterValues` must match its parameter sizes, and `config`
/// the limits above. Errors name the kernel ("launch of 'k': ...").
Status checkLaunch(const ExportInfo &info, const LaunchConfig &config,
                   const std::vector<std::vector<uint8_t>> &parameterValues);

/// The checks shared by every driver's dispatch(): `info` must not be a
/// CUDA C export (it takes parameters and a grid: launch()), and the
/// bindings and push constants must be as many as it takes.
Status checkDispatch(const ExportInfo &info, const std::vector<Buffer *> &bindings,
                     const std::vector<int64_t> &pushConstants);

/// Records work; nothing runs until Device::submitAndWait. Recording checks
/// arguments (ranges, binding counts) so that errors point at the command.
class CommandBuffer {
public:
  virtual ~CommandBuffer() = default;

  /// Sets `length` bytes at `offset` to `value`.
  virtual Status fill(Buffer &buffer, size_t offset, size_t length, uint8_t value) = 0;
  /// Writes `length` bytes from host memory `src` at `dstOffset`; the bytes
  /// are copied when the command is recorded, so `src` may change afterwards
  /// and every submit writes the same data.
  virtual Status update(const void *src, Buffer &dst, size_t dstOffset, size_t length) = 0;
  /// Copies `length` bytes between buffers (may be the same buffer if the
  /// ranges do not overlap).
  virtual Status copy(Buffer &src, size_t srcOffset, Buffer &dst, size_t dstOffset,
                      size_t length) = 0;
  /// Runs export `ordinal` of `executable` over `workgroupCount` workgroups
  /// with `bindings` (operands then results, as the export expects) and
  /// `pushConstants` (ExportInfo::pushConstantCount values, copied when the
  /// command is recorded).
  virtual Status dispatch(Executable &executable, uint32_t ordinal,
                          std::array<uint32_t, 3> workgroupCount,
                          const std::vector<Buffer *> &bindings,
                          const std::vector<int64_t> &pushConstants) = 0;
  /// Runs CUDA C export `ordinal` (abi kCudaC) of `executable` over
  /// `config` with parameter i set to `parameterValues[i]`, whose size must
  /// be the export's parameterSizes[i]. The values are copied when the
  /// command is recorded (a pointer parameter is the deviceAddress() of a
  /// buffer, plus an offset). Errors (checkLaunch, and the driver's own
  /// limits) name the kernel.
  virtual Status launch(Executable &executable, uint32_t ordinal, const LaunchConfig &config,
                        const std::vector<std::vector<uint8_t>> &parameterValues) = 0;
};

} // namespace tessel::rt::hal
