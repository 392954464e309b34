// A cache of freed device blocks by size class, shared by a device and its
// buffers, so that a program that allocates the same sizes call after call
// (transients, loop iterations) reaches a steady state without calls to the
// driver's allocator (cuMemAlloc, which also synchronises on free; or fresh
// host pages, which fault on first touch).
//
// Blocks are rounded up to a size class (sizeClass): 256-byte steps up to
// 4 KiB, then eight classes per power of two (at most 12.5% larger than
// asked). A freed block goes back to its class's list while the cache holds
// at most `capacity` bytes; past that the caller frees it. A driver whose
// allocation fails drains the cache, frees the blocks and tries again.
//
// Reuse is safe because each driver orders all work on one queue (cuda: the
// device's stream; cpu: commands run synchronously): a block is freed only
// when no recorded work still reads it, or, for cuda, after the work that
// does read it on the same stream.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace tessel::rt::hal {

class BlockCache {
public:
  /// `release` frees the blocks still cached when the cache goes (null: the
  /// owner frees them, e.g. with its context).
  using Release = std::function<void(uint64_t address, uint64_t bytes)>;
  explicit BlockCache(uint64_t capacity, Release release = nullptr)
      : capacity_(capacity), release_(std::move(release)) {}
  ~BlockCache();
  BlockCache(const BlockCache &) = delete;
  BlockCache &operator=(const BlockCache &) = delete;

  /// The size of the block that serves `bytes` bytes.
  static uint64_t sizeClass(uint64_t bytes);

  /// A cached block of exactly `classBytes` (a sizeClass), if any.
  std::optional<uint64_t> take(uint64_t classBytes);
  /// Keeps freed block `address` of `classBytes`; false if the cache is
  /// full (the caller frees the block).
  bool put(uint64_t address, uint64_t classBytes);
  /// Empties the cache; the caller frees the returned (address, bytes).
  std::vector<std::pair<uint64_t, uint64_t>> drain();

  uint64_t cachedBytes() const;
  uint64_t hits() const;
  uint64_t misses() const;

private:
  mutable std::mutex mutex_;
  uint64_t capacity_;
  Release release_;
  uint64_t cached_ = 0;
  uint64_t hits_ = 0, misses_ = 0;
  std::map<uint64_t, std::vector<uint64_t>> free_; // class size -> blocks
};

} // namespace tessel::rt::hal
