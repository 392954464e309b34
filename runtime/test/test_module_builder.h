// Test helper: describes modules with plain structs and serializes them with
// the generated FlatBuffers Create* helpers, so tests can build valid modules
// and then break exactly one thing.
#pragma once

#include "tessel/runtime/types.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::rt::testutil {

struct SlotDesc {
  uint8_t kind = 1; // fb::SlotKind: 0 Argument, 1 Transient, 2 Constant
  uint32_t argument = 0;
  uint64_t byteSize = 0;
  std::vector<uint8_t> data;
  bool hasData = false;
};
SlotDesc argumentSlot(uint32_t argument, uint64_t byteSize);
SlotDesc transientSlot(uint64_t byteSize);
SlotDesc constantSlot(std::vector<uint8_t> data);
template <typename T> SlotDesc constantSlotOf(const std::vector<T> &values) {
  const auto *p = reinterpret_cast<const uint8_t *>(values.data());
  return constantSlot(std::vector<uint8_t>(p, p + values.size() * sizeof(T)));
}

struct DispatchDesc {
  uint32_t ordinal = 0;
  std::vector<uint32_t> bindings;
};

/// schema Instruction: `opcode` is an fb::Opcode value.
struct InstructionDesc {
  uint8_t opcode = 0;
  std::vector<int64_t> operands;
};

/// schema HostProgram (version 6; messages: version 7).
struct ProgramDesc {
  uint32_t intRegisters = 0, bufferRegisters = 0;
  std::vector<std::vector<uint8_t>> constants;
  std::vector<InstructionDesc> instructions;
  std::vector<std::string> messages = {};
};

/// schema WorkgroupCountProgram (version 7).
struct CountProgramDesc {
  uint32_t intRegisters = 0;
  std::vector<InstructionDesc> instructions;
  std::vector<uint32_t> results; // x, y, z registers
};

/// A function in the slot form (slots, dispatches, resultSlots) or, with
/// `program` set, as a program (slot fields that are not empty are written
/// too, which the loader refuses).
struct FunctionDesc {
  std::string name;
  std::vector<TensorType> arguments, results;
  std::vector<SlotDesc> slots;
  std::vector<DispatchDesc> dispatches;
  std::vector<uint32_t> resultSlots;
  std::optional<ProgramDesc> program = {};
};

/// schema TensorMap; the default is a valid rank-2 f16 map of a 64x64
/// row-major tensor (128-byte rows) with 64x64 boxes, on binding 0.
struct TensorMapDesc {
  uint32_t binding = 0;
  uint8_t dataType = 6; // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  std::vector<uint64_t> globalDims{64, 64};
  std::vector<uint64_t> globalStrides{128};
  std::vector<uint32_t> boxDims{64, 64};
  std::vector<uint32_t> elementStrides{1, 1};
  uint8_t interleave = 0, swizzle = 3, l2Promotion = 0, oobFill = 0;
  std::vector<int32_t> globalDimPushConstants; // none: every dim as given
};

struct ExportDesc {
  std::string name;
  std::vector<uint32_t> workgroupCount{1, 1, 1};
  uint32_t bindingCount = 0;
  std::vector<uint32_t> workgroupSize{1, 1, 1};
  uint32_t sharedMemoryBytes = 0;
  std::vector<TensorMapDesc> tensorMaps = {};
  uint8_t abi = 0; // fb::KernelAbi: 0 Bindings, 1 CudaC
  std::vector<uint32_t> parameterSizes = {};
  uint32_t residentBlocksPerSm = 0;
  uint64_t scratchBytes = 0, scratchZeroedBytes = 0;
  uint32_t pushConstantCount = 0;
  std::optional<CountProgramDesc> workgroupCountProgram = {};
};
/// A CUDA C kernel export (abi CudaC) taking parameters of `parameterSizes`
/// bytes; workgroup counts and sizes 1,1,1, no bindings.
ExportDesc cudaCExport(const std::string &name, std::vector<uint32_t> parameterSizes);

struct BinaryDesc {
  std::string format = "elf-shared-object";
  std::string arch;
  std::vector<std::string> features;
  std::vector<uint8_t> data;
  /// Written as Binary.crc32; by default the crc32 of `data`.
  std::optional<uint32_t> crc32;
  /// Written as Binary.cpu unless empty.
  std::string cpu = {};
};

struct ExecutableDesc {
  std::string target = "cpu";
  std::vector<ExportDesc> exports;
  std::vector<BinaryDesc> binaries;
};

/// schema Parameter (version 9); neither `data` nor `splat`: external.
struct ParameterDesc {
  std::string name;
  TensorType type;
  std::optional<std::vector<uint8_t>> data = {};
  bool isMutable = false;
  std::optional<std::vector<uint8_t>> splat = {};
};

struct ModuleDesc {
  uint32_t version = 9;
  std::string producer = "tessel-runtime-test";
  std::vector<FunctionDesc> functions;
  std::vector<ExecutableDesc> executables;
  std::vector<ParameterDesc> parameters;
};

/// Serializes `module` as a .tmod file image: the FlatBuffer and its
/// trailer (schema/module.fbs), as tessel-compile writes it.
std::vector<uint8_t> buildModule(const ModuleDesc &module);
/// The FlatBuffer alone, without the trailer (as schema version 1 wrote it).
std::vector<uint8_t> buildFlatBuffer(const ModuleDesc &module);
/// `flatBuffer` followed by its trailer.
std::vector<uint8_t> sealModule(std::vector<uint8_t> flatBuffer);
/// Bytes of the trailer.
constexpr size_t kTrailerSize = 24;
/// zlib's crc32.
uint32_t crc32Of(const std::vector<uint8_t> &bytes);

/// The BLOB that tessel-cc embeds for libtessel_cudart.a
/// (tessel/runtime/cuda_c_abi.h): magic "TSLCUDA1", the module's length as
/// a little-endian uint64, then `module` (a .tmod file image).
std::vector<uint8_t> cudaBlob(const std::vector<uint8_t> &module);

/// The bytes of the test kernel library (kernels/test_kernels.c).
std::vector<uint8_t> testKernelLibrary();
/// "x86_64" / "aarch64".
std::string hostArchName();

/// Elements per workgroup of the test kernels.
constexpr int64_t kKernelWorkgroupSize = 64;
inline uint32_t workgroupsFor(int64_t n) {
  return static_cast<uint32_t>((n + kKernelWorkgroupSize - 1) / kKernelWorkgroupSize);
}

/// A module with one cpu executable holding the test kernel library and no
/// exports or functions yet.
ModuleDesc testModule();
/// Appends an export of kernel `symbol` to executable 0; returns its ordinal.
uint32_t addExport(ModuleDesc &module, const std::string &symbol, uint32_t workgroupsX,
                   uint32_t bindingCount);

/// Adds f(a, b) -> a + b for f32 tensors of `shape`: one add_f32 dispatch.
void addAddFunction(ModuleDesc &module, const std::string &name, std::vector<int64_t> shape);

/// Adds f(a, b: nxf32) -> ((a + b) * factor, a + b): an add_f32 and a
/// scale_f32 dispatch chained through a transient slot; the factor is a
/// constant slot.
void addAddScaleFunction(ModuleDesc &module, const std::string &name, int64_t n, float factor);

} // namespace tessel::rt::testutil
