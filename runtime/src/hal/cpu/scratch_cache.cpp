// Dispatch scratch for cpu kernels: a cache of leased buffers.
#include "hal/cpu/scratch_cache.h"

namespace tessel::rt::hal::cpu {

StatusOr<std::shared_ptr<Buffer>> ScratchCache::acquire(size_t bytes) {
  std::shared_ptr<Buffer> buffer;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto best = free_.end();
    for (auto it = free_.begin(); it != free_.end(); ++it)
      if ((*it)->size() >= bytes && (best == free_.end() || (*it)->size() < (*best)->size()))
        best = it;
    if (best != free_.end()) {
      buffer = std::move(*best);
      free_.erase(best);
    }
  }
  if (!buffer) {
    StatusOr<std::shared_ptr<Buffer>> fresh = allocate_(bytes);
    if (!fresh.ok()) {
      // Too small to reuse, but they count against the memory limit.
      {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.clear();
      }
      fresh = allocate_(bytes);
    }
    if (!fresh.ok())
      return resourceExhausted("cannot allocate " + std::to_string(bytes) +
                               " bytes of dispatch scratch: " + fresh.status().message());
    buffer = std::move(*fresh);
  }
  Buffer *raw = buffer.get();
  std::shared_ptr<ScratchCache> self = shared_from_this();
  return std::shared_ptr<Buffer>(raw, [self, buffer](Buffer *) { self->release(buffer); });
}

void ScratchCache::release(std::shared_ptr<Buffer> buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  free_.push_back(std::move(buffer));
}

size_t ScratchCache::freeBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t total = 0;
  for (const std::shared_ptr<Buffer> &b : free_)
    total += b->size();
  return total;
}

} // namespace tessel::rt::hal::cpu
