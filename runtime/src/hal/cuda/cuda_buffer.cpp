// CUDA buffer allocation (through the context's BlockCache) and synchronous
// host transfers. Transfers go
// through the device's stream (then synchronize) rather than the legacy
// default stream, so they are ordered with submitted command buffers.
#include "hal/cuda/cuda_buffer.h"

#include <algorithm>
#include <cstdint>

namespace tessel::rt::hal::cuda {

namespace {
constexpr size_t kMinAllocation = 256;
}

StatusOr<std::shared_ptr<CudaBuffer>> CudaBuffer::allocate(std::shared_ptr<CudaContext> ctx,
                                                           size_t size) {
  // "cuda device 0 (NVIDIA H200): cannot allocate 1073741824 bytes (1 GiB):
  // cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)"
  std::string what = ctx->label() + ": cannot allocate " + sizeText(size) + ": ";
  if (size > SIZE_MAX / 2)
    return resourceExhausted(what + "more than the address space");
  std::lock_guard<std::mutex> lock(ctx->mutex());
  TESSEL_RETURN_IF_ERROR(ctx->enter());
  TESSEL_RETURN_IF_ERROR(ctx->budget().reserve(size));
  CUdeviceptr address = 0;
  uint64_t block = BlockCache::sizeClass(std::max(size, kMinAllocation));
  if (std::optional<uint64_t> cached = ctx->blocks().take(block))
    return std::shared_ptr<CudaBuffer>(new CudaBuffer(std::move(ctx), *cached, size, block));
  CUresult r = ctx->api().cuMemAlloc_v2(&address, block);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    // Blocks kept for reuse may be what is missing: free them and retry.
    for (auto [cachedAddress, bytes] : ctx->blocks().drain())
      ctx->api().cuMemFree_v2(cachedAddress);
    r = ctx->api().cuMemAlloc_v2(&address, block);
  }
  Status s = ctx->check(r, "cuMemAlloc");
  if (!s.ok()) {
    ctx->budget().release(size);
    // s reads "cuda: cuMemAlloc failed: ..."; the device label says cuda.
    std::string detail = s.message().rfind("cuda: ", 0) == 0 ? s.message().substr(6) : s.message();
    return Status(s.code(), what + detail);
  }
  return std::shared_ptr<CudaBuffer>(new CudaBuffer(std::move(ctx), address, size, block));
}

CudaBuffer::~CudaBuffer() {
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  // A lost context cannot free; its memory goes with the context. Work on
  // the block was enqueued on the context's one stream, so a later user of
  // the cached block is ordered after it.
  if (ctx_->enter().ok() && !ctx_->blocks().put(address_, block_))
    ctx_->api().cuMemFree_v2(address_);
  ctx_->budget().release(size_);
}

StatusOr<void *> CudaBuffer::map() {
  return unimplemented("cuda buffers are device memory and cannot be mapped; use read/write");
}

Status CudaBuffer::write(size_t offset, const void *src, size_t length) {
  TESSEL_RETURN_IF_ERROR(checkBufferRange(*this, offset, length, "write"));
  if (length == 0)
    return Status();
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  TESSEL_RETURN_IF_ERROR(ctx_->enter());
  TESSEL_RETURN_IF_ERROR(ctx_->check(
      ctx_->api().cuMemcpyHtoDAsync_v2(address_ + offset, src, length, ctx_->stream()),
      "host-to-device copy of " + std::to_string(length) + " bytes"));
  return ctx_->synchronize("host-to-device copy of " + std::to_string(length) + " bytes");
}

Status CudaBuffer::read(size_t offset, void *dst, size_t length) const {
  TESSEL_RETURN_IF_ERROR(checkBufferRange(*this, offset, length, "read"));
  if (length == 0)
    return Status();
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  TESSEL_RETURN_IF_ERROR(ctx_->enter());
  TESSEL_RETURN_IF_ERROR(ctx_->check(
      ctx_->api().cuMemcpyDtoHAsync_v2(dst, address_ + offset, length, ctx_->stream()),
      "device-to-host copy of " + std::to_string(length) + " bytes"));
  return ctx_->synchronize("device-to-host copy of " + std::to_string(length) + " bytes");
}

} // namespace tessel::rt::hal::cuda
