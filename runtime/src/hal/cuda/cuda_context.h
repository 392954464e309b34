// State shared by every object of one cuda device: the API table, the
// CUcontext and the one CUstream all work goes through, plus the lock that
// serializes use of that stream. Buffers, executables and command buffers
// hold it by shared_ptr, so the context outlives everything created in it.
#pragma once

#include "hal/block_cache.h"
#include "hal/cuda/cuda_api.h"
#include "hal/memory_budget.h"

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace tessel::rt::hal::cuda {

class CudaContext {
public:
  /// Creates a context and a non-blocking stream on device `ordinal`;
  /// `memoryLimit` caps the bytes its buffers hold at once (0: none),
  /// `smLimit` the SMs persistent grids are sized for (0: the device's).
  static StatusOr<std::shared_ptr<CudaContext>> create(const CudaApi &api, int ordinal,
                                                       uint64_t memoryLimit = 0,
                                                       uint32_t smLimit = 0);
  ~CudaContext();
  CudaContext(const CudaContext &) = delete;
  CudaContext &operator=(const CudaContext &) = delete;

  const CudaApi &api() const { return api_; }
  CUstream stream() const { return stream_; }
  CUdevice device() const { return device_; }
  /// "sm_90".
  const std::string &arch() const { return arch_; }
  int ccMajor() const { return ccMajor_; }
  int ccMinor() const { return ccMinor_; }
  /// Marketing name, e.g. "NVIDIA H100 80GB HBM3".
  const std::string &deviceName() const { return deviceName_; }
  /// "cuda device 0 (NVIDIA H100 80GB HBM3)": names the device in errors.
  std::string label() const {
    return "cuda device " + std::to_string(ordinal_) + " (" + deviceName_ + ")";
  }
  /// Bytes held by this device's buffers, against the optional limit.
  MemoryBudget &budget() { return *budget_; }
  /// Freed device blocks kept for reuse (a quarter of the device's memory
  /// at most); cuCtxDestroy frees what is left.
  BlockCache &blocks() { return *blocks_; }
  /// Largest grid dimensions (x, y, z) a launch may use.
  const std::array<uint32_t, 3> &maxGrid() const { return maxGrid_; }
  /// Streaming multiprocessors that persistent grids are sized for: the
  /// device's (0 if the driver does not say), at most TESSEL_CUDA_SM_LIMIT.
  uint32_t smCount() const { return smCount_; }
  /// A device attribute; 0 if the driver does not answer.
  int attribute(CUdevice_attribute attribute) const;

  /// Held around every sequence of stream operations (enqueue + synchronize)
  /// and around frees, so that calls from several threads do not interleave
  /// and nothing is freed while a graph is being captured.
  std::mutex &mutex() { return mutex_; }

  /// Makes the context current on the calling thread (each thread has its
  /// own current context) and fails if an earlier fault left CUDA unusable.
  /// Call with mutex() held.
  Status enter();

  /// cudaStatus(), plus: a sticky error (a kernel fault) marks CUDA lost for
  /// the whole process (the driver fails all later work in the process, in
  /// every context), so every later call reports that first error instead
  /// of an unrelated follow-up. Call with mutex() held.
  Status check(CUresult result, const std::string &what);

  /// Synchronizes the stream; `what` describes the work for the error.
  Status synchronize(const std::string &what);

private:
  explicit CudaContext(const CudaApi &api) : api_(api) {}
  const CudaApi &api_;
  CUdevice device_ = 0;
  int ordinal_ = 0;
  std::unique_ptr<MemoryBudget> budget_;
  std::unique_ptr<BlockCache> blocks_;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  int ccMajor_ = 0, ccMinor_ = 0;
  std::string arch_, deviceName_;
  std::array<uint32_t, 3> maxGrid_{0x7fffffffu, 65535u, 65535u};
  uint32_t smCount_ = 0;
  std::mutex mutex_;
};

} // namespace tessel::rt::hal::cuda
