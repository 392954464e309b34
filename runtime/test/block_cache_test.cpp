// Tests of BlockCache (size classes, capacity, draining, release on
// destruction) and of the cpu device reusing a freed buffer's memory.
#include "hal/block_cache.h"
#include "tessel/runtime/device.h"
#include "hal/device.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace tessel::rt;
using tessel::rt::hal::BlockCache;

TEST(BlockCacheTest, SizeClasses) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> sizes = {0, 1, 255, 256, 257, 4095, 4096, 4097, 5000, 65537, 1 << 20,
                                 (1 << 20) + 1, uint64_t(3) << 33};
  for (int i = 0; i < 2000; ++i)
    sizes.push_back(rng() >> (rng() % 60 + 4));
  for (uint64_t n : sizes) {
    uint64_t c = BlockCache::sizeClass(n);
    EXPECT_GE(c, n);
    EXPECT_GE(c, 256u);
    EXPECT_EQ(c % 256, 0u) << n;
    EXPECT_EQ(BlockCache::sizeClass(c), c) << "a class is its own class: " << n;
    if (n > 4096)
      EXPECT_LE(c - n, n / 8) << "at most 12.5% larger: " << n;
    EXPECT_LE(BlockCache::sizeClass(n / 2), c) << "monotone: " << n;
  }
  EXPECT_EQ(BlockCache::sizeClass(5000), 5120u);
}

TEST(BlockCacheTest, TakePutCapacityDrain) {
  std::vector<std::pair<uint64_t, uint64_t>> released;
  {
    BlockCache cache(3 * 1024, [&](uint64_t a, uint64_t b) { released.emplace_back(a, b); });
    EXPECT_FALSE(cache.take(1024).has_value());
    EXPECT_TRUE(cache.put(0x1000, 1024));
    EXPECT_TRUE(cache.put(0x2000, 2048));
    EXPECT_FALSE(cache.put(0x3000, 1024)) << "over capacity: the caller frees it";
    EXPECT_EQ(cache.cachedBytes(), 3072u);
    EXPECT_FALSE(cache.take(512).has_value()) << "classes are exact";
    EXPECT_EQ(cache.take(1024), std::optional<uint64_t>(0x1000));
    EXPECT_EQ(cache.cachedBytes(), 2048u);
    EXPECT_EQ(cache.hits(), 1u);
    EXPECT_EQ(cache.misses(), 2u);
    EXPECT_TRUE(cache.put(0x4000, 256));
    auto drained = cache.drain();
    EXPECT_EQ(drained.size(), 2u);
    EXPECT_EQ(cache.cachedBytes(), 0u);
    EXPECT_TRUE(cache.put(0x5000, 512));
  }
  ASSERT_EQ(released.size(), 1u) << "what is still cached is released with the cache";
  EXPECT_EQ(released[0], std::make_pair(uint64_t(0x5000), uint64_t(512)));
}

TEST(BlockCacheTest, CpuDeviceReusesFreedMemory) {
  auto device = createDevice("cpu");
  ASSERT_TRUE(device.ok()) << device.status().toString();
  hal::Device &d = (*device)->hal();
  uint64_t first = 0;
  {
    auto a = d.allocate(1000);
    ASSERT_TRUE(a.ok());
    first = (*a)->deviceAddress();
    EXPECT_EQ((*a)->size(), 1000u) << "the size asked for, not the block's";
    EXPECT_EQ(first % hal::kBufferAlignment, 0u);
  }
  auto b = d.allocate(900); // the same 1024-byte class
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->deviceAddress(), first);
  auto c = d.allocate(1000); // the cached block is in use
  ASSERT_TRUE(c.ok());
  EXPECT_NE((*c)->deviceAddress(), first);
  // Buffers stay writable to their full size.
  std::vector<uint8_t> bytes(1000, 7), back(1000);
  ASSERT_TRUE((*c)->write(0, bytes.data(), bytes.size()).ok());
  ASSERT_TRUE((*c)->read(0, back.data(), back.size()).ok());
  EXPECT_EQ(back, bytes);
}
