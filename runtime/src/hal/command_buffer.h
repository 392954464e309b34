// HAL command buffer: a recorded sequence of transfers and dispatches that a
// device executes in order on submit.
#pragma once

#include "hal/buffer.h"
#include "hal/executable.h"

#include <array>
#include <cstdint>
#include <vector>

namespace tessel::rt::hal {

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
  /// with `bindings` (operands then results, as the export expects).
  virtual Status dispatch(Executable &executable, uint32_t ordinal,
                          std::array<uint32_t, 3> workgroupCount,
                          const std::vector<Buffer *> &bindings) = 0;
};

} // namespace tessel::rt::hal
