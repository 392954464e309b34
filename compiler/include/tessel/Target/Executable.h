//===- Executable.h - compiled executables of a module ---------*- C++ -*-===//
//
// What a target backend hands to the module writer: one kernel per dispatch
// (same ordinals for every target) and the binaries that implement them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TARGET_EXECUTABLE_H
#define TESSEL_TARGET_EXECUTABLE_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tessel {

/// One TMA tensor map (CUtensorMap) the runtime encodes with
/// cuTensorMapEncodeTiled when it records a dispatch, from the address of
/// binding `binding`, and passes by value after the binding pointers
/// (schema `TensorMap`). Dimensions are innermost first; the enum fields
/// hold the CUDA driver's CUtensorMap* values.
struct TensorMapSpec {
  uint32_t binding = 0;
  uint8_t dataType = 0;
  std::vector<uint64_t> globalDims;    ///< rank entries
  std::vector<uint64_t> globalStrides; ///< bytes, rank - 1 entries
  std::vector<uint32_t> boxDims;       ///< rank entries, each <= 256
  std::vector<uint32_t> elementStrides; ///< rank entries (1)
  uint8_t interleave = 0, swizzle = 0, l2Promotion = 0, oobFill = 0;
  /// Empty, or rank entries: -1, or the push constant whose value is that
  /// dimension when the runtime encodes the map (schema version 8).
  std::vector<int32_t> globalDimPushConstants;
};

/// How a kernel takes its arguments (schema `KernelAbi`).
enum class KernelAbi : uint8_t {
  /// Buffer bindings, dispatched by a host program.
  Bindings = 0,
  /// A CUDA C `__global__` function (tessel-cc), launched only through the
  /// CUDA runtime library with a grid, a block and parameter values
  /// (runtime/include/tessel/runtime/cuda_c_abi.h). For such an export
  /// `name` is the kernel's mangled name, workgroupCount/workgroupSize stay
  /// 1,1,1, bindingCount 0, tensorMaps empty, sharedMemoryBytes is the
  /// kernel's static shared memory (informative) and parameterSizes gives
  /// the bytes of each parameter.
  CudaC = 1,
};

/// A workgroup count computed per dispatch from the kernel's push constants
/// (schema `WorkgroupCountProgram`): registers 0 .. push constants - 1 hold
/// them, `instructions` (each an fb::Opcode value, then its operands) run
/// in order, `results` name the x, y and z registers.
struct WorkgroupCountProgram {
  uint32_t intRegisters = 0;
  std::vector<std::vector<int64_t>> instructions;
  std::array<uint32_t, 3> results = {0, 0, 0};
};

struct KernelExport {
  std::string name;
  std::array<uint32_t, 3> workgroupCount = {1, 1, 1};
  std::array<uint32_t, 3> workgroupSize = {1, 1, 1};
  uint32_t bindingCount = 0;
  uint32_t sharedMemoryBytes = 0;
  /// Tensor maps passed after the binding pointers (cuda sm_90a kernels).
  std::vector<TensorMapSpec> tensorMaps;
  KernelAbi abi = KernelAbi::Bindings;
  /// CudaC only: bytes of each kernel parameter, in order (at most 256
  /// parameters, each 1 to 4096 bytes).
  std::vector<uint32_t> parameterSizes;
  /// A persistent grid: launched with at most this many blocks per SM of
  /// the device that runs it (schema `resident_blocks_per_sm`); 0: the
  /// grid as given.
  uint32_t residentBlocksPerSm = 0;
  /// cpu: bytes of memory shared by the dispatch's workgroups (binding
  /// table entry bindingCount) and of its prefix zeroed before each
  /// dispatch (schema `scratch_bytes`, `scratch_zeroed_bytes`); 0: none.
  uint64_t scratchBytes = 0, scratchZeroedBytes = 0;
  /// i64 values passed after the bindings (the dynamic dimensions of the
  /// kernel's operands and results; schema `push_constant_count`).
  uint32_t pushConstantCount = 0;
  /// Set when the workgroup count depends on the push constants; then
  /// `workgroupCount` is unused.
  std::optional<WorkgroupCountProgram> workgroupCountProgram;
};

/// On a cuda kernel: its grid is persistent (the kernel strides over its
/// work by gridDim.x), at most this many blocks per SM (i64). Read into
/// KernelExport::residentBlocksPerSm.
inline constexpr const char *kResidentBlocksPerSmAttr =
    "tessel.resident_blocks_per_sm";

struct BinaryImage {
  std::string format; ///< "elf-shared-object", "ptx", "cubin"
  std::string arch;   ///< "x86_64", "sm_90", ...
  /// cpu: the CPU the code was compiled for ("x86-64-v3", "znver4"), for
  /// people; "" for others.
  std::string cpu;
  std::vector<std::string> features;
  std::vector<uint8_t> data;
};

struct ExecutableImage {
  std::string target; ///< "cpu", "cuda"
  std::vector<KernelExport> exports;
  std::vector<BinaryImage> binaries;
};

} // namespace mlir::tessel

#endif
