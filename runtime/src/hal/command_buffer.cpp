// Checks shared by every driver's CommandBuffer::launch (CUDA C kernels) and
// dispatch.
#include "hal/command_buffer.h"

#include <string>

namespace tessel::rt::hal {

namespace {
std::string dims(const std::array<uint32_t, 3> &d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}
} // namespace

std::string describeLaunch(const LaunchConfig &config) {
  std::string s = "grid " + dims(config.grid) + ", block " + dims(config.block);
  if (config.dynamicSharedBytes)
    s += ", " + std::to_string(config.dynamicSharedBytes) + " bytes of dynamic shared memory";
  return s;
}

Status checkLaunch(const ExportInfo &info, const LaunchConfig &config,
                   const std::vector<std::vector<uint8_t>> &parameterValues) {
  std::string what = "launch of '" + info.name + "'";
  if (info.abi != KernelAbi::kCudaC)
    return invalidArgument(what + ": not a CUDA C kernel (abi Bindings): record it with "
                                  "dispatch()");
  if (parameterValues.size() != info.parameterSizes.size())
    return invalidArgument(what + " with " + std::to_string(parameterValues.size()) +
                           " parameter values, expected " +
                           std::to_string(info.parameterSizes.size()));
  for (size_t i = 0; i < parameterValues.size(); ++i)
    if (parameterValues[i].size() != info.parameterSizes[i])
      return invalidArgument(what + ": parameter " + std::to_string(i) + " has " +
                             std::to_string(parameterValues[i].size()) + " bytes, expected " +
                             std::to_string(info.parameterSizes[i]));
  what += " (" + describeLaunch(config) + ")";
  for (int d = 0; d < 3; ++d)
    if (config.grid[d] == 0 || config.block[d] == 0)
      return invalidArgument(what + ": every grid and block dimension must be at least 1");
  uint64_t threads = uint64_t(config.block[0]) * config.block[1] * config.block[2];
  if (threads > kMaxLaunchThreads)
    return invalidArgument(what + ": " + std::to_string(threads) +
                           " threads per block (at most " + std::to_string(kMaxLaunchThreads) +
                           ")");
  if (config.block[2] > kMaxLaunchBlockZ)
    return invalidArgument(what + ": block z is " + std::to_string(config.block[2]) +
                           " (at most " + std::to_string(kMaxLaunchBlockZ) + ")");
  if (config.grid[0] > kMaxLaunchGridX)
    return invalidArgument(what + ": grid x is " + std::to_string(config.grid[0]) +
                           " (at most " + std::to_string(kMaxLaunchGridX) + ")");
  for (int d = 1; d < 3; ++d)
    if (config.grid[d] > kMaxLaunchGridYZ)
      return invalidArgument(what + ": grid " + (d == 1 ? "y" : "z") + " is " +
                             std::to_string(config.grid[d]) + " (at most " +
                             std::to_string(kMaxLaunchGridYZ) + ")");
  return Status();
}

Status checkDispatch(const ExportInfo &info, const std::vector<Buffer *> &bindings,
                     const std::vector<int64_t> &pushConstants) {
  std::string what = "dispatch of '" + info.name + "'";
  if (info.abi == KernelAbi::kCudaC)
    return invalidArgument(what + ": a CUDA C kernel (abi CudaC) takes parameters and a grid: "
                                  "record it with launch()");
  if (bindings.size() != info.bindingCount)
    return invalidArgument(what + " with " + std::to_string(bindings.size()) +
                           " bindings, expected " + std::to_string(info.bindingCount));
  if (pushConstants.size() != info.pushConstantCount)
    return invalidArgument(what + " with " + std::to_string(pushConstants.size()) +
                           " push constants, expected " + std::to_string(info.pushConstantCount));
  return Status();
}

} // namespace tessel::rt::hal
