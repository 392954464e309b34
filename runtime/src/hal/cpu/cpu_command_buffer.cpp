// CPU command recording and execution.
#include "hal/cpu/cpu_command_buffer.h"

#include "hal/cpu/cpu_executable.h"

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
                                  const std::vector<Buffer *> &bindings) {
  // Executables given to a cpu command buffer come from CpuDevice, which
  // only creates CpuExecutables.
  auto &exe = static_cast<CpuExecutable &>(executable);
  if (ordinal >= exe.exports().size())
    return invalidArgument("dispatch of export " + std::to_string(ordinal) +
                           " but the executable has " + std::to_string(exe.exports().size()));
  const ExportInfo &info = exe.exports()[ordinal];
  if (bindings.size() != info.bindingCount)
    return invalidArgument("dispatch of '" + info.name + "' with " +
                           std::to_string(bindings.size()) + " bindings, expected " +
                           std::to_string(info.bindingCount));
  std::vector<void *> pointers;
  for (Buffer *b : bindings) {
    TESSEL_ASSIGN_OR_RETURN(void *p, b->map());
    pointers.push_back(p);
  }
  KernelFn kernel = exe.kernel(ordinal);
  uint64_t x = workgroupCount[0], y = workgroupCount[1], z = workgroupCount[2];
  commands_.push_back([this, kernel, pointers = std::move(pointers), x, y, z]() mutable {
    void **args = pointers.data();
    // x varies fastest: consecutive workgroups touch neighbouring data.
    pool_.parallelFor(x * y * z, [&](uint64_t id) {
      kernel(args, static_cast<int64_t>(id % x), static_cast<int64_t>(id / x % y),
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
