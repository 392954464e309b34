// CPU buffer: 64-byte aligned host memory; large buffers in transparent huge
// pages where the system allows.
#pragma once

#include "hal/buffer.h"
#include "hal/memory_budget.h"

#include <memory>
#include <optional>

namespace tessel::rt::hal::cpu {

/// Buffers of at least this many bytes may get huge pages.
constexpr size_t kHugePageBytes = size_t(2) << 20;

/// Parses a TESSEL_CPU_HUGE_PAGES value: "1" (large buffers ask for
/// transparent huge pages) or "0" (they do not). nullptr or "" means "not
/// set" and yields std::nullopt.
StatusOr<std::optional<bool>> parseHugePages(const char *value);

/// TESSEL_CPU_HUGE_PAGES, else true. An invalid variable is an error naming it.
StatusOr<bool> defaultHugePages();

class CpuBuffer final : public Buffer {
public:
  /// Allocates `size` bytes (at least one cache line, so that zero-sized
  /// tensors still get a valid, aligned pointer).
  /// With `hugePages`, a buffer of at least kHugePageBytes is mapped on its
  /// own, aligned to and a multiple of kHugePageBytes, and advised to use
  /// transparent huge pages (madvise(MADV_HUGEPAGE); Linux only, best
  /// effort: a system with them off still gets ordinary pages). Kernels
  /// that stride through large buffers (a tile's rows, a matrix's columns)
  /// then take one TLB entry per 2 MiB instead of per 4 KiB page.
  /// Counts against `budget`; errors name the size and the device.
  static StatusOr<std::shared_ptr<CpuBuffer>> allocate(size_t size,
                                                       std::shared_ptr<MemoryBudget> budget,
                                                       bool hugePages = false);
  ~CpuBuffer() override;

  size_t size() const override { return size_; }
  StatusOr<void *> map() override { return static_cast<void *>(data_); }
  Status write(size_t offset, const void *src, size_t length) override;
  Status read(size_t offset, void *dst, size_t length) const override;
  /// The host pointer: cpu kernels address host memory.
  uint64_t deviceAddress() const override { return reinterpret_cast<uintptr_t>(data_); }

private:
  CpuBuffer(uint8_t *data, size_t size, size_t mapped, std::shared_ptr<MemoryBudget> budget)
      : data_(data), size_(size), mapped_(mapped), budget_(std::move(budget)) {}
  uint8_t *data_;
  size_t size_;
  size_t mapped_; // bytes mapped with mmap (0: from aligned_alloc)
  std::shared_ptr<MemoryBudget> budget_;
};

} // namespace tessel::rt::hal::cpu
