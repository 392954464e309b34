// Validation and recording of cuda commands, and their replay on a stream
// (used directly by the stream command buffer and under stream capture by
// the graph command buffer).
#include "hal/cuda/cuda_command_buffer.h"

#include "hal/cuda/cuda_buffer.h"
#include "hal/cuda/cuda_executable.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace tessel::rt::hal::cuda {

CudaCommandBuffer::~CudaCommandBuffer() {
  if (!pinned_)
    return;
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  if (ctx_->enter().ok())
    ctx_->api().cuMemFreeHost(pinned_);
}

StatusOr<CUdeviceptr> CudaCommandBuffer::address(Buffer &buffer, size_t offset, size_t length,
                                                 const char *what) {
  auto *b = dynamic_cast<CudaBuffer *>(&buffer);
  if (!b || b->context() != ctx_.get())
    return invalidArgument(std::string(what) + ": the buffer was not allocated by this cuda device");
  TESSEL_RETURN_IF_ERROR(checkBufferRange(buffer, offset, length, what));
  return b->address() + offset;
}

Status CudaCommandBuffer::fill(Buffer &buffer, size_t offset, size_t length, uint8_t value) {
  TESSEL_ASSIGN_OR_RETURN(CUdeviceptr p, address(buffer, offset, length, "fill"));
  if (length == 0)
    return Status();
  Command c(Command::Kind::Fill);
  c.dst = p;
  c.length = length;
  c.value = value;
  commands_.push_back(std::move(c));
  return Status();
}

Status CudaCommandBuffer::update(const void *src, Buffer &dst, size_t dstOffset, size_t length) {
  TESSEL_ASSIGN_OR_RETURN(CUdeviceptr p, address(dst, dstOffset, length, "update"));
  if (length == 0)
    return Status();
  Command c(Command::Kind::Update);
  c.dst = p;
  c.length = length;
  c.stagingOffset = stagingHost_.size();
  const auto *bytes = static_cast<const uint8_t *>(src);
  stagingHost_.insert(stagingHost_.end(), bytes, bytes + length);
  commands_.push_back(std::move(c));
  return Status();
}

Status CudaCommandBuffer::copy(Buffer &src, size_t srcOffset, Buffer &dst, size_t dstOffset,
                               size_t length) {
  TESSEL_ASSIGN_OR_RETURN(CUdeviceptr s, address(src, srcOffset, length, "copy source"));
  TESSEL_ASSIGN_OR_RETURN(CUdeviceptr d, address(dst, dstOffset, length, "copy destination"));
  if (length == 0)
    return Status();
  Command c(Command::Kind::Copy);
  c.src = s;
  c.dst = d;
  c.length = length;
  commands_.push_back(std::move(c));
  return Status();
}

Status CudaCommandBuffer::dispatch(Executable &executable, uint32_t ordinal,
                                   std::array<uint32_t, 3> workgroupCount,
                                   const std::vector<Buffer *> &bindings,
                                   const std::vector<int64_t> &pushConstants) {
  auto *exe = dynamic_cast<CudaExecutable *>(&executable);
  if (!exe || exe->context() != ctx_.get())
    return invalidArgument("dispatch: the executable was not prepared by this cuda device");
  if (ordinal >= exe->exports().size())
    return invalidArgument("dispatch of export " + std::to_string(ordinal) +
                           " but the executable has " + std::to_string(exe->exports().size()));
  const ExportInfo &info = exe->exports()[ordinal];
  TESSEL_RETURN_IF_ERROR(checkDispatch(info, bindings, pushConstants));
  for (int d = 0; d < 3; ++d)
    if (workgroupCount[d] == 0 || workgroupCount[d] > ctx_->maxGrid()[d])
      return invalidArgument("dispatch of '" + info.name + "': workgroup count " +
                             std::to_string(workgroupCount[0]) + "x" +
                             std::to_string(workgroupCount[1]) + "x" +
                             std::to_string(workgroupCount[2]) + " exceeds the grid limit " +
                             std::to_string(ctx_->maxGrid()[0]) + "x" +
                             std::to_string(ctx_->maxGrid()[1]) + "x" +
                             std::to_string(ctx_->maxGrid()[2]) + " of " + ctx_->deviceName());
  Command c(Command::Kind::Dispatch);
  for (size_t i = 0; i < bindings.size(); ++i) {
    std::string what = "dispatch of '" + info.name + "' binding " + std::to_string(i);
    if (!bindings[i])
      return invalidArgument(what + " is null");
    TESSEL_ASSIGN_OR_RETURN(CUdeviceptr p, address(*bindings[i], 0, 0, what.c_str()));
    c.args.push_back(p);
  }
  c.pushConstants = pushConstants;
  TESSEL_RETURN_IF_ERROR(encodeTensorMaps(info, bindings, c));
  c.function = exe->function(ordinal);
  c.grid = workgroupCount;
  // A persistent grid is sized to this device: the kernel strides by the
  // launched grid.
  if (info.residentBlocksPerSm && ctx_->smCount())
    c.grid[0] = static_cast<uint32_t>(std::min<uint64_t>(
        c.grid[0], uint64_t(ctx_->smCount()) * info.residentBlocksPerSm));
  c.block = info.workgroupSize;
  c.sharedBytes = info.sharedMemoryBytes;
  c.name = info.name;
  c.dispatchIndex = dispatchCount_++;
  commands_.push_back(std::move(c));
  return Status();
}

Status CudaCommandBuffer::launch(Executable &executable, uint32_t ordinal,
                                 const LaunchConfig &config,
                                 const std::vector<std::vector<uint8_t>> &parameterValues) {
  auto *exe = dynamic_cast<CudaExecutable *>(&executable);
  if (!exe || exe->context() != ctx_.get())
    return invalidArgument("launch: the executable was not prepared by this cuda device");
  if (ordinal >= exe->exports().size())
    return invalidArgument("launch of export " + std::to_string(ordinal) +
                           " but the executable has " + std::to_string(exe->exports().size()));
  const ExportInfo &info = exe->exports()[ordinal];
  TESSEL_RETURN_IF_ERROR(checkLaunch(info, config, parameterValues));
  std::string what = "launch of '" + info.name + "' (" + describeLaunch(config) + ")";
  for (int d = 0; d < 3; ++d)
    if (config.grid[d] > ctx_->maxGrid()[d])
      return invalidArgument(what + " exceeds the grid limit " + std::to_string(ctx_->maxGrid()[0]) +
                             "x" + std::to_string(ctx_->maxGrid()[1]) + "x" +
                             std::to_string(ctx_->maxGrid()[2]) + " of " + ctx_->deviceName());
  uint64_t threads = uint64_t(config.block[0]) * config.block[1] * config.block[2];
  if (threads > uint64_t(exe->maxThreadsPerBlock(ordinal)))
    return invalidArgument(what + ": " + std::to_string(threads) +
                           " threads per block but the kernel allows at most " +
                           std::to_string(exe->maxThreadsPerBlock(ordinal)) + " on " +
                           ctx_->deviceName());
  {
    std::lock_guard<std::mutex> lock(ctx_->mutex());
    TESSEL_RETURN_IF_ERROR(ctx_->enter());
    TESSEL_RETURN_IF_ERROR(exe->allowDynamicShared(ordinal, config.dynamicSharedBytes));
  }
  Command c(Command::Kind::Launch);
  size_t bytes = 0;
  for (const std::vector<uint8_t> &v : parameterValues) {
    c.paramOffsets.push_back(bytes);
    bytes += (v.size() + 15) / 16 * 16;
  }
  c.paramWords.assign(bytes / 8, 0);
  for (size_t i = 0; i < parameterValues.size(); ++i)
    std::memcpy(reinterpret_cast<uint8_t *>(c.paramWords.data()) + c.paramOffsets[i],
                parameterValues[i].data(), parameterValues[i].size());
  c.function = exe->function(ordinal);
  c.grid = config.grid;
  c.block = config.block;
  c.sharedBytes = config.dynamicSharedBytes;
  c.name = info.name;
  c.dispatchIndex = dispatchCount_++;
  commands_.push_back(std::move(c));
  return Status();
}

Status CudaCommandBuffer::encodeTensorMaps(const ExportInfo &info,
                                           const std::vector<Buffer *> &bindings, Command &c) {
  if (info.tensorMaps.empty())
    return Status();
  c.maps.resize(info.tensorMaps.size());
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  TESSEL_RETURN_IF_ERROR(ctx_->enter());
  for (size_t j = 0; j < info.tensorMaps.size(); ++j) {
    TensorMapInfo m = info.tensorMaps[j];
    std::string map = "dispatch of '" + info.name + "' tensor map " + std::to_string(j);
    // Dynamic extents: this dispatch's push constants (the loader checked
    // their numbers).
    for (size_t d = 0; d < m.globalDimPushConstants.size(); ++d) {
      int32_t pc = m.globalDimPushConstants[d];
      if (pc < 0)
        continue;
      int64_t extent = size_t(pc) < c.pushConstants.size() ? c.pushConstants[pc] : -1;
      if (extent < 1 || extent > (int64_t(1) << 32))
        return invalidArgument(map + ": dimension " + std::to_string(d) + " is " +
                               std::to_string(extent) + " (push constant " +
                               std::to_string(pc) + "), not in 1 to 2^32");
      m.globalDims[d] = static_cast<uint64_t>(extent);
    }
    // The loader checked the binding against the export's binding count.
    if (m.binding >= c.args.size())
      return invalidArgument(map + ": binding " + std::to_string(m.binding) + " but there are " +
                             std::to_string(c.args.size()) + " bindings");
    CUdeviceptr base = c.args[m.binding];
    if (base % 16 != 0)
      return invalidArgument("dispatch of '" + info.name + "' binding " +
                             std::to_string(m.binding) +
                             ": address not 16-byte aligned for TMA (tensor map " +
                             std::to_string(j) + ")");
    uint64_t extent = 0;
    size_t size = bindings[m.binding]->size();
    if (!tensorMapExtent(m, &extent))
      return invalidArgument(map + ": malformed map (extent not computable)");
    if (extent > size)
      return invalidArgument(map + " spans " + std::to_string(extent) + " bytes of binding " +
                             std::to_string(m.binding) + " but its buffer has " +
                             std::to_string(size) + " bytes");
    CUresult r = ctx_->api().cuTensorMapEncodeTiled(
        reinterpret_cast<CUtensorMap *>(&c.maps[j]), m.dataType,
        static_cast<uint32_t>(m.globalDims.size()), reinterpret_cast<void *>(base),
        m.globalDims.data(), m.globalStrides.empty() ? nullptr : m.globalStrides.data(),
        m.boxDims.data(), m.elementStrides.data(), m.interleave, m.swizzle, m.l2Promotion,
        m.oobFill);
    TESSEL_RETURN_IF_ERROR(ctx_->check(r, "cuTensorMapEncodeTiled for tensor map " +
                                              std::to_string(j) + " of '" + info.name +
                                              "' (binding " + std::to_string(m.binding) + ")"));
  }
  return Status();
}

Status CudaCommandBuffer::prepareStaging() {
  if (pinnedValid_ == stagingHost_.size())
    return Status();
  if (stagingHost_.size() > pinnedCapacity_) {
    if (pinned_)
      ctx_->api().cuMemFreeHost(pinned_);
    pinned_ = nullptr;
    pinnedCapacity_ = pinnedValid_ = 0;
    TESSEL_RETURN_IF_ERROR(
        ctx_->check(ctx_->api().cuMemAllocHost_v2(&pinned_, stagingHost_.size()),
                    "cuMemAllocHost of " + std::to_string(stagingHost_.size()) +
                        " bytes of update staging"));
    pinnedCapacity_ = stagingHost_.size();
  }
  std::memcpy(pinned_, stagingHost_.data(), stagingHost_.size());
  pinnedValid_ = stagingHost_.size();
  return Status();
}

std::string CudaCommandBuffer::describe(const Command &c) const {
  switch (c.kind) {
  case Command::Kind::Fill:
    return "fill of " + std::to_string(c.length) + " bytes";
  case Command::Kind::Update:
    return "update of " + std::to_string(c.length) + " bytes";
  case Command::Kind::Copy:
    return "copy of " + std::to_string(c.length) + " bytes";
  case Command::Kind::Launch:
    return "launch " + std::to_string(c.dispatchIndex) + " '" + c.name + "' (" +
           describeLaunch({c.grid, c.block, c.sharedBytes}) + ")";
  case Command::Kind::Dispatch:
    return "dispatch " + std::to_string(c.dispatchIndex) + " '" + c.name + "' (grid " +
           std::to_string(c.grid[0]) + "x" + std::to_string(c.grid[1]) + "x" +
           std::to_string(c.grid[2]) + ", block " + std::to_string(c.block[0]) + "x" +
           std::to_string(c.block[1]) + "x" + std::to_string(c.block[2]) + ")";
  }
  return "command";
}

Status CudaCommandBuffer::enqueueOne(const Command &c) {
  const CudaApi &api = ctx_->api();
  CUstream stream = ctx_->stream();
  switch (c.kind) {
  case Command::Kind::Fill:
    return ctx_->check(api.cuMemsetD8Async(c.dst, c.value, c.length, stream), describe(c));
  case Command::Kind::Update:
    return ctx_->check(api.cuMemcpyHtoDAsync_v2(c.dst, static_cast<uint8_t *>(pinned_) +
                                                           c.stagingOffset,
                                                 c.length, stream),
                       describe(c));
  case Command::Kind::Copy:
    return ctx_->check(api.cuMemcpyDtoDAsync_v2(c.dst, c.src, c.length, stream), describe(c));
  case Command::Kind::Dispatch: {
    // The ABI: one CUdeviceptr parameter per binding, then one int64 per
    // push constant, then one 128-byte CUtensorMap per tensor map;
    // kernelParams holds a pointer to each value (the driver copies them at
    // launch or capture).
    std::vector<void *> params;
    for (const CUdeviceptr &p : c.args)
      params.push_back(const_cast<CUdeviceptr *>(&p));
    for (const int64_t &v : c.pushConstants)
      params.push_back(const_cast<int64_t *>(&v));
    for (const TensorMapStorage &m : c.maps)
      params.push_back(const_cast<TensorMapStorage *>(&m));
    return ctx_->check(api.cuLaunchKernel(c.function, c.grid[0], c.grid[1], c.grid[2], c.block[0],
                                          c.block[1], c.block[2], c.sharedBytes, stream,
                                          params.empty() ? nullptr : params.data(), nullptr),
                       "launching " + describe(c));
  }
  case Command::Kind::Launch: {
    // A CUDA C kernel: kernelParams points at each parameter value.
    std::vector<void *> params;
    for (size_t offset : c.paramOffsets)
      params.push_back(const_cast<uint8_t *>(reinterpret_cast<const uint8_t *>(c.paramWords.data()) +
                                             offset));
    return ctx_->check(api.cuLaunchKernel(c.function, c.grid[0], c.grid[1], c.grid[2], c.block[0],
                                          c.block[1], c.block[2], c.sharedBytes, stream,
                                          params.empty() ? nullptr : params.data(), nullptr),
                       describe(c));
  }
  }
  return internalError("unknown cuda command");
}

Status CudaCommandBuffer::enqueue(bool syncEach) {
  for (const Command &c : commands_) {
    TESSEL_RETURN_IF_ERROR(enqueueOne(c));
    if (syncEach)
      TESSEL_RETURN_IF_ERROR(ctx_->synchronize("running " + describe(c)));
  }
  return Status();
}

std::string CudaCommandBuffer::describeDispatches() const {
  const Command *only = nullptr;
  std::set<std::string> names;
  for (const Command &c : commands_)
    if (c.kind == Command::Kind::Dispatch || c.kind == Command::Kind::Launch) {
      only = &c;
      names.insert(c.name);
    }
  if (dispatchCount_ == 0)
    return "a command buffer without dispatches";
  if (dispatchCount_ == 1)
    return describe(*only) + ", the only dispatch";
  std::string list;
  size_t shown = 0;
  for (const std::string &n : names) {
    if (++shown > 8) {
      list += ", ...";
      break;
    }
    list += (list.empty() ? "'" : ", '") + n + "'";
  }
  return "one of " + std::to_string(dispatchCount_) + " dispatches (kernels " + list +
         "); run with TESSEL_CUDA_COMMAND_BUFFER=stream TESSEL_CUDA_SYNC_EACH=1 to name the "
         "failing one";
}

} // namespace tessel::rt::hal::cuda
