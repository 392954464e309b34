// CUDA buffer: device memory from cuMemAlloc, read and written by the host
// through the device's stream (it cannot be mapped).
#pragma once

#include "hal/buffer.h"
#include "hal/cuda/cuda_context.h"

#include <memory>

namespace tessel::rt::hal::cuda {

class CudaBuffer final : public Buffer {
public:
  /// Allocates `size` bytes (at least 256, so that zero-sized tensors still
  /// get a distinct, aligned address; cuMemAlloc aligns to 256 bytes): a
  /// block of BlockCache::sizeClass bytes, from the context's cache when it
  /// has one, back to it when the buffer goes.
  static StatusOr<std::shared_ptr<CudaBuffer>> allocate(std::shared_ptr<CudaContext> ctx,
                                                        size_t size);
  ~CudaBuffer() override;

  size_t size() const override { return size_; }
  /// Always an error: device memory is not host-addressable.
  StatusOr<void *> map() override;
  Status write(size_t offset, const void *src, size_t length) override;
  Status read(size_t offset, void *dst, size_t length) const override;

  /// The device address of byte 0, for kernel arguments and copies.
  CUdeviceptr address() const { return address_; }
  uint64_t deviceAddress() const override { return address_; }
  /// The context the memory belongs to (command buffers check it).
  const CudaContext *context() const { return ctx_.get(); }

private:
  CudaBuffer(std::shared_ptr<CudaContext> ctx, CUdeviceptr address, size_t size, uint64_t block)
      : ctx_(std::move(ctx)), address_(address), size_(size), block_(block) {}
  std::shared_ptr<CudaContext> ctx_;
  CUdeviceptr address_;
  size_t size_;
  uint64_t block_; // bytes of the block (its size class)
};

} // namespace tessel::rt::hal::cuda
