// CPU buffer allocation and host copies.
#include "hal/cpu/cpu_buffer.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tessel::rt::hal::cpu {

StatusOr<std::shared_ptr<CpuBuffer>> CpuBuffer::allocate(size_t size,
                                                         std::shared_ptr<MemoryBudget> budget) {
  auto outOfMemory = [&] {
    return resourceExhausted(budget->device() + ": cannot allocate " + sizeText(size) +
                             " of host memory: out of memory");
  };
  // aligned_alloc wants a multiple of the alignment.
  if (size > SIZE_MAX - kBufferAlignment)
    return outOfMemory();
  TESSEL_RETURN_IF_ERROR(budget->reserve(size));
  size_t rounded = std::max<size_t>(kBufferAlignment, (size + kBufferAlignment - 1) /
                                                          kBufferAlignment * kBufferAlignment);
  void *p = std::aligned_alloc(kBufferAlignment, rounded);
  if (!p) {
    budget->release(size);
    return outOfMemory();
  }
  return std::shared_ptr<CpuBuffer>(
      new CpuBuffer(static_cast<uint8_t *>(p), size, std::move(budget)));
}

CpuBuffer::~CpuBuffer() {
  std::free(data_);
  budget_->release(size_);
}

Status CpuBuffer::write(size_t offset, const void *src, size_t length) {
  TESSEL_RETURN_IF_ERROR(checkBufferRange(*this, offset, length, "write"));
  if (length)
    std::memcpy(data_ + offset, src, length);
  return Status();
}

Status CpuBuffer::read(size_t offset, void *dst, size_t length) const {
  TESSEL_RETURN_IF_ERROR(checkBufferRange(*this, offset, length, "read"));
  if (length)
    std::memcpy(dst, data_ + offset, length);
  return Status();
}

} // namespace tessel::rt::hal::cpu
