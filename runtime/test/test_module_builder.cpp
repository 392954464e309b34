// Serializing ModuleDesc with the generated FlatBuffers helpers, plus the
// canned functions over the test kernels.
#include "test_module_builder.h"

#include "module_generated.h"
#include "tessel/runtime/cuda_c_abi.h"

#include <zlib.h>

#include <cstdio>
#include <stdexcept>

namespace tessel::rt::testutil {

namespace fb = tessel::fb;

SlotDesc argumentSlot(uint32_t argument, uint64_t byteSize) {
  return SlotDesc{fb::SlotKind_Argument, argument, byteSize, {}, false};
}
SlotDesc transientSlot(uint64_t byteSize) {
  return SlotDesc{fb::SlotKind_Transient, 0, byteSize, {}, false};
}
SlotDesc constantSlot(std::vector<uint8_t> data) {
  uint64_t size = data.size();
  return SlotDesc{fb::SlotKind_Constant, 0, size, std::move(data), true};
}

uint32_t crc32Of(const std::vector<uint8_t> &bytes) {
  return static_cast<uint32_t>(
      ::crc32(::crc32(0L, Z_NULL, 0), bytes.data(), static_cast<uInt>(bytes.size())));
}

std::vector<uint8_t> sealModule(std::vector<uint8_t> bytes) {
  uint32_t crc = crc32Of(bytes);
  uint64_t length = bytes.size();
  const char magic[] = "TMODTAIL";
  bytes.insert(bytes.end(), magic, magic + 8);
  auto put = [&](uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
  };
  put(1, 4); // trailer version
  put(crc, 4);
  put(length, 8);
  return bytes;
}

std::vector<uint8_t> buildModule(const ModuleDesc &m) { return sealModule(buildFlatBuffer(m)); }

std::vector<uint8_t> buildFlatBuffer(const ModuleDesc &m) {
  flatbuffers::FlatBufferBuilder b;
  auto types = [&](const std::vector<TensorType> &ts) {
    std::vector<flatbuffers::Offset<fb::TensorType>> out;
    for (const TensorType &t : ts)
      out.push_back(fb::CreateTensorType(b, static_cast<fb::ElementType>(t.elementType),
                                         b.CreateVector(t.shape)));
    return b.CreateVector(out);
  };
  std::vector<flatbuffers::Offset<fb::Function>> functions;
  for (const FunctionDesc &f : m.functions) {
    std::vector<flatbuffers::Offset<fb::Slot>> slots;
    for (const SlotDesc &s : f.slots)
      slots.push_back(fb::CreateSlot(b, static_cast<fb::SlotKind>(s.kind), s.argument, s.byteSize,
                                     s.hasData ? b.CreateVector(s.data) : 0));
    std::vector<flatbuffers::Offset<fb::Dispatch>> dispatches;
    for (const DispatchDesc &d : f.dispatches)
      dispatches.push_back(fb::CreateDispatch(b, d.ordinal, b.CreateVector(d.bindings)));
    auto name = b.CreateString(f.name);
    auto args = types(f.arguments);
    auto results = types(f.results);
    if (f.program) {
      std::vector<flatbuffers::Offset<fb::Constant>> constants;
      for (const std::vector<uint8_t> &c : f.program->constants)
        constants.push_back(fb::CreateConstant(b, b.CreateVector(c)));
      std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
      for (const InstructionDesc &in : f.program->instructions)
        instructions.push_back(fb::CreateInstruction(b, static_cast<fb::Opcode>(in.opcode),
                                                     b.CreateVector(in.operands)));
      auto program = fb::CreateHostProgram(
          b, f.program->intRegisters, f.program->bufferRegisters, b.CreateVector(constants),
          b.CreateVector(instructions),
          f.program->messages.empty() ? 0 : b.CreateVectorOfStrings(f.program->messages));
      // Slot fields only where a test sets them beside the program (an error).
      functions.push_back(fb::CreateFunction(
          b, name, args, results, slots.empty() ? 0 : b.CreateVector(slots),
          dispatches.empty() ? 0 : b.CreateVector(dispatches),
          f.resultSlots.empty() ? 0 : b.CreateVector(f.resultSlots), program));
      continue;
    }
    functions.push_back(fb::CreateFunction(b, name, args, results, b.CreateVector(slots),
                                           b.CreateVector(dispatches),
                                           b.CreateVector(f.resultSlots)));
  }
  std::vector<flatbuffers::Offset<fb::Executable>> executables;
  for (const ExecutableDesc &e : m.executables) {
    std::vector<flatbuffers::Offset<fb::Export>> exports;
    for (const ExportDesc &x : e.exports) {
      std::vector<flatbuffers::Offset<fb::TensorMap>> maps;
      for (const TensorMapDesc &t : x.tensorMaps)
        maps.push_back(fb::CreateTensorMap(b, t.binding, t.dataType, b.CreateVector(t.globalDims),
                                           b.CreateVector(t.globalStrides),
                                           b.CreateVector(t.boxDims),
                                           b.CreateVector(t.elementStrides), t.interleave,
                                           t.swizzle, t.l2Promotion, t.oobFill,
                                           t.globalDimPushConstants.empty()
                                               ? 0
                                               : b.CreateVector(t.globalDimPushConstants)));
      flatbuffers::Offset<fb::WorkgroupCountProgram> count = 0;
      if (x.workgroupCountProgram) {
        std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
        for (const InstructionDesc &in : x.workgroupCountProgram->instructions)
          instructions.push_back(fb::CreateInstruction(b, static_cast<fb::Opcode>(in.opcode),
                                                       b.CreateVector(in.operands)));
        count = fb::CreateWorkgroupCountProgram(b, x.workgroupCountProgram->intRegisters,
                                                b.CreateVector(instructions),
                                                b.CreateVector(x.workgroupCountProgram->results));
      }
      exports.push_back(fb::CreateExport(
          b, b.CreateString(x.name),
          x.workgroupCount.empty() ? 0 : b.CreateVector(x.workgroupCount),
          b.CreateVector(x.workgroupSize), x.bindingCount, x.sharedMemoryBytes,
          maps.empty() ? 0 : b.CreateVector(maps), static_cast<fb::KernelAbi>(x.abi),
          x.parameterSizes.empty() ? 0 : b.CreateVector(x.parameterSizes),
          x.residentBlocksPerSm, x.scratchBytes, x.scratchZeroedBytes, x.pushConstantCount,
          count));
    }
    std::vector<flatbuffers::Offset<fb::Binary>> binaries;
    for (const BinaryDesc &bin : e.binaries) {
      auto format = b.CreateString(bin.format);
      auto arch = b.CreateString(bin.arch);
      auto features = b.CreateVectorOfStrings(bin.features);
      uint32_t crc = bin.crc32 ? *bin.crc32 : crc32Of(bin.data);
      auto cpu = bin.cpu.empty() ? 0 : b.CreateString(bin.cpu);
      binaries.push_back(
          fb::CreateBinary(b, format, arch, features, b.CreateVector(bin.data), crc, cpu));
    }
    auto target = b.CreateString(e.target);
    executables.push_back(fb::CreateExecutable(b, target, b.CreateVector(exports),
                                               b.CreateVector(binaries)));
  }
  auto producer = b.CreateString(m.producer);
  std::vector<flatbuffers::Offset<fb::Parameter>> parameters;
  for (const ParameterDesc &q : m.parameters) {
    flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data;
    if (q.data) {
      b.ForceVectorAlignment(q.data->size(), 1, 64);
      data = b.CreateVector(*q.data);
    }
    parameters.push_back(fb::CreateParameter(
        b, b.CreateString(q.name),
        fb::CreateTensorType(b, static_cast<fb::ElementType>(q.type.elementType),
                             b.CreateVector(q.type.shape)),
        data, q.isMutable, q.splat ? b.CreateVector(*q.splat) : 0));
  }
  auto root = fb::CreateModule(b, m.version, producer, b.CreateVector(functions),
                               b.CreateVector(executables),
                               parameters.empty() ? 0 : b.CreateVector(parameters));
  fb::FinishModuleBuffer(b, root);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

std::vector<uint8_t> cudaBlob(const std::vector<uint8_t> &module) {
  std::vector<uint8_t> blob(TESSEL_CUDA_BLOB_MAGIC, TESSEL_CUDA_BLOB_MAGIC + 8);
  for (int i = 0; i < 8; ++i)
    blob.push_back(static_cast<uint8_t>(uint64_t(module.size()) >> (8 * i)));
  blob.insert(blob.end(), module.begin(), module.end());
  return blob;
}

std::vector<uint8_t> testKernelLibrary() {
  FILE *f = std::fopen(TESSEL_TEST_KERNELS_PATH, "rb");
  if (!f)
    throw std::runtime_error("cannot open " TESSEL_TEST_KERNELS_PATH);
  std::vector<uint8_t> bytes;
  int c;
  while ((c = std::fgetc(f)) != EOF)
    bytes.push_back(static_cast<uint8_t>(c));
  std::fclose(f);
  return bytes;
}

std::string hostArchName() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "unknown";
#endif
}

ModuleDesc testModule() {
  ModuleDesc m;
  ExecutableDesc e;
  e.binaries.push_back(
      BinaryDesc{"elf-shared-object", hostArchName(), {}, testKernelLibrary(), std::nullopt});
  m.executables.push_back(std::move(e));
  return m;
}

ExportDesc cudaCExport(const std::string &name, std::vector<uint32_t> parameterSizes) {
  ExportDesc x{name, {1, 1, 1}, 0};
  x.abi = fb::KernelAbi_CudaC;
  x.parameterSizes = std::move(parameterSizes);
  return x;
}

uint32_t addExport(ModuleDesc &m, const std::string &symbol, uint32_t workgroupsX,
                   uint32_t bindingCount) {
  auto &exports = m.executables.at(0).exports;
  exports.push_back(ExportDesc{symbol, {workgroupsX, 1, 1}, bindingCount});
  return static_cast<uint32_t>(exports.size() - 1);
}

void addAddFunction(ModuleDesc &m, const std::string &name, std::vector<int64_t> shape) {
  TensorType type{ElementType::f32, std::move(shape)};
  int64_t n = type.numElements();
  FunctionDesc f;
  f.name = name;
  f.arguments = {type, type};
  f.results = {type};
  f.slots = {constantSlotOf(std::vector<int64_t>{n}), argumentSlot(0, type.byteSize()),
             argumentSlot(1, type.byteSize()), transientSlot(type.byteSize())};
  f.dispatches = {{addExport(m, "add_f32", workgroupsFor(n), 4), {0, 1, 2, 3}}};
  f.resultSlots = {3};
  m.functions.push_back(std::move(f));
}

void addAddScaleFunction(ModuleDesc &m, const std::string &name, int64_t n, float factor) {
  TensorType type{ElementType::f32, {n}};
  FunctionDesc f;
  f.name = name;
  f.arguments = {type, type};
  f.results = {type, type};
  f.slots = {constantSlotOf(std::vector<int64_t>{n}),    constantSlotOf(std::vector<float>{factor}),
             argumentSlot(0, type.byteSize()),           argumentSlot(1, type.byteSize()),
             transientSlot(type.byteSize()),             transientSlot(type.byteSize())};
  f.dispatches = {{addExport(m, "add_f32", workgroupsFor(n), 4), {0, 2, 3, 4}},
                  {addExport(m, "scale_f32", workgroupsFor(n), 4), {0, 1, 4, 5}}};
  f.resultSlots = {5, 4};
  m.functions.push_back(std::move(f));
}

} // namespace tessel::rt::testutil
