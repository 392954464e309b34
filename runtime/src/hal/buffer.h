// HAL buffer: a device allocation the host can read and write.
#pragma once

#include "tessel/runtime/status.h"

#include <cstddef>
#include <cstdint>

namespace tessel::rt::hal {

/// Alignment every driver guarantees for buffer base addresses; kernels may
/// rely on it for aligned vector loads.
constexpr size_t kBufferAlignment = 64;

/// A device allocation of a fixed size.
class Buffer {
public:
  virtual ~Buffer() = default;

  /// Size in bytes as requested at allocation.
  virtual size_t size() const = 0;

  /// A host pointer to the contents, for devices whose memory the host can
  /// address directly (cpu); an error otherwise.
  virtual StatusOr<void *> map() = 0;

  /// Synchronous host -> buffer copy of `length` bytes at `offset`.
  virtual Status write(size_t offset, const void *src, size_t length) = 0;
  /// Synchronous buffer -> host copy of `length` bytes at `offset`.
  virtual Status read(size_t offset, void *dst, size_t length) const = 0;

  /// The address of byte 0 as kernels see it: the host pointer on cpu, the
  /// CUdeviceptr on cuda. A CUDA C kernel's pointer parameters hold such
  /// addresses (CommandBuffer::launch); the CUDA runtime library hands them
  /// out as device pointers.
  virtual uint64_t deviceAddress() const = 0;
};

/// Checks that [offset, offset + length) lies inside `buffer`; `op` names the
/// operation in the error ("write", "copy source", ...).
Status checkBufferRange(const Buffer &buffer, size_t offset, size_t length, const char *op);

} // namespace tessel::rt::hal
