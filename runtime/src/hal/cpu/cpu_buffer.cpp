// CPU buffer allocation and host copies.
#include "hal/cpu/cpu_buffer.h"

#include "printable_text.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tessel::rt::hal::cpu {

namespace {

// Maps `length` bytes (a multiple of kHugePageBytes) aligned to
// kHugePageBytes and asks for transparent huge pages; nullptr if the system
// refuses the mapping.
uint8_t *mapHugePages(size_t length) {
#if defined(__linux__)
  size_t span = length + kHugePageBytes;
  void *p = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return nullptr;
  uintptr_t start = reinterpret_cast<uintptr_t>(p);
  uintptr_t aligned = (start + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  // Give back the unaligned head and the tail beyond `length`.
  if (aligned > start)
    ::munmap(p, aligned - start);
  if (size_t tail = start + span - (aligned + length))
    ::munmap(reinterpret_cast<void *>(aligned + length), tail);
  // Best effort: with THP "never" (or an old kernel) the pages stay small.
  ::madvise(reinterpret_cast<void *>(aligned), length, MADV_HUGEPAGE);
  return reinterpret_cast<uint8_t *>(aligned);
#else
  (void)length;
  return nullptr;
#endif
}

} // namespace

StatusOr<std::optional<bool>> parseHugePages(const char *value) {
  if (!value || !*value)
    return std::optional<bool>();
  std::string s(value);
  if (s == "0" || s == "1")
    return std::optional<bool>(s == "1");
  return invalidArgument("TESSEL_CPU_HUGE_PAGES='" + printableText(s, 64) +
                         "' is not 0 or 1 (1, the default: buffers of 2 MiB or more ask for "
                         "transparent huge pages; 0: ordinary pages)");
}

StatusOr<bool> defaultHugePages() {
  TESSEL_ASSIGN_OR_RETURN(std::optional<bool> fromEnv,
                          parseHugePages(std::getenv("TESSEL_CPU_HUGE_PAGES")));
  return fromEnv.value_or(true);
}

StatusOr<std::shared_ptr<CpuBuffer>> CpuBuffer::allocate(size_t size,
                                                         std::shared_ptr<MemoryBudget> budget,
                                                         bool hugePages) {
  auto outOfMemory = [&] {
    return resourceExhausted(budget->device() + ": cannot allocate " + sizeText(size) +
                             " of host memory: out of memory");
  };
  // aligned_alloc wants a multiple of the alignment; a mapping, of
  // kHugePageBytes, plus as much again to align it.
  if (size > SIZE_MAX / 2 - kHugePageBytes)
    return outOfMemory();
  TESSEL_RETURN_IF_ERROR(budget->reserve(size));
  if (hugePages && size >= kHugePageBytes) {
    size_t length = (size + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    uint8_t *p = mapHugePages(length);
    if (!p) {
      budget->release(size);
      return outOfMemory();
    }
    return std::shared_ptr<CpuBuffer>(new CpuBuffer(p, size, length, std::move(budget)));
  }
  size_t rounded = std::max<size_t>(kBufferAlignment, (size + kBufferAlignment - 1) /
                                                          kBufferAlignment * kBufferAlignment);
  void *p = std::aligned_alloc(kBufferAlignment, rounded);
  if (!p) {
    budget->release(size);
    return outOfMemory();
  }
  return std::shared_ptr<CpuBuffer>(
      new CpuBuffer(static_cast<uint8_t *>(p), size, 0, std::move(budget)));
}

CpuBuffer::~CpuBuffer() {
#if defined(__linux__)
  if (mapped_)
    ::munmap(data_, mapped_);
  else
#endif
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
