// CPU command recording and execution.
#include "hal/cpu/cpu_command_buffer.h"

#include "hal/cpu/cpu_executable.h"
#include "tessel/runtime/cuda_c_abi.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace tessel::rt::hal::cpu {

namespace {
StatusOr<uint8_t *> hostPointer(Buffer &buffer, size_t offset, size_t length, const char *what) {
  TESSEL_RETURN_IF_ERROR(checkBufferRange(buffer, offset, length, what));
  TESSEL_ASSIGN_OR_RETURN(void *base, buffer.map());
  return static_cast<uint8_t *>(base) + offset;
}
} // namespace

Status CpuCommandBuffer::fill(Buffer &buffer, size_t offset, size_t length, uint8_t value) {
  TESSEL_ASSIGN_OR_RETURN(uint8_t *p, hostPointer(buffer, offset, length, "fill"));
  commands_.push_back([=] { std::memset(p, value, length); });
  return Status();
}

Status CpuCommandBuffer::update(const void *src, Buffer &dst, size_t dstOffset, size_t length) {
  TESSEL_ASSIGN_OR_RETURN(uint8_t *d, hostPointer(dst, dstOffset, length, "update"));
  // Shared so that the closure stays copyable (std::function requires it).
  auto data = std::make_shared<std::vector<uint8_t>>(static_cast<const uint8_t *>(src),
                                                     static_cast<const uint8_t *>(src) + length);
  commands_.push_back([=] {
    if (length)
      std::memcpy(d, data->data(), length);
  });
  return Status();
}

Status CpuCommandBuffer::copy(Buffer &src, size_t srcOffset, Buffer &dst, size_t dstOffset,
                              size_t length) {
  TESSEL_ASSIGN_OR_RETURN(uint8_t *s, hostPointer(src, srcOffset, length, "copy source"));
  TESSEL_ASSIGN_OR_RETURN(uint8_t *d, hostPointer(dst, dstOffset, length, "copy destination"));
  commands_.push_back([=] { std::memmove(d, s, length); });
  return Status();
}

Status CpuCommandBuffer::dispatch(Executable &executable, uint32_t ordinal,
                                  std::array<uint32_t, 3> workgroupCount,
                                  const std::vector<Buffer *> &bindings,
                                  const std::vector<int64_t> &pushConstants) {
  // Executables given to a cpu command buffer come from CpuDevice, which
  // only creates CpuExecutables.
  auto &exe = static_cast<CpuExecutable &>(executable);
  if (ordinal >= exe.exports().size())
    return invalidArgument("dispatch of export " + std::to_string(ordinal) +
                           " but the executable has " + std::to_string(exe.exports().size()));
  const ExportInfo &info = exe.exports()[ordinal];
  TESSEL_RETURN_IF_ERROR(checkDispatch(info, bindings, pushConstants));
  std::vector<void *> pointers;
  for (Buffer *b : bindings) {
    TESSEL_ASSIGN_OR_RETURN(void *p, b->map());
    pointers.push_back(p);
  }
  // Push constants: the next entries, each entry's 8 bytes holding the value.
  static_assert(sizeof(void *) == sizeof(int64_t), "a table entry holds an int64");
  for (int64_t v : pushConstants) {
    void *entry;
    std::memcpy(&entry, &v, sizeof(v));
    pointers.push_back(entry);
  }
  // Scratch: one more table entry, after the push constants, filled in
  // when the command runs (a later dispatch may still grow the buffer).
  if (info.scratchBytes) {
    pointers.push_back(nullptr);
    if (!scratch_ || scratch_->size() < info.scratchBytes) {
      scratch_.reset();
      StatusOr<std::shared_ptr<Buffer>> lease = scratchCache_->acquire(info.scratchBytes);
      if (!lease.ok())
        return resourceExhausted("dispatch of '" + info.name + "': " + lease.status().message());
      scratch_ = std::move(*lease);
    }
  }
  KernelFn kernel = exe.kernel(ordinal);
  uint64_t x = workgroupCount[0], y = workgroupCount[1], z = workgroupCount[2];
  commands_.push_back([this, kernel, pointers = std::move(pointers), x, y, z,
                       zeroed = info.scratchZeroedBytes,
                       scratch = info.scratchBytes != 0]() mutable {
    if (scratch) {
      // Mapping a cpu buffer cannot fail once it exists.
      void *base = *scratch_->map();
      std::memset(base, 0, zeroed);
      pointers.back() = base;
    }
    void **args = pointers.data();
    // x varies fastest: consecutive workgroups touch neighbouring data.
    pool_->parallelFor(x * y * z, [&](uint64_t id) {
      kernel(args, static_cast<int64_t>(id % x), static_cast<int64_t>(id / x % y),
             static_cast<int64_t>(id / (x * y)));
    });
  });
  return Status();
}

Status CpuCommandBuffer::launch(Executable &executable, uint32_t ordinal,
                                const LaunchConfig &config,
                                const std::vector<std::vector<uint8_t>> &parameterValues) {
  auto &exe = static_cast<CpuExecutable &>(executable);
  if (ordinal >= exe.exports().size())
    return invalidArgument("launch of export " + std::to_string(ordinal) +
                           " but the executable has " + std::to_string(exe.exports().size()));
  const ExportInfo &info = exe.exports()[ordinal];
  TESSEL_RETURN_IF_ERROR(checkLaunch(info, config, parameterValues));

  // The CUDA C cpu ABI (tessel/runtime/cuda_c_abi.h): args[0] -> TesselLaunch,
  // args[1 + i] -> the value of parameter i, each 64-byte aligned, in one
  // allocation owned by the command.
  constexpr size_t kAlign = TESSEL_CUDA_C_PARAMETER_ALIGNMENT;
  auto roundUp = [](size_t n) { return (n + kAlign - 1) / kAlign * kAlign; };
  std::vector<size_t> offsets;
  size_t total = roundUp(sizeof(TesselLaunch));
  for (const std::vector<uint8_t> &v : parameterValues) {
    offsets.push_back(total);
    total += roundUp(v.size());
  }
  std::shared_ptr<uint8_t> storage(static_cast<uint8_t *>(std::aligned_alloc(kAlign, total)),
                                   std::free);
  if (!storage)
    return resourceExhausted("launch of '" + info.name + "': cannot allocate " +
                             std::to_string(total) + " bytes for its parameters");
  std::memset(storage.get(), 0, total);
  TesselLaunch l{};
  for (int d = 0; d < 3; ++d) {
    l.grid[d] = config.grid[d];
    l.block[d] = config.block[d];
  }
  l.dynamic_shared_bytes = config.dynamicSharedBytes;
  std::memcpy(storage.get(), &l, sizeof(l));
  auto args = std::make_shared<std::vector<void *>>();
  args->push_back(storage.get());
  for (size_t i = 0; i < parameterValues.size(); ++i) {
    std::memcpy(storage.get() + offsets[i], parameterValues[i].data(), parameterValues[i].size());
    args->push_back(storage.get() + offsets[i]);
  }

  KernelFn kernel = exe.kernel(ordinal);
  uint64_t x = config.grid[0], y = config.grid[1], z = config.grid[2];
  commands_.push_back([this, kernel, storage, args, x, y, z] {
    void **a = args->data();
    // x varies fastest, as CUDA numbers blocks.
    pool_->parallelFor(x * y * z, [&](uint64_t id) {
      kernel(a, static_cast<int64_t>(id % x), static_cast<int64_t>(id / x % y),
             static_cast<int64_t>(id / (x * y)));
    });
  });
  return Status();
}

void CpuCommandBuffer::execute() {
  for (auto &command : commands_)
    command();
}

} // namespace tessel::rt::hal::cpu
