// CPU buffer: 64-byte aligned host memory.
#pragma once

#include "hal/block_cache.h"
#include "hal/buffer.h"
#include "hal/memory_budget.h"

#include <memory>

namespace tessel::rt::hal::cpu {

class CpuBuffer final : public Buffer {
public:
  /// Allocates `size` bytes (a block of BlockCache::sizeClass bytes, so that
  /// zero-sized tensors still get a valid, aligned pointer), from `blocks`
  /// when it has one; the block goes back to `blocks` with the buffer.
  /// Counts against `budget`; errors name the size and the device.
  static StatusOr<std::shared_ptr<CpuBuffer>> allocate(size_t size,
                                                       std::shared_ptr<MemoryBudget> budget,
                                                       std::shared_ptr<BlockCache> blocks);
  ~CpuBuffer() override;

  size_t size() const override { return size_; }
  StatusOr<void *> map() override { return static_cast<void *>(data_); }
  Status write(size_t offset, const void *src, size_t length) override;
  Status read(size_t offset, void *dst, size_t length) const override;
  /// The host pointer: cpu kernels address host memory.
  uint64_t deviceAddress() const override { return reinterpret_cast<uintptr_t>(data_); }

private:
  CpuBuffer(uint8_t *data, size_t size, uint64_t block, std::shared_ptr<MemoryBudget> budget,
            std::shared_ptr<BlockCache> blocks)
      : data_(data), size_(size), block_(block), budget_(std::move(budget)),
        blocks_(std::move(blocks)) {}
  uint8_t *data_;
  size_t size_;
  uint64_t block_;
  std::shared_ptr<MemoryBudget> budget_;
  std::shared_ptr<BlockCache> blocks_;
};

} // namespace tessel::rt::hal::cpu
