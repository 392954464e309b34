// CPU buffer allocation and host copies.
#include "hal/cpu/cpu_buffer.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tessel::rt::hal::cpu {

StatusOr<std::shared_ptr<CpuBuffer>> CpuBuffer::allocate(size_t size,
                                                         std::shared_ptr<MemoryBudget> budget,
                                                         std::shared_ptr<BlockCache> blocks) {
  auto outOfMemory = [&] {
    return resourceExhausted(budget->device() + ": cannot allocate " + sizeText(size) +
                             " of host memory: out of memory");
  };
  if (size > SIZE_MAX / 2)
    return outOfMemory();
  TESSEL_RETURN_IF_ERROR(budget->reserve(size));
  // Size classes are multiples of 256 bytes, as aligned_alloc wants.
  uint64_t block = BlockCache::sizeClass(size);
  void *p = nullptr;
  if (std::optional<uint64_t> cached = blocks->take(block)) {
    p = reinterpret_cast<void *>(static_cast<uintptr_t>(*cached));
  } else {
    p = std::aligned_alloc(kBufferAlignment, block);
    if (!p) {
      // Blocks kept for reuse may be what is missing: free them and retry.
      for (auto [address, bytes] : blocks->drain())
        std::free(reinterpret_cast<void *>(static_cast<uintptr_t>(address)));
      p = std::aligned_alloc(kBufferAlignment, block);
    }
  }
  if (!p) {
    budget->release(size);
    return outOfMemory();
  }
  return std::shared_ptr<CpuBuffer>(new CpuBuffer(static_cast<uint8_t *>(p), size, block,
                                                  std::move(budget), std::move(blocks)));
}

CpuBuffer::~CpuBuffer() {
  if (!blocks_->put(reinterpret_cast<uintptr_t>(data_), block_))
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
