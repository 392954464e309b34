// Size classes and the free lists of BlockCache.
#include "hal/block_cache.h"

namespace tessel::rt::hal {

BlockCache::~BlockCache() {
  if (release_)
    for (auto [address, bytes] : drain())
      release_(address, bytes);
}

uint64_t BlockCache::sizeClass(uint64_t bytes) {
  if (bytes <= 4096)
    return bytes <= 256 ? 256 : (bytes + 255) / 256 * 256;
  // Eight classes per power of two: round up to a multiple of 2^(k-3),
  // where 2^k <= bytes < 2^(k+1).
  int k = 63 - __builtin_clzll(bytes);
  uint64_t step = uint64_t(1) << (k - 3);
  if (bytes > UINT64_MAX - step)
    return bytes;
  return (bytes + step - 1) / step * step;
}

std::optional<uint64_t> BlockCache::take(uint64_t classBytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = free_.find(classBytes);
  if (it == free_.end() || it->second.empty()) {
    ++misses_;
    return std::nullopt;
  }
  uint64_t address = it->second.back();
  it->second.pop_back();
  cached_ -= classBytes;
  ++hits_;
  return address;
}

bool BlockCache::put(uint64_t address, uint64_t classBytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (classBytes > capacity_ || cached_ > capacity_ - classBytes)
    return false;
  free_[classBytes].push_back(address);
  cached_ += classBytes;
  return true;
}

std::vector<std::pair<uint64_t, uint64_t>> BlockCache::drain() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::pair<uint64_t, uint64_t>> blocks;
  for (auto &[bytes, list] : free_)
    for (uint64_t address : list)
      blocks.emplace_back(address, bytes);
  free_.clear();
  cached_ = 0;
  return blocks;
}

uint64_t BlockCache::cachedBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cached_;
}
uint64_t BlockCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}
uint64_t BlockCache::misses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return misses_;
}

} // namespace tessel::rt::hal
