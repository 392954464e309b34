// Dispatch scratch for cpu kernels (schema Export.scratch_bytes): memory all
// workgroups of one dispatch share, e.g. operands packed once for all of
// them. A command buffer holds one lease, as large as its largest dispatch
// needs (its commands run one after another); leases go back to the
// device's cache when the command buffer dies, so that a program called
// again reuses the pages instead of faulting fresh ones in.
#pragma once

#include "hal/buffer.h"
#include "tessel/runtime/status.h"

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace tessel::rt::hal::cpu {

class ScratchCache : public std::enable_shared_from_this<ScratchCache> {
public:
  using Allocate = std::function<StatusOr<std::shared_ptr<Buffer>>(size_t)>;
  /// `allocate` makes a new buffer (the device's, within its memory limit).
  explicit ScratchCache(Allocate allocate) : allocate_(std::move(allocate)) {}

  /// A buffer of at least `bytes`: the smallest free one that is large
  /// enough, else a new one (the free ones are released first if the new
  /// one does not fit otherwise). It returns to the cache when the last
  /// copy of the lease is gone.
  StatusOr<std::shared_ptr<Buffer>> acquire(size_t bytes);

  /// Bytes held by free buffers (for tests).
  size_t freeBytes() const;

private:
  void release(std::shared_ptr<Buffer> buffer);

  Allocate allocate_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<Buffer>> free_;
};

} // namespace tessel::rt::hal::cpu
