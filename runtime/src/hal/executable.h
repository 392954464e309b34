// HAL executable: the kernels of one module executable, loaded on a device.
#pragma once

#include "tessel/runtime/status.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessel::rt::detail {
/// Defined with the host programs (module/function_program.h): the HAL
/// carries it for the interpreter, never runs it.
struct WorkgroupCountProgram;
} // namespace tessel::rt::detail

namespace tessel::rt::hal {

/// One TMA tensor map (schema `TensorMap`), checked by the module loader
/// against the limits of cuTensorMapEncodeTiled. Dimensions are innermost
/// first; the enum fields hold the CUDA driver's CUtensorMap* values.
struct TensorMapInfo {
  uint32_t binding = 0;
  uint8_t dataType = 0;
  std::vector<uint64_t> globalDims;     ///< rank entries (1..5)
  std::vector<uint64_t> globalStrides;  ///< bytes, rank - 1 entries
  std::vector<uint32_t> boxDims;        ///< rank entries
  std::vector<uint32_t> elementStrides; ///< rank entries
  uint8_t interleave = 0, swizzle = 0, l2Promotion = 0, oobFill = 0;
  /// Empty, or rank entries: -1, or the push constant of the dispatch
  /// whose value is that dimension (a dynamic extent).
  std::vector<int32_t> globalDimPushConstants;
};

/// Bytes per element of CUtensorMapDataType `dataType` (0..12), 0 for
/// another value.
inline uint32_t tensorMapElementBytes(uint8_t dataType) {
  static constexpr uint8_t kBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return dataType < sizeof(kBytes) ? kBytes[dataType] : 0;
}

/// Bytes from a map's base address to one past its farthest element:
/// elementBytes + sum over d of (globalDims[d] - 1) * stride(d), where
/// stride(0) is the element size and stride(d) is globalStrides[d - 1].
/// Returns false if the map is malformed (see the loader's checks) or the
/// extent does not fit 64 bits.
inline bool tensorMapExtent(const TensorMapInfo &m, uint64_t *extent) {
  uint64_t bytes = tensorMapElementBytes(m.dataType);
  if (bytes == 0 || m.globalDims.empty() || m.globalStrides.size() + 1 != m.globalDims.size())
    return false;
  uint64_t total = bytes;
  for (size_t d = 0; d < m.globalDims.size(); ++d) {
    uint64_t stride = d == 0 ? bytes : m.globalStrides[d - 1];
    uint64_t steps = m.globalDims[d] == 0 ? 0 : m.globalDims[d] - 1;
    if (stride != 0 && steps > (UINT64_MAX - total) / stride)
      return false;
    total += steps * stride;
  }
  *extent = total;
  return true;
}

/// How a kernel takes its arguments (schema `KernelAbi`).
enum class KernelAbi : uint8_t {
  /// Buffer bindings, dispatched by a host program (CommandBuffer::dispatch).
  kBindings = 0,
  /// A CUDA C kernel: grid, block and parameter values per launch
  /// (CommandBuffer::launch); see tessel/runtime/cuda_c_abi.h.
  kCudaC = 1,
};

/// One kernel as described by the module (schema `Export`).
struct ExportInfo {
  std::string name;
  std::array<uint32_t, 3> workgroupCount{1, 1, 1};
  std::array<uint32_t, 3> workgroupSize{1, 1, 1};
  uint32_t bindingCount = 0;
  uint32_t sharedMemoryBytes = 0;
  /// Passed by value after the binding pointers (cuda only).
  std::vector<TensorMapInfo> tensorMaps;
  KernelAbi abi = KernelAbi::kBindings;
  /// kCudaC: bytes of each kernel parameter, in order.
  std::vector<uint32_t> parameterSizes;
  /// cuda: a persistent grid (the kernel strides by gridDim.x), launched
  /// with at most this many blocks per SM of the device; 0: as given. A
  /// prepared cuda executable lowers it to what the device holds at once.
  uint32_t residentBlocksPerSm = 0;
  /// cpu, kBindings: bytes of memory shared by the dispatch's workgroups,
  /// passed as the binding table entry after the bindings and push
  /// constants (64-byte aligned); its first
  /// scratchZeroedBytes are zero when the dispatch starts. 0: none.
  uint64_t scratchBytes = 0;
  uint64_t scratchZeroedBytes = 0;
  /// kBindings: int64 values each dispatch passes after the bindings. cpu:
  /// binding table entries bindingCount .. bindingCount + count - 1 (an
  /// entry's 8 bytes hold the value; the scratch entry follows them); cuda:
  /// int64 kernel parameters after the binding pointers, before the tensor
  /// maps.
  uint32_t pushConstantCount = 0;
  /// When set, each dispatch's workgroup count is computed from its push
  /// constants (by the host-program interpreter) instead of workgroupCount.
  std::shared_ptr<const detail::WorkgroupCountProgram> workgroupCountProgram;
};

/// One loadable image (schema `Binary`); `data` points into the module file,
/// which outlives executable creation.
struct BinaryInfo {
  std::string format;
  std::string arch;
  std::vector<std::string> features;
  const uint8_t *data = nullptr;
  size_t size = 0;
  /// cpu: the CPU the code was compiled for ("x86-64-v3"), informative;
  /// "" if the module does not say.
  std::string cpu = {};
};

/// Everything a driver needs to prepare an executable (schema `Executable`),
/// independent of the FlatBuffers types. `name` is used in errors.
struct ExecutableSpec {
  std::string name;
  std::string target;
  std::vector<ExportInfo> exports;
  std::vector<BinaryInfo> binaries;
};

/// A prepared executable; export i serves dispatch ordinal i.
class Executable {
public:
  virtual ~Executable() = default;
  virtual const std::vector<ExportInfo> &exports() const = 0;
};

} // namespace tessel::rt::hal
