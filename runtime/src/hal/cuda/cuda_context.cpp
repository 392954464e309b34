// CUDA context and stream lifetime, current-context handling and the
// "device lost" state after a kernel fault.
#include "hal/cuda/cuda_context.h"

#include <algorithm>

namespace tessel::rt::hal::cuda {

namespace {
// The first sticky error in this process; see CudaContext::check.
std::mutex &lostMutex() {
  static std::mutex mutex;
  return mutex;
}
Status &lostStatus() {
  static Status status;
  return status;
}
} // namespace

StatusOr<std::shared_ptr<CudaContext>> CudaContext::create(const CudaApi &api, int ordinal,
                                                           uint64_t memoryLimit,
                                                           uint32_t smLimit) {
  std::shared_ptr<CudaContext> ctx(new CudaContext(api));
  ctx->ordinal_ = ordinal;
  TESSEL_RETURN_IF_ERROR(cudaStatus(api, api.cuDeviceGet(&ctx->device_, ordinal),
                                    "cuDeviceGet(" + std::to_string(ordinal) + ")"));
  char name[256] = {};
  if (api.cuDeviceGetName(name, sizeof(name) - 1, ctx->device_) == CUDA_SUCCESS)
    ctx->deviceName_ = name;
  else
    ctx->deviceName_ = "CUDA device " + std::to_string(ordinal);
  ctx->ccMajor_ = ctx->attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  ctx->ccMinor_ = ctx->attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  if (ctx->ccMajor_ <= 0)
    return unavailable("cuda: cannot read the compute capability of " + ctx->deviceName_);
  for (int d = 0; d < 3; ++d)
    if (int v = ctx->attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + d); v > 0)
      ctx->maxGrid_[d] = static_cast<uint32_t>(v);
  if (int v = ctx->attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT); v > 0)
    ctx->smCount_ = static_cast<uint32_t>(v);
  if (smLimit)
    ctx->smCount_ = std::min(ctx->smCount_, smLimit);
  ctx->budget_ = std::make_unique<MemoryBudget>(ctx->label(), memoryLimit);
  ctx->arch_ = "sm_" + std::to_string(ctx->ccMajor_) + std::to_string(ctx->ccMinor_);

  // An own context rather than the primary one, so that everything this
  // device created goes away with it (a kernel fault still poisons the whole
  // process: the driver fails all later work, in every context).
  TESSEL_RETURN_IF_ERROR(
      cudaStatus(api, api.cuCtxCreate_v2(&ctx->context_, 0, ctx->device_), "cuCtxCreate"));
  // Non-blocking: all work of this device goes through this one stream and
  // is synchronized explicitly; no implicit ordering with the legacy stream.
  TESSEL_RETURN_IF_ERROR(cudaStatus(
      api, api.cuStreamCreate(&ctx->stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate"));
  size_t freeBytes = 0, totalBytes = 0;
  if (api.cuMemGetInfo_v2(&freeBytes, &totalBytes) != CUDA_SUCCESS)
    totalBytes = size_t(4) << 30;
  ctx->blocks_ = std::make_unique<BlockCache>(totalBytes / 4);
  return ctx;
}

CudaContext::~CudaContext() {
  if (!context_)
    return;
  // Errors cannot be reported from here; a lost context still gets destroyed.
  api_.cuCtxSetCurrent(context_);
  // cuCtxDestroy would free them too; freed here so that every cuMemAlloc
  // has its cuMemFree.
  if (blocks_)
    for (auto [address, bytes] : blocks_->drain())
      api_.cuMemFree_v2(address);
  if (stream_)
    api_.cuStreamDestroy_v2(stream_);
  api_.cuCtxDestroy_v2(context_);
}

int CudaContext::attribute(CUdevice_attribute attribute) const {
  int value = 0;
  if (api_.cuDeviceGetAttribute(&value, attribute, device_) != CUDA_SUCCESS)
    return 0;
  return value;
}

Status CudaContext::enter() {
  {
    std::lock_guard<std::mutex> lock(lostMutex());
    if (!lostStatus().ok())
      return lostStatus();
  }
  return cudaStatus(api_, api_.cuCtxSetCurrent(context_), "cuCtxSetCurrent");
}

Status CudaContext::check(CUresult result, const std::string &what) {
  Status s = cudaStatus(api_, result, what);
  if (!s.ok() && isStickyError(result)) {
    std::lock_guard<std::mutex> lock(lostMutex());
    if (lostStatus().ok())
      lostStatus() = Status(s.code(), "cuda: CUDA is unusable in this process after an earlier "
                                      "error (restart the process): " + s.message());
  }
  return s;
}

Status CudaContext::synchronize(const std::string &what) {
  return check(api_.cuStreamSynchronize(stream_), what);
}

} // namespace tessel::rt::hal::cuda
