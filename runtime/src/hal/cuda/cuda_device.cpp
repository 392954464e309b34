// CUDA device and its driver factory: loads the driver API, creates a
// context on GPU 0 (TESSEL_CUDA_DEVICE picks another) and hands out buffers,
// executables and command buffers of the chosen mode.
#include "hal/cuda/cuda_device.h"

#include "hal/cuda/cuda_buffer.h"
#include "hal/cuda/cuda_command_buffer_graph.h"
#include "hal/cuda/cuda_command_buffer_stream.h"
#include "hal/cuda/cuda_executable.h"
#include "hal/driver_registry.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

namespace tessel::rt::hal {

namespace cuda {

StatusOr<CommandBufferMode> parseCommandBufferMode(const std::string &option) {
  std::string value = option, source = "the cuda command buffer option";
  if (value.empty()) {
    const char *env = std::getenv("TESSEL_CUDA_COMMAND_BUFFER");
    if (!env || !*env)
      return CommandBufferMode::kGraph;
    value = env;
    source = "TESSEL_CUDA_COMMAND_BUFFER";
  }
  if (value == "graph")
    return CommandBufferMode::kGraph;
  if (value == "stream")
    return CommandBufferMode::kStream;
  return invalidArgument("cuda: unknown command buffer mode '" + value + "' (from " + source +
                         "); expected 'stream' or 'graph'");
}

std::string CudaDevice::description() const {
  uint64_t limit = ctx_->budget().limit();
  return "cuda (" + ctx_->deviceName() + ", " + ctx_->arch() + ", " +
         (mode_ == CommandBufferMode::kGraph ? "graph" : "stream") + " command buffers" +
         (limit ? ", memory limit " + formatBytes(limit) : "") + ")";
}

StatusOr<std::shared_ptr<Buffer>> CudaDevice::allocate(size_t size) {
  TESSEL_ASSIGN_OR_RETURN(auto buffer, CudaBuffer::allocate(ctx_, size));
  return std::shared_ptr<Buffer>(std::move(buffer));
}

StatusOr<std::shared_ptr<Executable>> CudaDevice::prepareExecutable(const ExecutableSpec &spec) {
  TESSEL_ASSIGN_OR_RETURN(auto exe, CudaExecutable::load(ctx_, spec));
  return std::shared_ptr<Executable>(std::move(exe));
}

StatusOr<std::string> CudaDevice::chooseBinary(const ExecutableSpec &spec) {
  return describeChoice(spec, ctx_->ccMajor(), ctx_->ccMinor(), cudaArchOverride());
}

std::unique_ptr<CommandBuffer> CudaDevice::createCommandBuffer() {
  if (mode_ == CommandBufferMode::kGraph)
    return std::make_unique<CudaGraphCommandBuffer>(ctx_);
  return std::make_unique<CudaStreamCommandBuffer>(ctx_);
}

std::unique_ptr<CommandBuffer> CudaDevice::createOneShotCommandBuffer() {
  return std::make_unique<CudaStreamCommandBuffer>(ctx_);
}

Status CudaDevice::submitAndWait(CommandBuffer &commands) {
  auto *cb = dynamic_cast<CudaCommandBuffer *>(&commands);
  if (!cb)
    return invalidArgument("cuda: submitted a command buffer that this device did not create");
  return cb->submit();
}

CudaDevice::~CudaDevice() {
  std::vector<InFlight> done; // destroyed after the lock is released
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  if (!ctx_->enter().ok()) {
    done.swap(inFlight_);
    return;
  }
  (void)drainLocked(done);
  for (CUevent e : spareEvents_)
    ctx_->api().cuEventDestroy_v2(e);
}

StatusOr<CUevent> CudaDevice::takeEventLocked() {
  if (!spareEvents_.empty()) {
    CUevent e = spareEvents_.back();
    spareEvents_.pop_back();
    return e;
  }
  CUevent e = nullptr;
  TESSEL_RETURN_IF_ERROR(ctx_->check(ctx_->api().cuEventCreate(&e, CU_EVENT_DEFAULT),
                                     "cuEventCreate"));
  return e;
}

void CudaDevice::releaseEventsLocked(const InFlight &f) {
  for (CUevent e : {f.start, f.stop})
    if (e)
      spareEvents_.push_back(e);
}

Status CudaDevice::drainLocked(std::vector<InFlight> &done) {
  const CudaApi &api = ctx_->api();
  Status s = ctx_->synchronize("running the queued work");
  if (!s.ok() && !inFlight_.empty()) {
    auto describe = [](const InFlight &f) {
      return static_cast<const CudaCommandBuffer &>(*f.commands).describeDispatches();
    };
    std::string what = inFlight_.size() == 1
                           ? describe(inFlight_[0])
                           : "one of " + std::to_string(inFlight_.size()) +
                                 " queued command buffers (the first: " + describe(inFlight_[0]) +
                                 "; the last: " + describe(inFlight_.back()) +
                                 "); run with TESSEL_CUDA_SYNC_EACH=1 to name the failing one";
    s = Status(s.code(), s.message() + " in " + what);
  }
  for (InFlight &f : inFlight_) {
    if (f.start && f.stop && s.ok()) {
      float ms = 0;
      s = ctx_->check(api.cuEventElapsedTime(&ms, f.start, f.stop), "cuEventElapsedTime");
      completedTimedMs_ += ms;
    }
    releaseEventsLocked(f);
    done.push_back(std::move(f));
  }
  inFlight_.clear();
  return s;
}

Status CudaDevice::submit(std::shared_ptr<CommandBuffer> commands, bool timed) {
  auto *cb = dynamic_cast<CudaCommandBuffer *>(commands.get());
  if (!cb)
    return invalidArgument("cuda: submitted a command buffer that this device did not create");
  static const bool syncEach = syncEachFromEnv();
  std::vector<InFlight> done; // destroyed after the lock is released
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  TESSEL_RETURN_IF_ERROR(ctx_->enter());
  if (inFlight_.size() >= kMaxInFlight)
    TESSEL_RETURN_IF_ERROR(drainLocked(done));
  const CudaApi &api = ctx_->api();
  InFlight f{std::move(commands)};
  Status s;
  if (timed) {
    auto start = takeEventLocked();
    auto stop = start.ok() ? takeEventLocked() : start;
    if (!stop.ok()) {
      if (start.ok())
        spareEvents_.push_back(*start);
      return stop.status();
    }
    f.start = *start;
    f.stop = *stop;
    s = ctx_->check(api.cuEventRecord(f.start, ctx_->stream()), "cuEventRecord");
  }
  if (s.ok())
    s = cb->enqueueRun();
  if (s.ok() && timed)
    s = ctx_->check(api.cuEventRecord(f.stop, ctx_->stream()), "cuEventRecord");
  if (!s.ok()) {
    // Work queued before it still runs; this one's events are not read.
    releaseEventsLocked(f);
    return s;
  }
  inFlight_.push_back(std::move(f));
  if (syncEach)
    return drainLocked(done);
  return Status();
}

Status CudaDevice::wait(double *timedMs) {
  std::vector<InFlight> done; // destroyed after the lock is released
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  Status s = ctx_->enter();
  if (s.ok())
    s = drainLocked(done);
  else
    for (InFlight &f : inFlight_)
      done.push_back(std::move(f)); // events are lost with the context
  inFlight_.clear();
  (void)Device::wait(timedMs); // hands over completedTimedMs_
  return s;
}

StatusOr<std::vector<double>> CudaDevice::submitTimed(
    const std::vector<CommandBuffer *> &commands, int runs) {
  std::vector<double> ms;
  if (commands.empty() || runs <= 0)
    return ms;
  std::vector<CudaCommandBuffer *> cbs;
  for (CommandBuffer *c : commands) {
    auto *cb = dynamic_cast<CudaCommandBuffer *>(c);
    if (!cb)
      return invalidArgument("cuda: submitted a command buffer that this device did not create");
    cbs.push_back(cb);
  }
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  TESSEL_RETURN_IF_ERROR(ctx_->enter());
  const CudaApi &api = ctx_->api();
  std::vector<CUevent> events(2 * static_cast<size_t>(runs), nullptr);
  auto destroyEvents = [&] {
    for (CUevent e : events)
      if (e)
        api.cuEventDestroy_v2(e);
  };
  Status s;
  for (size_t i = 0; i < events.size() && s.ok(); ++i)
    s = ctx_->check(api.cuEventCreate(&events[i], CU_EVENT_DEFAULT), "cuEventCreate");
  for (int i = 0; i < runs && s.ok(); ++i) {
    s = ctx_->check(api.cuEventRecord(events[2 * i], ctx_->stream()), "cuEventRecord");
    if (s.ok())
      s = cbs[i % cbs.size()]->enqueueRun();
    if (s.ok())
      s = ctx_->check(api.cuEventRecord(events[2 * i + 1], ctx_->stream()), "cuEventRecord");
  }
  Status synced = ctx_->synchronize("timed runs");
  if (s.ok())
    s = synced;
  for (int i = 0; i < runs && s.ok(); ++i) {
    float t = 0;
    s = ctx_->check(api.cuEventElapsedTime(&t, events[2 * i], events[2 * i + 1]),
                    "cuEventElapsedTime");
    ms.push_back(t);
  }
  destroyEvents();
  if (!s.ok())
    return s;
  return ms;
}

std::optional<int> CudaDevice::cudaAttribute(int attribute) const {
  int value = 0;
  if (ctx_->api().cuDeviceGetAttribute(&value, attribute, ctx_->device()) != CUDA_SUCCESS)
    return std::nullopt;
  return value;
}

Status CudaDevice::memoryInfo(uint64_t *free, uint64_t *total) const {
  size_t f = 0, t = 0;
  {
    std::lock_guard<std::mutex> lock(ctx_->mutex());
    TESSEL_RETURN_IF_ERROR(ctx_->enter());
    TESSEL_RETURN_IF_ERROR(ctx_->check(ctx_->api().cuMemGetInfo_v2(&f, &t), "cuMemGetInfo"));
  }
  // Blocks kept for reuse are free for this device's buffers.
  uint64_t free64 = std::min<uint64_t>(t, f + ctx_->blocks().cachedBytes()), total64 = t;
  if (uint64_t limit = ctx_->budget().limit()) {
    total64 = std::min(total64, limit);
    free64 = std::min(free64, limit - std::min(ctx_->budget().inUse(), limit));
  }
  *free = free64;
  *total = total64;
  return Status();
}

/// The integer in environment variable `name` (nullopt if unset or empty),
/// or an error "NAME must be WHAT, got '...'" outside [lo, hi].
StatusOr<std::optional<long>> envInteger(const char *name, long lo, long hi,
                                         const char *what) {
  const char *env = std::getenv(name);
  if (!env || !*env)
    return std::optional<long>();
  char *end = nullptr;
  long v = std::strtol(env, &end, 10);
  if (*end || v < lo || v > hi)
    return invalidArgument(std::string(name) + " must be " + what + ", got '" + env + "'");
  return std::optional<long>(v);
}

} // namespace cuda

StatusOr<std::shared_ptr<Device>> createCudaDevice(const DeviceOptions &options) {
  // Options first: a bad flag is an error even on a machine without a GPU.
  TESSEL_ASSIGN_OR_RETURN(cuda::CommandBufferMode mode,
                          cuda::parseCommandBufferMode(options.cudaCommandBuffer));
  TESSEL_ASSIGN_OR_RETURN(uint64_t limit, memoryLimitFor(options));
  TESSEL_ASSIGN_OR_RETURN(const cuda::CudaApi *api, cuda::loadCudaApi());
  TESSEL_ASSIGN_OR_RETURN(std::optional<long> ordinal,
                          cuda::envInteger("TESSEL_CUDA_DEVICE", 0, 1024, "a device ordinal"));
  TESSEL_ASSIGN_OR_RETURN(
      std::optional<long> smLimit,
      cuda::envInteger("TESSEL_CUDA_SM_LIMIT", 1, 100000, "a positive number of SMs"));
  TESSEL_ASSIGN_OR_RETURN(auto ctx, cuda::CudaContext::create(
                                        *api, static_cast<int>(ordinal.value_or(0)), limit,
                                        static_cast<uint32_t>(smLimit.value_or(0))));
  return std::shared_ptr<Device>(std::make_shared<cuda::CudaDevice>(std::move(ctx), mode));
}

} // namespace tessel::rt::hal
